// prepare: shape and dtype inference over the whole graph, in topological
// order. Small tensors whose inputs are all known (Shape of a static tensor,
// Gather/Concat/Unsqueeze on shape vectors, ...) are evaluated on the spot
// with the backend's own kernels, so a Reshape fed by such a chain gets a
// static shape. Ops whose output shapes only the computation knows (NonZero,
// Unique, ...) are evaluated the same way on known small inputs, and the
// shapes they come out with become the node's. The graph is not changed
// here; folding is an optimize pass.
#include <map>

#include <spdlog/spdlog.h>

#include "pass.h"
#include "passes/optimize_util.h"
#include "ge/ops/op_registry.h"
#include "hal/device.h"
#include "ge/ops/kernel_spec.h"

namespace ge {
namespace {

constexpr int64_t kMaxEvaluatedElements = 1 << 16;

using ValueMap = std::map<std::pair<const Node*, int>, Tensor>;

const Tensor* Lookup(const ValueMap& values, const Node& n, size_t i) {
  Endpoint src = n.InputSource(i);
  if (!src.valid()) return nullptr;
  auto it = values.find({src.node, src.index});
  return it == values.end() ? nullptr : &it->second;
}

bool OutputsSmallAndStatic(const Node& n) {
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const TensorDesc& d = n.output_desc(i);
    if (!d.is_static() || d.Bytes() < 0 || d.NumElements() > kMaxEvaluatedElements || DataTypeSize(d.dtype) == 0) return false;
  }
  return n.num_outputs() > 0;
}

// A computed-shape op's outputs are bounded by its inputs (NonZero: rank
// times theirs): small inputs keep the evaluation small.
bool InputsSmallAndStatic(const Node& n) {
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    if (!n.HasInput(i)) continue;
    const TensorDesc& d = n.input_desc(i);
    if (!d.is_static() || d.NumElements() > kMaxEvaluatedElements) return false;
  }
  return true;
}

// Shape and Size depend only on the input's description.
bool NeedsOnlyInputDescs(const Node& n) { return n.type() == "Shape" || n.type() == "Size"; }

// Runs the node's kernel on known inputs; leaves `values` untouched on failure
// (the value simply stays unknown). A computed-shape node takes its outputs' shapes.
void Evaluate(Node& n, hal::Device& host, ValueMap& values) {
  std::vector<const Tensor*> inputs(n.num_inputs(), nullptr);
  for (size_t i = 0; i < n.num_inputs(); ++i)
    if (n.HasInput(i)) inputs[i] = Lookup(values, n, i);  // null: Shape/Size, whose data is never read
  auto out = opt::EvaluateOnHost(host, n, inputs);
  if (!out.ok()) return;
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    if (opt::HasComputedShape(n)) n.output_desc(i).dims = (*out)[i].desc().dims;
    values[{&n, static_cast<int>(i)}] = std::move((*out)[i]);
  }
}

Status InferShapes(Graph& g, const PassContext& ctx);

// `want` says more than `have` and does not contradict it (dtype and rank
// agree where both are known).
bool Refines(const TensorDesc& have, const TensorDesc& want) {
  if (have.is_static() || want.unknown_rank()) return false;
  if (have.dtype != DataType::kUndefined && want.dtype != have.dtype) return false;
  if (have.unknown_rank()) return true;
  if (have.dims.size() != want.dims.size()) return false;
  bool more = false;
  for (size_t k = 0; k < have.dims.size(); ++k) {
    if (have.dims[k] >= 0 && want.dims[k] != have.dims[k]) return false;
    more |= have.dims[k] < 0 && want.dims[k] >= 0;
  }
  return more;
}

// Subgraphs are inferred before the graph that holds them, so a value they
// capture (or a Loop's initial state) may be unknown to them then. Once the
// outer graph knows it, the subgraph's Data node takes it and the subgraph
// is inferred again: an If on a value computed after a Loop gets static
// branches, and so can join a static plan. A carried Loop value keeps only
// what every iteration agrees on (the body may grow it).
Status RefineSubgraphInputs(Node& n, const PassContext& ctx) {
  if (n.type() != "If" && n.type() != "Loop") return Status::Ok();
  const bool loop = n.type() == "Loop";
  const size_t first = loop ? 0 : 1;  // node input of subgraph Data 0
  for (auto& [name, sub] : n.subgraphs()) {
    if (!sub) continue;
    const std::vector<Node*> data = sub->InputNodes();
    bool changed = false;
    for (size_t k = loop ? 2 : 0; k < data.size(); ++k) {
      const TensorDesc* in = n.SourceDesc(first + k);
      if (in && Refines(data[k]->output_desc(0), *in)) {
        data[k]->output_desc(0) = *in;
        changed = true;
      }
    }
    if (!changed) continue;
    GE_RETURN_IF_ERROR(InferShapes(*sub, ctx).Annotated("node " + n.Label() + ", subgraph '" + name + "'"));
    if (!loop) continue;
    // Carried values: widen to what the body gives back, until it agrees.
    const Node* out = sub->OutputNode();
    const size_t carried = n.num_outputs() < data.size() - 2 ? n.num_outputs() : data.size() - 2;
    for (int round = 0; out && round < 4; ++round) {
      bool widened = false;
      for (size_t k = 0; k < carried && 1 + k < out->num_inputs(); ++k) {
        const TensorDesc* body = out->SourceDesc(1 + k);
        TensorDesc& d = data[2 + k]->output_desc(0);
        if (!body || *body == d) continue;
        d = CommonDesc(d, *body);
        widened = true;
      }
      if (!widened) break;
      GE_RETURN_IF_ERROR(InferShapes(*sub, ctx).Annotated("node " + n.Label() + ", subgraph '" + name + "'"));
    }
  }
  return Status::Ok();
}

Status InferShapes(Graph& g, const PassContext& ctx) {
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  ValueMap values;
  for (Node* n : order) {
    GE_RETURN_IF_ERROR(RefineSubgraphInputs(*n, ctx));
    GE_RETURN_IF_ERROR(InferNode(*n, [&](size_t i) { return Lookup(values, *n, i); }));
    if (n->type() == op::kConst) {
      values[{n, 0}] = *n->GetTensor("value");
      continue;
    }
    if (IsStructuralNode(*n)) continue;
    if (!(opt::HasComputedShape(*n) ? InputsSmallAndStatic(*n) : OutputsSmallAndStatic(*n))) continue;
    bool all_known = true;
    for (size_t i = 0; i < n->num_inputs() && all_known; ++i) {
      if (!n->HasInput(i)) continue;
      all_known = Lookup(values, *n, i) != nullptr ||
                  (NeedsOnlyInputDescs(*n) && n->InputNode(i)->output_desc(n->InputSource(i).index).is_static());
    }
    if (all_known) Evaluate(*n, *ctx.host, values);
  }
  return Status::Ok();
}

}  // namespace

Pass InferShapesPass() { return Pass{"infer_shapes", "prepare", InferShapes}; }

}  // namespace ge
