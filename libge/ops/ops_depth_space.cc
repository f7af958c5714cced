// ONNX DepthToSpace and SpaceToDepth on NCHW with attribute blocksize b:
//   DepthToSpace [N,C,H,W] -> [N, C/(b*b), H*b, W*b], mode DCR (depth,
//     column, row: the default) or CRD (channel first);
//   SpaceToDepth [N,C,H,W] -> [N, C*b*b, H/b, W/b].
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Result<int64_t> BlockSize(InferContext& ctx) {
  const int64_t b = ctx.node().GetInt("blocksize", 0);
  if (b < 1 || b > kMaxWindowValue) return ctx.Error("blocksize " + std::to_string(b) + " must be positive");
  return b;
}

Status InferDepthToSpace(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  const std::string mode = ctx.node().GetString("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") return ctx.Error("mode \"" + mode + "\" must be DCR or CRD");
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(4));
    return Status::Ok();
  }
  if (x.rank() != 4) return ctx.Error("input " + x.ToString() + " must be 4-D NCHW");
  if (x.dims[1] >= 0 && x.dims[1] % (b * b) != 0)
    return ctx.Error("channels " + std::to_string(x.dims[1]) + " are not a multiple of blocksize^2 " +
                     std::to_string(b * b));
  auto times = [b](int64_t d) { return d < 0 ? kUnknownDim : d * b; };
  infer::SetOutput(ctx, 0, x.dtype,
                   {x.dims[0], x.dims[1] < 0 ? kUnknownDim : x.dims[1] / (b * b), times(x.dims[2]), times(x.dims[3])});
  return Status::Ok();
}

Status InferSpaceToDepth(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(4));
    return Status::Ok();
  }
  if (x.rank() != 4) return ctx.Error("input " + x.ToString() + " must be 4-D NCHW");
  Dims out = {x.dims[0], x.dims[1] < 0 ? kUnknownDim : x.dims[1] * b * b, kUnknownDim, kUnknownDim};
  for (size_t k = 2; k < 4; ++k) {
    if (x.dims[k] < 0) continue;
    if (x.dims[k] % b != 0)
      return ctx.Error("axis " + std::to_string(k) + " of " + x.ToString() + " is not a multiple of blocksize " +
                       std::to_string(b));
    out[k] = x.dims[k] / b;
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterDepthSpaceOps(OpRegistry& r) {
  r.Register(OpBuilder("DepthToSpace").Inputs(1, 1).Defaults({{"mode", std::string("DCR")}}).Infer(InferDepthToSpace));
  r.Register(OpBuilder("SpaceToDepth").Inputs(1, 1).Infer(InferSpaceToDepth));
}

}  // namespace ge
