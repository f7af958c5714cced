#include "tf_graph_builder.h"

#include "ge/ops/op_registry.h"
#include "tf_attrs.h"
#include "tf_control_flow.h"
#include "tf_layout.h"
#include "tf_op_mappers.h"

namespace ge::tf_parser {

TfGraphBuilder::TfGraphBuilder(const TfGraphIndex& index, const ParseOptions& options, TfScope* scope)
    : index_(index), options_(options), scope_(scope), graph_(std::make_unique<Graph>("main")) {}

Result<std::unique_ptr<Graph>> TfGraphBuilder::Build(const std::vector<const tf::NodeDef*>& order,
                                                     const std::vector<TfInputRef>& outputs) {
  for (const tf::NodeDef* n : order) tf_names_.insert(n->name());
  for (const tf::NodeDef* n : order) GE_RETURN_IF_ERROR(ConvertNode(*n));
  GE_RETURN_IF_ERROR(AddNetOutput(outputs));
  RemoveUnusedConsts();
  return std::move(graph_);
}

// A TF Const whose consumers all took a reordered copy (filters, biases,
// axes) is left without consumers; it must not cost weights in the .om.
void TfGraphBuilder::RemoveUnusedConsts() {
  for (Node* n : graph_->nodes())
    if (n->type() == op::kConst && n->OutNodes().empty() && n->control_outputs().empty()) graph_->RemoveNode(n);
}

Status TfGraphBuilder::ConvertNode(const tf::NodeDef& n) {
  const auto& table = OpMappers();
  auto it = table.find(n.op());
  const bool call = it == table.end() && scope_ && scope_->library && scope_->library->Has(n.op());
  if (it == table.end() && !call) return NodeUnsupported(n, "op type not supported by the TensorFlow parser");
  created_.clear();
  GE_RETURN_IF_ERROR(call ? MapFunctionCall(n, *this) : it->second(n, *this));

  // Control inputs: every IR node made for n waits for what the source made.
  std::vector<Node*> waits_for;
  for (const TfInputRef& r : index_.Inputs(n))
    if (r.control) {
      const auto& srcs = control_sources_[r.node];
      waits_for.insert(waits_for.end(), srcs.begin(), srcs.end());
    }
  std::vector<Node*> targets;
  for (Node* c : created_)
    if (c->type() != op::kConst) targets.push_back(c);
  for (Node* dst : targets)
    for (Node* src : waits_for)
      if (src != dst) graph_->AddControlEdge(src, dst);

  // What a later "^n" waits for: the node producing n's first output, or —
  // for nodes that made nothing (NoOp, an aliasing Identity) — what n itself
  // depends on.
  std::vector<Node*>& mine = control_sources_[n.name()];
  auto vs = values_.find(n.name());
  if (!targets.empty()) {
    mine.push_back(vs != values_.end() && !vs->second.empty() && vs->second[0] ? vs->second[0]->ep.node
                                                                               : targets.back());
  } else {
    mine = waits_for;
    for (int i = 0; i < NumDataInputs(n); ++i) {
      auto v = Input(n, i);
      if (v.ok()) mine.push_back(v->ep.node);
    }
    if (vs != values_.end())
      for (const auto& v : vs->second)
        if (v) mine.push_back(v->ep.node);
  }
  return Status::Ok();
}

Status TfGraphBuilder::AddNetOutput(const std::vector<TfInputRef>& outputs) {
  Node* out = graph_->AddNode(op::kNetOutput, UniqueName(op::kNetOutput), outputs.size(), 0);
  std::vector<std::string> names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TfInputRef& r = outputs[i];
    auto vs = values_.find(r.node);
    const tf::NodeDef* src = index_.Find(r.node);
    if (vs == values_.end() || r.index >= static_cast<int>(vs->second.size()) || !vs->second[r.index])
      return InvalidArgument("graph output '" + r.node + ":" + std::to_string(r.index) + "': node " + NodeLabel(*src) +
                             " has no output " + std::to_string(r.index) + " that ge converts");
    GE_ASSIGN_OR_RETURN(Endpoint ep, Logical(*vs->second[r.index]));
    GE_RETURN_IF_ERROR(graph_->AddEdge(ep.node, ep.index, out, static_cast<int>(i)));
    names.push_back(r.index == 0 ? r.node : r.node + ":" + std::to_string(r.index));
  }
  out->SetAttr("output_names", names);
  return Status::Ok();
}

