// Normalisations by statistics of part of the tensor: LRN (across a window
// of channels around each one) and MeanVarianceNormalization (over `axes`,
// default N, H, W). Y has X's shape and dtype.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

Status InferLrn(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() < 3) return ctx.Error("input must be N x C x spatial..., but is " + x.ToString());
  const int64_t size = ctx.node().GetInt("size", 0);
  if (size < 1) return ctx.Error("size " + std::to_string(size) + " must be positive");
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

Status InferMvn(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank())
    GE_RETURN_IF_ERROR(infer::NormalizeAxes(ctx, ctx.node().GetInts("axes", {0, 2, 3}), x.rank()).status());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

}  // namespace

void RegisterLocalNormOps(OpRegistry& r) {
  r.Register(OpBuilder("LRN")
                 .Inputs(1, 1)
                 .Defaults({{"alpha", 1e-4f}, {"beta", 0.75f}, {"bias", 1.0f}})  // size is required
                 .Infer(InferLrn));
  r.Register(OpBuilder("MeanVarianceNormalization")
                 .Inputs(1, 1)
                 .Defaults({{"axes", std::vector<int64_t>{0, 2, 3}}})
                 .Infer(InferMvn));
}

}  // namespace ge
