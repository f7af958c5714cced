// Pooling over the spatial axes of N x C x spatial... inputs.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// MaxPool / AveragePool: the kernel comes from kernel_shape; MaxPool's
// optional second output holds the argmax indices.
Status InferPool(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (!ctx.node().HasAttr("kernel_shape")) return ctx.Error("needs attribute 'kernel_shape'");
  const Dims kernel = ctx.node().GetInts("kernel_shape");
  Dims out;
  if (x.unknown_rank()) {
    out = infer::UnknownDims(kernel.size() + 2);
  } else {
    if (x.rank() < 3)
      return ctx.Error("input must be N x C x spatial..., but is " + x.ToString());
    GE_ASSIGN_OR_RETURN(infer::Window w, infer::ReadWindow(ctx, x.dims.size() - 2, kernel));
    out = {x.dims[0], x.dims[1]};
    for (size_t i = 0; i + 2 < x.dims.size(); ++i) {
      GE_ASSIGN_OR_RETURN(int64_t d, infer::WindowOutDim(ctx, w, i, x.dims[i + 2]));
      out.push_back(d);
    }
  }
  infer::SetOutput(ctx, 0, x.dtype, out);
  if (ctx.num_outputs() > 1) infer::SetOutput(ctx, 1, DataType::kInt64, out);
  return Status::Ok();
}

// Global pools keep N and C and reduce every spatial axis to 1.
Status InferGlobalPool(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  if (x.rank() < 3) return ctx.Error("input must be N x C x spatial..., but is " + x.ToString());
  Dims out(x.dims.size(), 1);
  out[0] = x.dims[0];
  out[1] = x.dims[1];
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// MaxRoiPool: X [N, C, H, W] and rois [R, 5] (batch index, x1, y1, x2, y2)
// give [R, C, pooled_h, pooled_w].
Status InferMaxRoiPool(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& rois = ctx.input(1);
  if (!ctx.node().HasAttr("pooled_shape")) return ctx.Error("needs attribute 'pooled_shape'");
  const Dims pooled = ctx.node().GetInts("pooled_shape");
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0)
    return ctx.Error("pooled_shape must be two positive sizes, but is " + infer::ValuesToString(pooled));
  if (!x.unknown_rank() && x.rank() != 4) return ctx.Error("X must be N x C x H x W, but is " + x.ToString());
  if (!rois.unknown_rank() && (rois.rank() != 2 || (rois.dims[1] >= 0 && rois.dims[1] != 5)))
    return ctx.Error("rois must be [num_rois, 5], but is " + rois.ToString());
  const int64_t r = rois.unknown_rank() ? -1 : rois.dims[0];
  const int64_t c = x.unknown_rank() ? -1 : x.dims[1];
  infer::SetOutput(ctx, 0, x.dtype, {r, c, pooled[0], pooled[1]});
  return Status::Ok();
}

}  // namespace

void RegisterPoolOps(OpRegistry& r) {
  r.Register(OpBuilder("MaxPool")
                 .Inputs(1, 1)
                 .Outputs(1, 2)
                 .Defaults({{"auto_pad", std::string("NOTSET")}, {"ceil_mode", int64_t{0}}, {"storage_order", int64_t{0}}})
                 .Infer(InferPool));
  r.Register(OpBuilder("AveragePool")
                 .Inputs(1, 1)
                 .Defaults({{"auto_pad", std::string("NOTSET")}, {"ceil_mode", int64_t{0}},
                            {"count_include_pad", int64_t{0}}})
                 .Infer(InferPool));
  r.Register(OpBuilder("LpPool")
                 .Inputs(1, 1)
                 .Defaults({{"auto_pad", std::string("NOTSET")}, {"ceil_mode", int64_t{0}}, {"p", int64_t{2}}})
                 .Infer(InferPool));
  for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"})
    r.Register(OpBuilder(type).Inputs(1, 1).Infer(InferGlobalPool));
  r.Register(OpBuilder("GlobalLpPool").Inputs(1, 1).Defaults({{"p", int64_t{2}}}).Infer(InferGlobalPool));
  r.Register(OpBuilder("MaxRoiPool").Inputs(2, 2).Defaults({{"spatial_scale", 1.0f}}).Infer(InferMaxRoiPool));
}

}  // namespace ge
