// Sampling an image at computed positions: GridSample (X [N,C,H,W] at the
// grid [N,Ho,Wo,2] of normalised (x, y): [N,C,Ho,Wo]) and RoiAlign (X at
// rois [R,4] of batch batch_indices [R]: [R,C,output_height,output_width])
// and CropAndResize (TensorFlow's, on NCHW: X at boxes [R,4] of normalised
// (y1, x1, y2, x2) of image box_indices [R]: [R,C,crop_height,crop_width]).
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Status CheckOneOf(InferContext& ctx, const char* attr, const std::string& def, std::initializer_list<const char*> ok) {
  const std::string v = ctx.node().GetString(attr, def);
  std::string names;
  for (const char* o : ok) {
    if (v == o) return Status::Ok();
    names += names.empty() ? o : std::string(", ") + o;
  }
  return ctx.Error(std::string(attr) + " '" + v + "' is not one of " + names);
}

Status InferGridSample(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 1}).status());
  GE_RETURN_IF_ERROR(CheckOneOf(ctx, "mode", "bilinear", {"bilinear", "nearest", "bicubic"}));
  GE_RETURN_IF_ERROR(CheckOneOf(ctx, "padding_mode", "zeros", {"zeros", "border", "reflection"}));
  const TensorDesc &x = ctx.input(0), &grid = ctx.input(1);
  if (!x.unknown_rank() && x.rank() != 4) return ctx.Error("X must be N x C x H x W, but is " + x.ToString());
  if (!grid.unknown_rank() && (grid.rank() != 4 || (grid.dims[3] >= 0 && grid.dims[3] != 2)))
    return ctx.Error("grid must be N x H_out x W_out x 2, but is " + grid.ToString());
  Dims out = infer::UnknownDims(4);
  if (!x.unknown_rank()) out[0] = x.dims[0], out[1] = x.dims[1];
  if (!grid.unknown_rank()) {
    if (out[0] >= 0 && grid.dims[0] >= 0 && out[0] != grid.dims[0])
      return ctx.Error("X " + x.ToString() + " and grid " + grid.ToString() + " differ in N");
    out[0] = out[0] >= 0 ? out[0] : grid.dims[0];
    out[2] = grid.dims[1], out[3] = grid.dims[2];
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// RoiAlign and CropAndResize: X [N,C,H,W] sampled in regions [R,4] of the
// images batch_indices [R] into [R, C, out_h, out_w] (the sizes from the
// attributes h_attr / w_attr); `regions` and `indices` name inputs 1 and 2.
Status InferRegionSampler(InferContext& ctx, const char* regions, const char* indices, const char* h_attr,
                          const char* w_attr, int64_t size_default) {
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 1}).status());
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 2, infer::IsIndex, "int32 or int64"));
  const TensorDesc &x = ctx.input(0), &rois = ctx.input(1), &idx = ctx.input(2);
  if (!x.unknown_rank() && x.rank() != 4) return ctx.Error("X must be N x C x H x W, but is " + x.ToString());
  if (!rois.unknown_rank() && (rois.rank() != 2 || (rois.dims[1] >= 0 && rois.dims[1] != 4)))
    return ctx.Error(std::string(regions) + " must be num_" + regions + " x 4, but are " + rois.ToString());
  if (!idx.unknown_rank() && idx.rank() != 1)
    return ctx.Error(std::string(indices) + " must be 1-D, but are " + idx.ToString());
  const int64_t oh = ctx.node().GetInt(h_attr, size_default), ow = ctx.node().GetInt(w_attr, size_default);
  if (oh < 1 || ow < 1) return ctx.Error(std::string(h_attr) + " and " + w_attr + " must be positive");
  int64_t r = rois.unknown_rank() ? kUnknownDim : rois.dims[0];
  if (r < 0 && !idx.unknown_rank()) r = idx.dims[0];
  infer::SetOutput(ctx, 0, x.dtype, {r, x.unknown_rank() ? kUnknownDim : x.dims[1], oh, ow});
  return Status::Ok();
}

Status InferRoiAlign(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckOneOf(ctx, "mode", "avg", {"avg", "max"}));
  GE_RETURN_IF_ERROR(
      CheckOneOf(ctx, "coordinate_transformation_mode", "half_pixel", {"half_pixel", "output_half_pixel"}));
  return InferRegionSampler(ctx, "rois", "batch_indices", "output_height", "output_width", 1);
}

Status InferCropAndResize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckOneOf(ctx, "method", "bilinear", {"bilinear", "nearest"}));
  return InferRegionSampler(ctx, "boxes", "box_indices", "crop_height", "crop_width", 0);
}

}  // namespace

void RegisterSampleOps(OpRegistry& r) {
  r.Register(OpBuilder("GridSample")
                 .Inputs(2, 2)
                 .Defaults({{"align_corners", int64_t{0}},
                            {"mode", std::string("bilinear")},
                            {"padding_mode", std::string("zeros")}})
                 .Infer(InferGridSample));
  r.Register(OpBuilder("RoiAlign")
                 .Inputs(3, 3)
                 .Defaults({{"coordinate_transformation_mode", std::string("half_pixel")},
                            {"mode", std::string("avg")},
                            {"output_height", int64_t{1}},
                            {"output_width", int64_t{1}},
                            {"sampling_ratio", int64_t{0}},
                            {"spatial_scale", 1.0f}})
                 .Infer(InferRoiAlign));
  // crop_height and crop_width are required.
  r.Register(OpBuilder("CropAndResize")
                 .Inputs(3, 3)
                 .Defaults({{"method", std::string("bilinear")}, {"extrapolation_value", 0.0f}})
                 .Infer(InferCropAndResize));
}

}  // namespace ge
