// Linear algebra on batches of matrices: Det ([..., M, M] -> [...]).
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

Status InferDet(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  const int64_t r = x.rank();
  if (r < 2 || (x.dims[r - 1] >= 0 && x.dims[r - 2] >= 0 && x.dims[r - 1] != x.dims[r - 2]))
    return ctx.Error("input must be [..., M, M], but is " + x.ToString());
  infer::SetOutput(ctx, 0, x.dtype, infer::Dims(x.dims.begin(), x.dims.end() - 2));
  return Status::Ok();
}

}  // namespace

void RegisterLinalgOps(OpRegistry& r) { r.Register(OpBuilder("Det").Inputs(1, 1).Infer(InferDet)); }

}  // namespace ge
