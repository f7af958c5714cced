// Losses over class scores: NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss. Scores are [N, C, d1..dk], targets [N, d1..dk]
// (class indices), an optional weight per class [C]. The loss has the
// targets' shape (reduction "none") or is a scalar; SoftmaxCrossEntropyLoss's
// optional second output (log_prob) has the scores' shape.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// The targets' dims as the scores imply them: the scores' without dim 1.
Dims TargetDims(const TensorDesc& scores) {
  Dims d = scores.dims;
  d.erase(d.begin() + 1);
  return d;
}

Status CheckLossShapes(InferContext& ctx, const TensorDesc& x, const TensorDesc& t) {
  if (x.unknown_rank()) return Status::Ok();
  if (x.rank() < 2) return ctx.Error("scores must be N x C x d1..dk (rank >= 2), but are " + x.ToString());
  if (!t.unknown_rank()) {
    const Dims want = TargetDims(x);
    bool ok = t.rank() == x.rank() - 1;
    for (size_t i = 0; ok && i < want.size(); ++i) ok = want[i] < 0 || t.dims[i] < 0 || want[i] == t.dims[i];
    if (!ok)
      return ctx.Error("targets " + t.ToString() + " must be the scores " + x.ToString() + " without dim 1, " +
                       DimsToString(want));
  }
  if (!ctx.has_input(2)) return Status::Ok();
  const TensorDesc& w = ctx.input(2);
  const int64_t c = x.dims[1];
  if (!w.unknown_rank() && (w.rank() != 1 || (c >= 0 && w.dims[0] >= 0 && w.dims[0] != c)))
    return ctx.Error("weight " + w.ToString() + " must be a vector of the " + std::to_string(c) + " classes");
  return Status::Ok();
}

Status InferLoss(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  const std::string reduction = ctx.node().GetString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return ctx.Error("reduction '" + reduction + "' is not one of none, sum, mean");
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& t = ctx.input(1);
  GE_RETURN_IF_ERROR(CheckLossShapes(ctx, x, t));
  Dims loss;  // a scalar unless reduction is none
  if (reduction == "none") loss = !t.unknown_rank() ? t.dims : x.unknown_rank() ? infer::UnknownRank() : TargetDims(x);
  infer::SetOutput(ctx, 0, x.dtype, std::move(loss));
  if (ctx.num_outputs() > 1) infer::SetOutputLike(ctx, 1, 0);
  return Status::Ok();
}

}  // namespace

void RegisterLossOps(OpRegistry& r) {
  // No ignore_index default: absent means every target counts.
  const std::map<std::string, AttrValue> defaults = {{"reduction", std::string("mean")}};
  r.Register(OpBuilder("NegativeLogLikelihoodLoss").Inputs(2, 3).Defaults(defaults).Infer(InferLoss));
  r.Register(OpBuilder("SoftmaxCrossEntropyLoss").Inputs(2, 3).Outputs(1, 2).Defaults(defaults).Infer(InferLoss));
}

}  // namespace ge
