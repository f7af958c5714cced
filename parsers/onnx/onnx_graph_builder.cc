#include "onnx_graph_builder.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ge/ir/nesting.h"
#include "onnx_attrs.h"
#include "onnx_model_prep.h"
#include "onnx_tensor.h"

namespace ge::onnx_parser {

namespace {

constexpr const char* kOpsetAttr = "_opset";

// Builds one graph; a subgraph's builder points at its parent to tell an
// outer-scope reference from a name that is not defined anywhere.
class GraphBuilder {
 public:
  // `context` prefixes errors inside subgraphs: "if1 (If): subgraph 'then_branch'".
  // `captures`: the outer-scope values the node owning this subgraph reads
  // through its subgraphs (shared by all of them; null for the main graph).
  GraphBuilder(const onnx::GraphProto& proto, int64_t opset, GraphBuilder* parent, std::string default_name,
               std::string context, std::vector<std::string>* captures = nullptr)
      : proto_(proto),
        opset_(opset),
        parent_(parent),
        context_(std::move(context)),
        captures_(captures),
        graph_(std::make_unique<Graph>(proto.name().empty() ? std::move(default_name) : proto.name())) {}

  Result<std::unique_ptr<Graph>> Build(const std::vector<std::string>& out_nodes) {
    IndexTypes();
    GE_RETURN_IF_ERROR(AddInputs());
    GE_RETURN_IF_ERROR(AddInitializers());
    ReserveNodeNames();
    for (int i = 0; i < proto_.node_size(); ++i) GE_RETURN_IF_ERROR(AddNode(proto_.node(i), i));
    GE_RETURN_IF_ERROR(AddNetOutput(out_nodes));
    return std::move(graph_);
  }

 private:
  std::string Where(const std::string& msg) const { return context_.empty() ? msg : context_ + ": " + msg; }

  // Subgraph levels above this graph (0 for the main graph).
  int Depth() const {
    int depth = 0;
    for (const GraphBuilder* p = parent_; p; p = p->parent_) ++depth;
    return depth;
  }

  // The producer of `tensor` in an enclosing graph, or null.
  const Endpoint* InAncestor(const std::string& tensor) const {
    for (const GraphBuilder* p = parent_; p; p = p->parent_)
      if (auto it = p->tensors_.find(tensor); it != p->tensors_.end()) return &it->second;
    return nullptr;
  }

  // Where `tensor` comes from in this graph. A value of an enclosing graph is
  // captured as GE's parser does: it becomes a Data node here (index: this
  // graph's own inputs, then the owning node's captures in order) and, when
  // the owning node is finished, an explicit input of that node.
  Result<Endpoint> Resolve(const std::string& tensor) {
    if (auto it = tensors_.find(tensor); it != tensors_.end()) return it->second;
    const Endpoint* outer = InAncestor(tensor);
    if (!outer || !captures_) return NotFound(tensor);
    auto pos = std::find(captures_->begin(), captures_->end(), tensor);
    if (pos == captures_->end()) pos = captures_->insert(captures_->end(), tensor);
    Node* d = AddCaptureData(*graph_, tensor, formal_inputs_ + (pos - captures_->begin()),
                             outer->node->output_desc(outer->index));
    GE_RETURN_IF_ERROR(Define(tensor, d, 0));
    return Endpoint{d, 0};
  }

  static Node* AddCaptureData(Graph& g, const std::string& tensor, int64_t index, const TensorDesc& desc) {
    Node* d = g.AddNode(op::kData, g.MakeUniqueName(tensor), 0, 1);
    d->SetAttr("index", index);
    d->SetAttr("_captured", tensor);
    d->output_desc(0) = desc;
    return d;
  }

  // Value types after shape inference: inputs, outputs and value_info.
  void IndexTypes() {
    for (const auto& v : proto_.input()) types_[v.name()] = &v.type();
    for (const auto& v : proto_.value_info()) types_[v.name()] = &v.type();
    for (const auto& v : proto_.output()) types_[v.name()] = &v.type();
  }

  TensorDesc DescOf(const std::string& tensor) const {
    auto it = types_.find(tensor);
    return it == types_.end() ? TensorDesc(DataType::kUndefined, {kUnknownRank}) : TensorDescFromType(*it->second);
  }

  Status Define(const std::string& tensor, Node* node, int index) {
    if (!tensors_.emplace(tensor, Endpoint{node, index}).second)
      return InvalidArgument(
          Where("tensor '" + tensor + "' is defined twice (the second time by " + node->Label() + ")"));
    return Status::Ok();
  }

