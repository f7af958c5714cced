#include "model_codec.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "ge/ir/nesting.h"
#include "ge/ir/verifier.h"
#include "om_layout.h"
#include "plan_codec.h"

namespace ge::om {
namespace {

void EncodeDesc(const TensorDesc& d, TensorDescDef* out) {
  out->set_dtype(static_cast<int32_t>(d.dtype));
  for (int64_t x : d.dims) out->add_dims(x);
  out->set_format(static_cast<int32_t>(d.format));
}

// The weights section being written: each distinct constant's bytes once,
// so the gears of a model (whole static copies of one graph) share them.
struct WeightsOut {
  std::string* bytes;
  std::unordered_multimap<size_t, uint64_t> by_hash;  // hash of the bytes -> offset
  std::unordered_map<const Node*, uint64_t> planned;  // root Const -> its plan offset, already written
};

// The root graph's constants at their plan offsets: the section starts as
// the plan's weights segment, byte for byte, gaps zero.
void LayOutPlannedWeights(const Model& model, WeightsOut* weights) {
  const MemoryPlan& plan = model.memory;
  if (plan.buffers.empty() || plan.weights_size <= 0) return;
  std::map<std::string, const Node*> consts;
  for (const Node* n : model.graph->nodes())
    if (n->type() == op::kConst) consts[n->name()] = n;
  std::vector<std::pair<const Node*, uint64_t>> placed;
  for (const BufferPlan& b : plan.buffers) {
    if (b.segment != Segment::kWeights || b.output != 0) continue;
    auto it = consts.find(b.node);
    if (it == consts.end()) continue;  // a Reshape of a constant shares its bytes
    const Tensor* t = it->second->GetTensor("value");
    if (!t || static_cast<int64_t>(t->size()) != b.size || b.offset < 0 || b.offset % kSectionAlignment != 0 ||
        b.offset + b.size > plan.weights_size)
      return;  // not a plan this layout can follow: constants go one after another
    placed.emplace_back(it->second, static_cast<uint64_t>(b.offset));
  }
  std::string& section = *weights->bytes;
  section.assign(static_cast<size_t>(plan.weights_size), '\0');
  for (const auto& [n, offset] : placed) {
    const Tensor* t = n->GetTensor("value");
    if (t->size()) std::memcpy(section.data() + offset, t->data(), t->size());
    weights->planned[n] = offset;
    const std::string_view bytes(reinterpret_cast<const char*>(t->data()), t->size());
    weights->by_hash.emplace(std::hash<std::string_view>{}(bytes), offset);
  }
}

Status EncodeGraph(const Graph& g, GraphDef* def, WeightsOut* weights);

// An upper bound of what the section grows by, so it is allocated once
// instead of doubling (and copying) its way up to hundreds of megabytes.
uint64_t TensorAttrBytes(const Graph& g) {
  uint64_t n = 0;
  for (const Node* node : g.nodes())
    for (const auto& [name, v] : node->attrs()) {
      if (const Tensor* t = std::get_if<Tensor>(&v)) n += t->size() + kSectionAlignment;
      if (const auto* sub = std::get_if<std::shared_ptr<Graph>>(&v); sub && *sub) n += TensorAttrBytes(**sub);
    }
  return n;
}

void AppendWeights(const Tensor& t, ConstTensorDef* out, WeightsOut* weights, const Node* owner) {
  EncodeDesc(t.desc(), out->mutable_desc());
  out->set_size(t.size());
  if (auto p = weights->planned.find(owner); p != weights->planned.end()) {
    out->set_weight_offset(p->second);  // written at its plan offset already
    return;
  }
  const std::string_view bytes(reinterpret_cast<const char*>(t.data()), t.size());
  const size_t hash = std::hash<std::string_view>{}(bytes);
  std::string& section = *weights->bytes;
  for (auto [it, end] = weights->by_hash.equal_range(hash); it != end; ++it)
    if (std::string_view(section).substr(it->second, bytes.size()) == bytes) {
      out->set_weight_offset(it->second);
      return;
    }
  size_t aligned = (section.size() + kSectionAlignment - 1) / kSectionAlignment * kSectionAlignment;
  section.resize(aligned, '\0');
  out->set_weight_offset(aligned);
  section.append(bytes);
  weights->by_hash.emplace(hash, aligned);
}

// `owner` is the node the attribute belongs to (its planned "value" goes to
// its plan offset); nullptr elsewhere.
Status EncodeAttr(const std::string& name, const AttrValue& v, AttrDef* out, WeightsOut* weights, const Node* owner) {
  out->set_name(name);
  if (auto* x = std::get_if<int64_t>(&v)) out->set_i(*x);
  else if (auto* x = std::get_if<float>(&v)) out->set_f(*x);
  else if (auto* x = std::get_if<std::string>(&v)) out->set_s(*x);
  else if (auto* x = std::get_if<bool>(&v)) out->set_b(*x);
  else if (auto* x = std::get_if<std::vector<int64_t>>(&v)) for (int64_t e : *x) out->mutable_ints()->add_values(e);
  else if (auto* x = std::get_if<std::vector<float>>(&v)) for (float e : *x) out->mutable_floats()->add_values(e);
  else if (auto* x = std::get_if<std::vector<std::string>>(&v)) for (const auto& e : *x) out->mutable_strings()->add_values(e);
  else if (auto* x = std::get_if<Tensor>(&v)) AppendWeights(*x, out->mutable_tensor(), weights, name == "value" ? owner : nullptr);
  else if (auto* x = std::get_if<std::shared_ptr<Graph>>(&v)) {
    if (!*x) return Internal("attribute " + name + " holds a null graph");
    GE_RETURN_IF_ERROR(EncodeGraph(**x, out->mutable_graph(), weights));
  }
  // The oneof must be set even for empty lists, so a decoded attr keeps its type.
  if (out->value_case() == AttrDef::VALUE_NOT_SET) {
    if (std::holds_alternative<std::vector<int64_t>>(v)) out->mutable_ints();
    else if (std::holds_alternative<std::vector<float>>(v)) out->mutable_floats();
    else if (std::holds_alternative<std::vector<std::string>>(v)) out->mutable_strings();
  }
  return Status::Ok();
}

Status EncodeGraph(const Graph& g, GraphDef* def, WeightsOut* weights) {
  def->set_name(g.name());
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  for (Node* n : order) {
    NodeDef* nd = def->add_nodes();
    nd->set_name(n->name());
    nd->set_type(n->type());
    for (const auto& [k, v] : n->attrs()) GE_RETURN_IF_ERROR(EncodeAttr(k, v, nd->add_attrs(), weights, n));
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      InputRef* in = nd->add_inputs();
      Endpoint e = n->InputSource(i);
      if (e.valid()) {
        in->set_node(e.node->name());
        in->set_index(e.index);
      }
    }
    for (size_t i = 0; i < n->num_outputs(); ++i) EncodeDesc(n->output_desc(i), nd->add_outputs());
    for (Node* c : n->control_inputs()) nd->add_control_inputs(c->name());
    for (const auto& [k, sg] : n->subgraphs()) {
      NamedGraph* ng = nd->add_subgraphs();
      ng->set_name(k);
      GE_RETURN_IF_ERROR(EncodeGraph(*sg, ng->mutable_graph(), weights));
    }
  }
  return Status::Ok();
}

// ---- decoding: every field is untrusted ----

struct Decoder {
  const uint8_t* weights;
  uint64_t weights_size;
  std::shared_ptr<const void> owner;  // set: constants view the weights in place
  int depth = 0;
  std::map<std::pair<uint64_t, uint64_t>, Tensor> read;  // (offset, size) -> the tensor made of it

