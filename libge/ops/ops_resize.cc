// Resize (opset 11/13; opset 10's X, scales form too): the output size comes
// from `sizes` or from floor(in * scale); both must be known at compile time
// for a static shape (runtime values give unknown dims).
#include <cmath>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

bool IsFloatish(DataType t) {
  return t == DataType::kFloat32 || t == DataType::kFloat64 || t == DataType::kFloat16;
}

Status InferResize(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const Node& n = ctx.node();
  // Opset 18's additions are not implemented: refuse rather than ignore them.
  if (n.GetInt("antialias", 0) != 0) return ctx.NotSupported("antialias=1 is not supported");
  if (n.HasAttr("axes")) return ctx.NotSupported("the axes attribute (opset 18) is not supported");
  if (n.GetString("keep_aspect_ratio_policy", "stretch") != "stretch")
    return ctx.NotSupported("keep_aspect_ratio_policy other than stretch is not supported");
  // Opset 10: (X, scales); later: (X, roi, scales, sizes).
  const bool v10 = ctx.num_inputs() == 2 && infer::Opset(n) >= 0 && infer::Opset(n) < 11;
  const size_t scales_in = v10 ? 1 : 2, sizes_in = 3;
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  const size_t r = x.dims.size();
  if (!v10 && ctx.has_input(sizes_in)) {
    if (ctx.has_input(scales_in) && infer::OperandLength(ctx.input(scales_in)) != 0)
      return ctx.Error("give scales or sizes, not both");
    std::optional<Dims> sizes = infer::InputInts(ctx, sizes_in);
    if (!sizes) {
      infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(r));
      return Status::Ok();
    }
    if (sizes->size() != r)
      return ctx.Error("sizes has " + std::to_string(sizes->size()) + " values for rank " + std::to_string(r));
    for (int64_t s : *sizes)
      if (s < 0) return ctx.Error("sizes " + infer::ValuesToString(*sizes) + " has a negative value");
    infer::SetOutput(ctx, 0, x.dtype, *sizes);
    return Status::Ok();
  }
  if (!ctx.has_input(scales_in)) return ctx.Error("needs scales or sizes");
  const Tensor* scales = ctx.input_value(scales_in);
  if (!scales) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(r));
    return Status::Ok();
  }
  if (!IsFloatish(scales->desc().dtype)) return ctx.Error("scales must be floating point");
  const std::vector<double> s = scales->ToDouble();
  if (s.size() != r) return ctx.Error("scales has " + std::to_string(s.size()) + " values for rank " + std::to_string(r));
  Dims out;
  for (size_t i = 0; i < r; ++i) {
    if (!(s[i] > 0) || !std::isfinite(s[i])) return ctx.Error("scales must be positive and finite");
    if (x.dims[i] < 0) {
      out.push_back(kUnknownDim);
      continue;
    }
    // floor(in * scale) in double, as the ONNX reference computes it (a
    // float scale like 0.6f keeps its float error in the product).
    const double d = std::floor(s[i] * static_cast<double>(x.dims[i]));
    if (d > 1e15) return ctx.Error("scales make an output dim too large");
    out.push_back(static_cast<int64_t>(d));
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterResizeOps(OpRegistry& r) {
  r.Register(OpBuilder("Resize")
                 .Inputs(1, 4)
                 .Defaults({{"mode", std::string("nearest")},
                            {"coordinate_transformation_mode", std::string("half_pixel")},
                            {"nearest_mode", std::string("round_prefer_floor")},
                            {"cubic_coeff_a", -0.75f},
                            {"exclude_outside", int64_t{0}},
                            {"extrapolation_value", 0.0f}})
                 .Infer(InferResize)
                 .ValueInputs({1, 2, 3}));  // input 1: opset 10's scales (roi since 11)
}

}  // namespace ge