  Status AddInputs() {
    std::unordered_set<std::string> initializers;
    for (const auto& t : proto_.initializer()) initializers.insert(t.name());
    int64_t index = 0;
    for (const auto& in : proto_.input()) {
      if (initializers.count(in.name())) continue;  // a weight with a default value: a Const
      Node* n = graph_->AddNode(op::kData, in.name(), 0, 1);
      n->SetAttr("index", index++);
      n->output_desc(0) = TensorDescFromType(in.type());
      formal_inputs_ = index;
      // The file's names of unknown dims (dim_param): equal names are one
      // symbolic dim (docs/dynamic-shapes.md).
      if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
        std::vector<std::string> names;
        bool any = false;
        for (const auto& d : in.type().tensor_type().shape().dim()) {
          names.push_back(d.has_dim_value() ? "" : d.dim_param());
          any |= !names.back().empty();
        }
        if (any && names.size() == n->output_desc(0).dims.size()) n->SetAttr("dim_names", names);
      }
      GE_RETURN_IF_ERROR(Define(in.name(), n, 0));
    }
    return Status::Ok();
  }

  Status AddInitializers() {
    for (const auto& t : proto_.initializer()) {
      GE_ASSIGN_OR_RETURN(Tensor value, TensorFromOnnx(t, Where("initializer '" + t.name() + "'")));
      Node* n = graph_->AddNode(op::kConst, t.name(), 0, 1);
      n->output_desc(0) = value.desc();
      n->SetAttr("value", std::move(value));
      GE_RETURN_IF_ERROR(Define(t.name(), n, 0));
    }
    return Status::Ok();
  }

  // Names the file gives its nodes win over names we make up for unnamed or
  // duplicate ones, even when the named node comes later.
  void ReserveNodeNames() {
    for (const auto& n : proto_.node())
      if (!n.name().empty()) ++pending_names_[n.name()];
  }

  bool NameFree(const std::string& name) const {
    if (graph_->FindNode(name)) return false;
    auto it = pending_names_.find(name);
    return it == pending_names_.end() || it->second == 0;
  }

  std::string ChooseName(const onnx::NodeProto& n, int index) {
    if (!n.name().empty()) {
      --pending_names_[n.name()];
      if (!graph_->FindNode(n.name())) return n.name();
    }
    for (const auto& o : n.output())
      if (!o.empty() && NameFree(o)) return o;
    const std::string base = n.op_type() + "_" + std::to_string(index);
    if (NameFree(base)) return base;
    for (int k = 1;; ++k) {
      std::string c = base + "_" + std::to_string(k);
      if (NameFree(c)) return c;
    }
  }

  Status AddNode(const onnx::NodeProto& proto, int index) {
    const std::string name = ChooseName(proto, index);
    if (proto.op_type() == "Constant" && IsDefaultDomain(proto.domain())) {
      const std::string label = name + " (Constant)";
      GE_ASSIGN_OR_RETURN(Tensor value, ConstantNodeValue(proto, Where(label)));
      Node* n = graph_->AddNode(op::kConst, name, 0, 1);
      onnx_nodes_[n] = &proto;
      n->output_desc(0) = value.desc();
      n->SetAttr("value", std::move(value));
      n->SetAttr(kOpsetAttr, opset_);
      if (proto.output_size() != 1 || proto.output(0).empty())
        return InvalidArgument(Where(n->Label() + ": a Constant must have one output"));
      return Define(proto.output(0), n, 0);
    }
    Node* n = graph_->AddNode(proto.op_type(), name, proto.input_size(), proto.output_size());
    onnx_nodes_[n] = &proto;
    GE_RETURN_IF_ERROR(AddAttributes(proto, n));
    n->SetAttr(kOpsetAttr, opset_);
    for (int i = 0; i < proto.input_size(); ++i) {
      const std::string& tensor = proto.input(i);
      if (tensor.empty()) continue;  // absent optional input: the anchor stays, unconnected
      auto src = Resolve(tensor);
      if (!src.ok())
        return InvalidArgument(Where(n->Label() + ": input " + std::to_string(i) + " '" + tensor +
                                     "' is not produced by any node, initializer or graph input"));
      GE_RETURN_IF_ERROR(graph_->AddEdge(src->node, src->index, n, i));
    }
    for (int k = 0; k < proto.output_size(); ++k) {
      const std::string& tensor = proto.output(k);
      n->output_desc(k) = DescOf(tensor);  // empty name: an absent optional output, undef[*]
      if (!tensor.empty()) GE_RETURN_IF_ERROR(Define(tensor, n, k));
    }
    return Status::Ok();
  }

  Status AddAttributes(const onnx::NodeProto& proto, Node* n) {
    std::vector<std::string> captures;
    std::vector<std::pair<Graph*, int64_t>> subgraphs;  // with their own input count
    for (const auto& a : proto.attribute()) {
      if (AttrType(a) == onnx::AttributeProto::GRAPH) {
        const std::string sub_context = Where(n->Label() + ": subgraph '" + a.name() + "'");
        if (Depth() >= kMaxSubgraphNesting)
          return Unsupported(sub_context + ": subgraphs nested too deep (more than " +
                             std::to_string(kMaxSubgraphNesting) + " levels)");
        GraphBuilder sub(a.g(), opset_, this, a.name(), sub_context, &captures);
        GE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> g, sub.Build({}));
        subgraphs.emplace_back(g.get(), sub.formal_inputs_);
        n->subgraphs()[a.name()] = std::shared_ptr<Graph>(std::move(g));
        continue;
      }
      GE_ASSIGN_OR_RETURN(AttrValue v, AttrFromOnnx(a, Where(n->Label())));
      n->SetAttr(a.name(), std::move(v));
    }
    return AddCaptureInputs(proto, n, captures, subgraphs);
  }