  Result<TensorDesc> Desc(const TensorDescDef& d, const std::string& where) {
    TensorDesc out;
    if (DataTypeSize(static_cast<DataType>(d.dtype())) == 0 && d.dtype() != 0)
      return Corrupt(where + ": bad dtype " + std::to_string(d.dtype()));
    if (d.dtype() < 0 || d.dtype() > static_cast<int32_t>(DataType::kBool))
      return Corrupt(where + ": bad dtype " + std::to_string(d.dtype()));
    out.dtype = static_cast<DataType>(d.dtype());
    if (d.format() < 0 || d.format() > static_cast<int32_t>(kLastFormat))
      return Corrupt(where + ": bad format " + std::to_string(d.format()));
    out.format = static_cast<Format>(d.format());
    if (d.dims_size() > 32) return Corrupt(where + ": rank " + std::to_string(d.dims_size()) + " is too large");
    for (int64_t x : d.dims()) {
      if (x < kUnknownRank || x > kMaxDim) return Corrupt(where + ": bad dim " + std::to_string(x));
      out.dims.push_back(x);
    }
    if (out.dims.size() > 1)
      for (int64_t x : out.dims)
        if (x == kUnknownRank) return Corrupt(where + ": -2 only marks unknown rank on its own");
    return out;
  }