int TfGraphBuilder::NumDataInputs(const tf::NodeDef& n) const {
  int k = 0;
  for (const TfInputRef& r : index_.Inputs(n)) k += r.control ? 0 : 1;
  return k;
}

bool TfGraphBuilder::HasControlInputs(const tf::NodeDef& n) const {
  for (const TfInputRef& r : index_.Inputs(n))
    if (r.control) return true;
  return false;
}

Result<TfValue> TfGraphBuilder::Input(const tf::NodeDef& n, int i) const {
  const auto& ins = index_.Inputs(n);
  if (i < 0 || i >= static_cast<int>(ins.size()) || ins[i].control)
    return NodeError(n, "needs at least " + std::to_string(i + 1) + " data inputs, but has " +
                            std::to_string(NumDataInputs(n)));
  const TfInputRef& r = ins[i];
  auto it = values_.find(r.node);
  if (it == values_.end() || r.index >= static_cast<int>(it->second.size()) || !it->second[r.index]) {
    const tf::NodeDef* src = index_.Find(r.node);
    return NodeUnsupported(n, "input " + std::to_string(i) + " reads output " + std::to_string(r.index) + " of " +
                                  NodeLabel(*src) + ", which ge does not produce");
  }
  return *it->second[r.index];
}

const TfValue* TfGraphBuilder::Value(const TfInputRef& r) const {
  auto it = values_.find(r.node);
  if (it == values_.end() || r.index < 0 || r.index >= static_cast<int>(it->second.size()) || !it->second[r.index])
    return nullptr;
  return &*it->second[r.index];
}

void TfGraphBuilder::Define(const tf::NodeDef& n, int k, TfValue v) {
  auto& vs = values_[n.name()];
  if (static_cast<int>(vs.size()) <= k) vs.resize(static_cast<size_t>(k) + 1);
  vs[k] = v;
}

std::string TfGraphBuilder::UniqueName(const std::string& base) const {
  auto free = [&](const std::string& s) { return !graph_->FindNode(s) && !tf_names_.count(s); };
  if (free(base)) return base;
  for (int k = 1;; ++k) {
    std::string c = base + "_" + std::to_string(k);
    if (free(c)) return c;
  }
}

const Tensor* TfGraphBuilder::ConstValue(Endpoint ep) const {
  if (!ep.node || ep.node->type() != op::kConst) return nullptr;
  return ep.node->GetTensor("value");
}

Result<Node*> TfGraphBuilder::Add(const tf::NodeDef& n, const std::string& type, const std::vector<Endpoint>& inputs,
                                  std::map<std::string, AttrValue> attrs, const std::string& suffix,
                                  size_t num_outputs, std::map<std::string, std::shared_ptr<Graph>> subgraphs) {
  const std::string name =
      suffix.empty() && !graph_->FindNode(n.name()) ? n.name() : UniqueName(n.name() + "/" + (suffix.empty() ? type : suffix));
  Node* node = graph_->AddNode(type, name, inputs.size(), num_outputs);
  created_.push_back(node);
  for (auto& [k, v] : attrs) node->SetAttr(k, std::move(v));
  node->subgraphs() = std::move(subgraphs);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].valid()) GE_RETURN_IF_ERROR(graph_->AddEdge(inputs[i].node, inputs[i].index, node, static_cast<int>(i)));
  Status s = InferNode(*node, [node](size_t i) -> const Tensor* {
    Node* src = node->InputNode(i);
    return src && src->type() == op::kConst ? src->GetTensor("value") : nullptr;
  });
  if (!s.ok()) return s.Annotated("converting " + NodeLabel(n));
  return node;
}

Endpoint TfGraphBuilder::AddConst(const tf::NodeDef& n, const std::string& suffix, Tensor value) {
  const std::string name = suffix.empty() && !graph_->FindNode(n.name()) ? n.name() : UniqueName(n.name() + "/" + suffix);
  Node* c = graph_->AddNode(op::kConst, name, 0, 1);
  created_.push_back(c);
  c->output_desc(0) = value.desc();
  c->SetAttr("value", std::move(value));
  return Endpoint{c, 0};
}

Endpoint TfGraphBuilder::AddInt64s(const tf::NodeDef& n, const std::string& suffix, const std::vector<int64_t>& values,
                                   bool scalar) {
  std::vector<int64_t> dims;
  if (!scalar) dims.push_back(static_cast<int64_t>(values.size()));
  return AddConst(n, suffix, Tensor::FromVector(DataType::kInt64, dims, values));
}

