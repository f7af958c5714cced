// optimize: shape folding. A Shape (or Size) of a tensor whose shape is
// static is a constant: it becomes a Const, and constant_folding then folds
// the Gather/Unsqueeze/Concat chains computed from it (bert_encoder's
// reshape targets). Nothing fires on an unknown dimension.
#include <algorithm>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

// The value of Shape/Size over a static input, with Shape's start/end
// (opset 15: clamped to [0, rank], negative counts from the back).
std::optional<Tensor> StaticShapeValue(const Node& n) {
  if (n.num_inputs() != 1 || !n.HasInput(0) || n.num_outputs() != 1) return std::nullopt;
  Endpoint src = n.InputSource(0);
  const TensorDesc& in = src.node->output_desc(src.index);
  const TensorDesc& out = n.output_desc(0);
  if (!in.is_static() || !out.is_static() || out.dtype != DataType::kInt64) return std::nullopt;
  if (n.type() == "Size") return Tensor::FromVector(DataType::kInt64, out.dims, std::vector<int64_t>{in.NumElements()});
  const int64_t rank = in.rank();
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  const int64_t start = clamp(n.GetInt("start", 0));
  const int64_t end = clamp(n.GetInt("end", rank));
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(in.dims[static_cast<size_t>(i)]);
  // The inferred desc is the authority; a disagreement means an attribute
  // this pass does not understand, so it leaves the node.
  if (out.dims != std::vector<int64_t>{static_cast<int64_t>(dims.size())}) return std::nullopt;
  return Tensor::FromVector(DataType::kInt64, out.dims, dims);
}

Status FoldShapes(Graph& g, const PassContext&) {
  opt::Remover remover(g);
  for (Node* n : g.nodes()) {
    if ((n->type() != "Shape" && n->type() != "Size") || opt::HasSideEffects(*n) || n->GetBool(kAttrNoConstantFolding, false) || !n->control_inputs().empty())
      continue;
    std::optional<Tensor> value = StaticShapeValue(*n);
    if (!value) continue;
    // A model output that is a constant would need a copy (see CanRedirect).
    if (opt::FeedsOutput(*n)) continue;
    std::vector<Tensor> values;
    values.push_back(std::move(*value));
    GE_RETURN_IF_ERROR(opt::ReplaceWithConsts(g, remover, n, std::move(values)));
  }
  remover.Sweep();
  return Status::Ok();
}

}  // namespace

Pass ShapeFoldingPass() { return OptionalPass("shape_folding", "optimize", FoldShapes); }

}  // namespace ge