  Result<Tensor> ConstTensor(const ConstTensorDef& t, const std::string& where) {
    GE_ASSIGN_OR_RETURN(TensorDesc desc, Desc(t.desc(), where));
    if (!desc.is_static()) return Corrupt(where + ": constant with a non-static shape");
    if (desc.Bytes() < 0 || static_cast<uint64_t>(desc.Bytes()) != t.size())
      return Corrupt(where + ": constant of " + desc.ToString() + " claims " + std::to_string(t.size()) + " bytes");
    if (t.weight_offset() % kSectionAlignment != 0) return Corrupt(where + ": weight offset not 64-byte aligned");
    if (t.weight_offset() > weights_size || t.size() > weights_size - t.weight_offset())
      return Corrupt(where + ": weights range [" + std::to_string(t.weight_offset()) + ", +" + std::to_string(t.size()) +
                     ") is outside the weights section of " + std::to_string(weights_size) + " bytes");
    // A range read before (the gears' shared weights) shares its bytes too.
    auto& cached = read[{t.weight_offset(), t.size()}];
    if (cached.size() == t.size() && cached.desc() == desc) return cached;
    cached = owner ? Tensor(desc, owner, weights + t.weight_offset(), t.size())
                   : Tensor(desc, weights + t.weight_offset(), t.size());
    return cached;
  }

  Result<AttrValue> Attr(const AttrDef& a, const std::string& where) {
    switch (a.value_case()) {
      case AttrDef::kI: return AttrValue(int64_t{a.i()});
      case AttrDef::kF: return AttrValue(a.f());
      case AttrDef::kS: return AttrValue(a.s());
      case AttrDef::kB: return AttrValue(a.b());
      case AttrDef::kInts: return AttrValue(std::vector<int64_t>(a.ints().values().begin(), a.ints().values().end()));
      case AttrDef::kFloats: return AttrValue(std::vector<float>(a.floats().values().begin(), a.floats().values().end()));
      case AttrDef::kStrings:
        return AttrValue(std::vector<std::string>(a.strings().values().begin(), a.strings().values().end()));
      case AttrDef::kTensor: {
        GE_ASSIGN_OR_RETURN(Tensor t, ConstTensor(a.tensor(), where));
        return AttrValue(std::move(t));
      }
      case AttrDef::kGraph: {
        GE_ASSIGN_OR_RETURN(auto g, Graph(a.graph()));
        return AttrValue(std::shared_ptr<ge::Graph>(std::move(g)));
      }
      case AttrDef::VALUE_NOT_SET: break;
    }
    return Corrupt(where + ": attribute without a value");
  }