std::vector<int64_t> TfGraphBuilder::LogicalDims(const TfValue& v) const {
  const TensorDesc& d = Desc(v.ep);
  if (!v.nchw || d.unknown_rank()) return d.dims;
  return PermuteDims(d.dims, kNchwToNhwc);
}

int64_t TfGraphBuilder::LogicalRank(const TfValue& v) const { return Desc(v.ep).rank(); }

Result<Endpoint> TfGraphBuilder::AddTranspose(Endpoint src, const std::vector<int64_t>& perm, const std::string& suffix) {
  const std::string name = UniqueName(src.node->name() + "/" + suffix);
  Node* t = graph_->AddNode("Transpose", name, 1, 1);
  created_.push_back(t);
  t->SetAttr("perm", perm);
  GE_RETURN_IF_ERROR(graph_->AddEdge(src.node, src.index, t, 0));
  GE_RETURN_IF_ERROR(InferNode(*t, nullptr));
  return Endpoint{t, 0};
}

Result<Endpoint> TfGraphBuilder::Logical(const TfValue& v) {
  if (!v.nchw) return v.ep;
  auto it = to_nhwc_.find(KeyOf(v.ep));
  if (it != to_nhwc_.end()) return it->second;
  GE_ASSIGN_OR_RETURN(Endpoint t, AddTranspose(v.ep, kNchwToNhwc, "to_nhwc"));
  to_nhwc_[KeyOf(v.ep)] = t;
  to_nchw_[KeyOf(t)] = v.ep;
  return t;
}

Result<Endpoint> TfGraphBuilder::Nchw(const TfValue& v) {
  if (v.nchw) return v.ep;
  auto it = to_nchw_.find(KeyOf(v.ep));
  if (it != to_nchw_.end()) return it->second;
  const TensorDesc& d = Desc(v.ep);
  if (d.rank() != 4)
    return Internal("value " + v.ep.node->name() + " " + d.ToString() + " is not 4-D, so it has no NCHW form");
  Endpoint t;
  if (const Tensor* c = ConstValue(v.ep)) {
    Node* node = graph_->AddNode(op::kConst, UniqueName(v.ep.node->name() + "/nchw"), 0, 1);
    created_.push_back(node);
    Tensor value = TransposeTensor(*c, kNhwcToNchw);
    node->output_desc(0) = value.desc();
    node->SetAttr("value", std::move(value));
    t = Endpoint{node, 0};
  } else {
    GE_ASSIGN_OR_RETURN(t, AddTranspose(v.ep, kNhwcToNchw, "to_nchw"));
  }
  to_nchw_[KeyOf(v.ep)] = t;
  to_nhwc_[KeyOf(t)] = v.ep;
  return t;
}

bool TfGraphBuilder::CanBroadcastNchw(const TfValue& v) const {
  if (v.nchw) return true;
  const TensorDesc& d = Desc(v.ep);
  if (d.unknown_rank() || d.rank() > 4) return false;
  if (d.rank() == 4 || ConstValue(v.ep)) return true;
  for (int64_t x : d.dims)
    if (x < 0) return false;
  return true;
}

Result<Endpoint> TfGraphBuilder::BroadcastableNchw(const tf::NodeDef& n, const TfValue& v) {
  if (v.nchw) return v.ep;
  if (!CanBroadcastNchw(v))
    return Internal("node " + NodeLabel(n) + ": operand " + Desc(v.ep).ToString() + " cannot be broadcast in NCHW");
  const std::vector<int64_t> dims = LogicalDims(v);
  if (dims.size() == 4) return Nchw(v);
  bool all_ones = true;
  for (int64_t d : dims) all_ones = all_ones && d == 1;
  if (all_ones) return v.ep;  // a scalar-like operand broadcasts the same in any layout
  // Right-aligned NHWC broadcasting: pad to [1.., dims] then move C to axis 1.
  std::vector<int64_t> four(4 - dims.size(), 1);
  four.insert(four.end(), dims.begin(), dims.end());
  if (const Tensor* c = ConstValue(v.ep)) {
    Tensor reshaped(TensorDesc(c->desc().dtype, four), c->data(), c->size());
    return AddConst(n, "nchw_operand", TransposeTensor(reshaped, kNhwcToNchw));
  }
  Endpoint shape = AddInt64s(n, "nhwc_shape", four);
  GE_ASSIGN_OR_RETURN(Node* r, Add(n, "Reshape", {v.ep, shape}, {}, "to_4d"));
  return AddTranspose(Endpoint{r, 0}, kNhwcToNchw, "to_nchw");
}

}  // namespace ge::tf_parser
