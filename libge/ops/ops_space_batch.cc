// SpaceToBatchND and BatchToSpaceND on NCHW (our own op types; TF's ops
// work on NHWC and the TF parser feeds them NCHW). Two spatial dims:
//   SpaceToBatchND: x [N,C,H,W], block_shape [bh,bw], pads [t,l,b,r] →
//     [N*bh*bw, C, (H+t+b)/bh, (W+l+r)/bw]; batch index (i*bw + j)*N + n.
//   BatchToSpaceND: the inverse, then crops [t,l,b,r] cut from the result.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Result<Dims> ReadBlock(InferContext& ctx, const std::string& pads_attr, Dims* pads) {
  const Dims block = ctx.node().GetInts("block_shape");
  if (block.size() != 2 || block[0] < 1 || block[1] < 1)
    return ctx.Error("block_shape " + infer::ValuesToString(block) + " must be two positive sizes");
  *pads = ctx.node().GetInts(pads_attr, Dims(4, 0));
  if (pads->size() != 4) return ctx.Error(pads_attr + " " + infer::ValuesToString(*pads) + " must have 4 values");
  for (int64_t p : *pads)
    if (p < 0) return ctx.Error(pads_attr + " " + infer::ValuesToString(*pads) + " must not be negative");
  return block;
}

Status InferSpaceToBatch(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  Dims pads;
  GE_ASSIGN_OR_RETURN(Dims block, ReadBlock(ctx, "pads", &pads));
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(4));
    return Status::Ok();
  }
  if (x.rank() != 4) return ctx.Error("input " + x.ToString() + " must be 4-D NCHW");
  Dims out = {x.dims[0] < 0 ? kUnknownDim : x.dims[0] * block[0] * block[1], x.dims[1], kUnknownDim, kUnknownDim};
  for (size_t k = 0; k < 2; ++k) {
    if (x.dims[k + 2] < 0) continue;
    const int64_t padded = x.dims[k + 2] + pads[k] + pads[k + 2];
    if (padded % block[k] != 0)
      return ctx.Error("padded size " + std::to_string(padded) + " of axis " + std::to_string(k + 2) +
                       " is not a multiple of the block " + std::to_string(block[k]));
    out[k + 2] = padded / block[k];
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

Status InferBatchToSpace(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  Dims crops;
  GE_ASSIGN_OR_RETURN(Dims block, ReadBlock(ctx, "crops", &crops));
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(4));
    return Status::Ok();
  }
  if (x.rank() != 4) return ctx.Error("input " + x.ToString() + " must be 4-D NCHW");
  const int64_t blocks = block[0] * block[1];
  if (x.dims[0] >= 0 && x.dims[0] % blocks != 0)
    return ctx.Error("batch " + std::to_string(x.dims[0]) + " is not a multiple of the block size " +
                     std::to_string(blocks));
  Dims out = {x.dims[0] < 0 ? kUnknownDim : x.dims[0] / blocks, x.dims[1], kUnknownDim, kUnknownDim};
  for (size_t k = 0; k < 2; ++k) {
    if (x.dims[k + 2] < 0) continue;
    out[k + 2] = x.dims[k + 2] * block[k] - crops[k] - crops[k + 2];
    if (out[k + 2] < 0) return ctx.Error("crops " + infer::ValuesToString(crops) + " crop below zero");
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterSpaceBatchOps(OpRegistry& r) {
  r.Register(OpBuilder("SpaceToBatchND").Inputs(1, 1).Infer(InferSpaceToBatch));
  r.Register(OpBuilder("BatchToSpaceND").Inputs(1, 1).Infer(InferBatchToSpace));
}

}  // namespace ge