  Result<std::unique_ptr<ge::Graph>> Graph(const GraphDef& def) {
    if (++depth > kMaxSubgraphNesting)
      return Corrupt("subgraphs nested too deep (more than " + std::to_string(kMaxSubgraphNesting) + " levels)");
    auto g = std::make_unique<ge::Graph>(def.name());
    std::map<std::string, Node*> by_name;
    for (const NodeDef& nd : def.nodes()) {
      const std::string where = "node " + nd.name() + " (" + nd.type() + ")";
      if (nd.name().empty() || nd.type().empty()) return Corrupt("a node without a name or type");
      if (by_name.count(nd.name())) return Corrupt("duplicate node " + nd.name());
      if (nd.inputs_size() > 4096 || nd.outputs_size() > 4096) return Corrupt(where + ": too many anchors");
      Node* n = g->AddNode(nd.type(), nd.name(), nd.inputs_size(), nd.outputs_size());
      by_name[nd.name()] = n;
      for (const AttrDef& a : nd.attrs()) {
        GE_ASSIGN_OR_RETURN(AttrValue v, Attr(a, where + " attribute " + a.name()));
        n->SetAttr(a.name(), std::move(v));
      }
      for (int i = 0; i < nd.outputs_size(); ++i) {
        GE_ASSIGN_OR_RETURN(n->output_desc(i), Desc(nd.outputs(i), where + " output " + std::to_string(i)));
      }
      // Producers precede consumers (the writer stores a topological order),
      // so every reference can be resolved right here.
      for (int i = 0; i < nd.inputs_size(); ++i) {
        const InputRef& in = nd.inputs(i);
        if (in.node().empty()) continue;
        auto it = by_name.find(in.node());
        if (it == by_name.end() || it->second == n)
          return Corrupt(where + ": input " + std::to_string(i) + " references unknown node " + in.node());
        if (in.index() < 0 || static_cast<size_t>(in.index()) >= it->second->num_outputs())
          return Corrupt(where + ": input " + std::to_string(i) + " references a missing output of " + in.node());
        GE_RETURN_IF_ERROR(g->AddEdge(it->second, in.index(), n, i));
      }
      for (const std::string& c : nd.control_inputs()) {
        auto it = by_name.find(c);
        if (it == by_name.end() || it->second == n) return Corrupt(where + ": control input " + c + " is unknown");
        g->AddControlEdge(it->second, n);
      }
      for (const NamedGraph& sg : nd.subgraphs()) {
        GE_ASSIGN_OR_RETURN(auto sub, Graph(sg.graph()));
        n->subgraphs()[sg.name()] = std::shared_ptr<ge::Graph>(std::move(sub));
      }
    }
    --depth;
    return g;
  }
};

void EncodeIo(const ge::IoDesc& io, IoDesc* out) {
  out->set_name(io.name);
  EncodeDesc(io.desc, out->mutable_desc());
}

}  // namespace

Status EncodeModel(const Model& model, ModelDef* def, std::string* weights) {
  if (!model.graph) return Internal("model without a graph");
  def->set_name(model.name);
  def->set_producer(model.producer);
  def->set_framework(model.framework);
  def->set_source_sha256(model.source_sha256);
  def->set_target(model.target);
  for (const auto& io : model.inputs) EncodeIo(io, def->add_inputs());
  for (const auto& io : model.outputs) EncodeIo(io, def->add_outputs());
  auto options = model.options;
  std::sort(options.begin(), options.end());
  for (const auto& [k, v] : options) {
    OptionDef* o = def->add_options();
    o->set_key(k);
    o->set_value(v);
  }
  WeightsOut out{weights, {}, {}};
  LayOutPlannedWeights(model, &out);
  weights->reserve(weights->size() + TensorAttrBytes(*model.graph));
  GE_RETURN_IF_ERROR(EncodeGraph(*model.graph, def->mutable_graph(), &out));
  EncodePlan(model, def);
  def->set_dynamic(model.dynamic);
  for (size_t i = 0; i < model.partitions.size(); ++i) {
    const SubgraphPlan& p = model.partitions[i];
    GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(model, i));
    ModelDef plan;
    EncodePlan(sub, &plan);
    SubgraphPlanDef* d = def->add_partitions();
    d->set_node(p.node);
    if (p.subgraph != "f") d->set_subgraph(p.subgraph);
    for (const auto& io : p.inputs) EncodeIo(io, d->add_inputs());
    for (const auto& io : p.outputs) EncodeIo(io, d->add_outputs());
    *d->mutable_memory() = std::move(*plan.mutable_memory());
    *d->mutable_streams() = std::move(*plan.mutable_streams());
  }
  return Status::Ok();
}

