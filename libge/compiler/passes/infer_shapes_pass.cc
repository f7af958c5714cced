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

Status InferShapes(Graph& g, const PassContext& ctx) {
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  ValueMap values;
  for (Node* n : order) {
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