  // Every subgraph of n takes all of n's captures (one signature for all
  // branches, as GE's If/Case), and n gets them as inputs after its own.
  Status AddCaptureInputs(const onnx::NodeProto& proto, Node* n, const std::vector<std::string>& captures,
                          const std::vector<std::pair<Graph*, int64_t>>& subgraphs) {
    if (captures.empty()) return Status::Ok();
    for (size_t k = 0; k < captures.size(); ++k) {
      GE_ASSIGN_OR_RETURN(Endpoint src, Resolve(captures[k]));
      const TensorDesc desc = src.node->output_desc(src.index);
      for (auto [g, formal] : subgraphs) {
        bool has = false;
        for (Node* d : g->InputNodes()) has |= d->GetString("_captured") == captures[k];
        if (!has) AddCaptureData(*g, captures[k], formal + static_cast<int64_t>(k), desc);
      }
      GE_RETURN_IF_ERROR(graph_->AddEdge(src.node, src.index, n, proto.input_size() + static_cast<int>(k)));
    }
    n->SetAttr("_captures", static_cast<int64_t>(captures.size()));
    return Status::Ok();
  }

  // out_nodes entries: a tensor name, a node name (all its outputs) or "node:k".
  Result<std::vector<std::string>> ResolveOutNodes(const std::vector<std::string>& out_nodes) const {
    std::vector<std::string> tensors;
    for (const std::string& s : out_nodes) {
      if (tensors_.count(s)) {
        tensors.push_back(s);
        continue;
      }
      const onnx::NodeProto* node = FindOnnxNode(s);
      int only = -1;
      const size_t colon = s.rfind(':');
      if (!node && colon != std::string::npos && colon + 1 < s.size() &&
          s.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
        node = FindOnnxNode(s.substr(0, colon));
        only = std::stoi(s.substr(colon + 1));
        if (node && (only >= node->output_size() || node->output(only).empty()))
          return InvalidArgument("out_nodes names '" + s + "', but node " + s.substr(0, colon) + " has no output " +
                                 s.substr(colon + 1));
      }
      if (!node)
        return InvalidArgument("out_nodes names '" + s + "', which is neither a tensor nor a node of the graph");
      for (int k = 0; k < node->output_size(); ++k)
        if ((only < 0 || k == only) && !node->output(k).empty()) tensors.push_back(node->output(k));
    }
    return tensors;
  }

  // An ONNX node by the name ge gave it (its own, or the one we chose).
  const onnx::NodeProto* FindOnnxNode(const std::string& name) const {
    auto it = onnx_nodes_.find(graph_->FindNode(name));
    return it == onnx_nodes_.end() ? nullptr : it->second;
  }

  Status AddNetOutput(const std::vector<std::string>& out_nodes) {
    std::vector<std::string> names;
    if (out_nodes.empty()) {
      for (const auto& o : proto_.output()) names.push_back(o.name());
    } else {
      GE_ASSIGN_OR_RETURN(names, ResolveOutNodes(out_nodes));
    }
    Node* out = graph_->AddNode(op::kNetOutput, graph_->MakeUniqueName(op::kNetOutput), names.size(), 0);
    for (size_t i = 0; i < names.size(); ++i) {
      auto src = Resolve(names[i]);
      if (!src.ok()) return InvalidArgument(Where("graph output '" + names[i] + "' is not produced by any node"));
      GE_RETURN_IF_ERROR(graph_->AddEdge(src->node, src->index, out, static_cast<int>(i)));
    }
    out->SetAttr("output_names", names);
    return Status::Ok();
  }

  const onnx::GraphProto& proto_;
  const int64_t opset_;
  GraphBuilder* parent_;
  const std::string context_;
  std::vector<std::string>* captures_;
  int64_t formal_inputs_ = 0;  // this graph's own inputs (Data indices before the captures)
  std::unique_ptr<Graph> graph_;
  std::unordered_map<std::string, Endpoint> tensors_;  // tensor name → producer
  std::unordered_map<std::string, const onnx::TypeProto*> types_;
  std::unordered_map<std::string, int> pending_names_;  // node names still to come
  std::unordered_map<const Node*, const onnx::NodeProto*> onnx_nodes_;
};

}  // namespace

Result<std::unique_ptr<Graph>> BuildGraph(const onnx::GraphProto& proto, int64_t opset,
                                          const std::vector<std::string>& out_nodes) {
  GraphBuilder builder(proto, opset, nullptr, "main", "");
  return builder.Build(out_nodes);
}

}  // namespace ge::onnx_parser