Result<Model> DecodeModel(const ModelDef& def, const uint8_t* weights, uint64_t weights_size,
                          std::shared_ptr<const void> owner) {
  Model m;
  m.name = def.name();
  m.producer = def.producer();
  m.framework = def.framework();
  m.source_sha256 = def.source_sha256();
  m.target = def.target();
  Decoder dec{weights, weights_size, std::move(owner), 0, {}};
  for (const auto& io : def.inputs()) {
    GE_ASSIGN_OR_RETURN(TensorDesc d, dec.Desc(io.desc(), "input " + io.name()));
    m.inputs.push_back({io.name(), d});
  }
  for (const auto& io : def.outputs()) {
    GE_ASSIGN_OR_RETURN(TensorDesc d, dec.Desc(io.desc(), "output " + io.name()));
    m.outputs.push_back({io.name(), d});
  }
  for (const auto& o : def.options()) m.options.emplace_back(o.key(), o.value());
  GE_ASSIGN_OR_RETURN(m.graph, dec.Graph(def.graph()));
  Status v = VerifyGraph(*m.graph);
  if (!v.ok()) return Corrupt("model definition fails verification: " + v.message());
  if (m.graph->InputNodes().size() != m.inputs.size())
    return Corrupt("model lists " + std::to_string(m.inputs.size()) + " inputs, its graph has " +
                   std::to_string(m.graph->InputNodes().size()));
  if (m.graph->OutputNode()->num_inputs() != m.outputs.size())
    return Corrupt("model lists " + std::to_string(m.outputs.size()) + " outputs, its graph has " +
                   std::to_string(m.graph->OutputNode()->num_inputs()));
  // The runtimes size user buffers from these descriptions: they must be the graph's.
  auto data = m.graph->InputNodes();
  for (size_t i = 0; i < data.size(); ++i)
    if (data[i]->output_desc(0) != m.inputs[i].desc)
      return Corrupt("input " + m.inputs[i].name + " is described as " + m.inputs[i].desc.ToString() + ", its Data node is " +
                     data[i]->output_desc(0).ToString());
  Node* out = m.graph->OutputNode();
  for (size_t i = 0; i < out->num_inputs(); ++i) {
    Endpoint src = out->InputSource(i);
    if (!src.valid()) return Corrupt("output " + std::to_string(i) + " is unconnected");
    if (src.node->output_desc(src.index) != m.outputs[i].desc)
      return Corrupt("output " + m.outputs[i].name + " is described as " + m.outputs[i].desc.ToString() + ", the graph computes " +
                     src.node->output_desc(src.index).ToString());
  }
  GE_RETURN_IF_ERROR(DecodePlan(def, m));
  m.dynamic = def.dynamic();
  // A static model's partitions are its If / Loop subgraphs' plans
  // (PartitionModel checks each names one).
  for (const SubgraphPlanDef& d : def.partitions()) {
    SubgraphPlan p;
    p.node = d.node();
    if (!d.subgraph().empty()) p.subgraph = d.subgraph();
    for (const auto& io : d.inputs()) {
      GE_ASSIGN_OR_RETURN(TensorDesc desc, dec.Desc(io.desc(), "partition " + d.node() + " input " + io.name()));
      p.inputs.push_back({io.name(), desc});
    }
    for (const auto& io : d.outputs()) {
      GE_ASSIGN_OR_RETURN(TensorDesc desc, dec.Desc(io.desc(), "partition " + d.node() + " output " + io.name()));
      p.outputs.push_back({io.name(), desc});
    }
    m.partitions.push_back(std::move(p));
    // The plan is checked against the subgraph as a static model's is.
    GE_ASSIGN_OR_RETURN(Model sub, PartitionModel(m, m.partitions.size() - 1));
    ModelDef plan;
    *plan.mutable_memory() = d.memory();
    *plan.mutable_streams() = d.streams();
    Status s = DecodePlan(plan, sub);
    if (!s.ok()) return Corrupt("partition " + d.node() + ": " + s.message());
    m.partitions.back().memory = std::move(sub.memory);
    m.partitions.back().streams = std::move(sub.streams);
  }
  // Every subgraph the runtimes will load has its plan: a GearCase's gears
  // in order, a PartitionedCall's "f".
  for (const Node* n : m.graph->nodes()) {
    if (n->type() != op::kGearCase && n->type() != op::kPartitionedCall) continue;
    if (!m.dynamic) return Corrupt("node " + n->Label() + " in a static model");
    const size_t planned = n->type() == op::kGearCase
                               ? GearPartitions(m, n->name()).size()
                               : static_cast<size_t>(std::count_if(m.partitions.begin(), m.partitions.end(),
                                                                   [&](const SubgraphPlan& p) { return p.node == n->name(); }));
    if (planned != n->subgraphs().size() || planned == 0)
      return Corrupt("node " + n->Label() + " has " + std::to_string(n->subgraphs().size()) + " subgraph(s) and " +
                     std::to_string(planned) + " plan(s) in order");
  }
  return m;
}

}  // namespace ge::om
