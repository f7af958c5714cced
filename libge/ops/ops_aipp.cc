// Aipp: ATC's static image preprocessing (docs/aipp.md), a node the
// compiler's insert_aipp pass puts between a model input and its consumers.
// Input: the raw uint8 image, NHWC [N, H, W, C_in] (C_in 3 for RGB888_U8, 4
// for XRGB8888_U8, 1 for YUV400_U8) or, for YUV420SP_U8 (NV12), the Y plane
// and the interleaved UV plane stacked: [N, H * 3 / 2, W, 1]. Output: float32
// [N, C, H', W'] (layout "NCHW") or [N, H', W', C] ("NHWC"), C = 3 (1 for
// YUV400_U8), after crop [y, x, h, w] and pads [top, bottom, left, right].
#include "ge/ops/aipp_format.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {

const AippFormat* FindAippFormat(const std::string& name) {
  static const AippFormat kFormats[] = {
      {"YUV420SP_U8", 1, 3, true}, {"RGB888_U8", 3, 3, false}, {"XRGB8888_U8", 4, 3, false}, {"YUV400_U8", 1, 1, false}};
  for (const AippFormat& f : kFormats)
    if (name == f.name) return &f;
  return nullptr;
}

std::string AippFormatNames() { return "YUV420SP_U8, RGB888_U8, XRGB8888_U8, YUV400_U8"; }

namespace {

using infer::Dims;

Status InferAipp(InferContext& ctx) {
  const Node& n = ctx.node();
  const TensorDesc& x = ctx.input(0);
  const std::string format = n.GetString("input_format");
  const AippFormat* f = FindAippFormat(format);
  if (!f) return ctx.Error("input_format '" + format + "' is not one of " + AippFormatNames());
  const bool yuv420 = f->yuv420sp;
  const int64_t c_in = f->in_channels;
  if (x.dtype != DataType::kUInt8) return ctx.Error("input must be uint8, but is " + x.ToString());
  if (!x.is_static() || x.rank() != 4 || x.dims[3] != c_in)
    return ctx.Error("input must be a static [N, H, W, " + std::to_string(c_in) + "] image, but is " + x.ToString());
  const int64_t src_h = yuv420 ? x.dims[1] / 3 * 2 : x.dims[1], src_w = x.dims[2];
  if (yuv420 && (x.dims[1] % 3 != 0 || src_h % 2 != 0 || src_w % 2 != 0))
    return ctx.Error("a YUV420SP_U8 input is [N, H * 3 / 2, W, 1] with H and W even, but is " + x.ToString());
  const Dims crop = n.GetInts("crop"), pads = n.GetInts("pads");
  if (crop.size() != 4 || pads.size() != 4) return ctx.Error("needs 'crop' [y, x, h, w] and 'pads' [t, b, l, r]");
  for (int64_t v : crop)
    if (v < 0 || v > kMaxWindowValue) return ctx.Error("crop " + infer::ValuesToString(crop) + " is out of range");
  for (int64_t v : pads)
    if (v < 0 || v > kMaxWindowValue) return ctx.Error("pads " + infer::ValuesToString(pads) + " is out of range");
  if (crop[2] < 1 || crop[3] < 1 || crop[0] + crop[2] > src_h || crop[1] + crop[3] > src_w)
    return ctx.Error("crop " + infer::ValuesToString(crop) + " does not fit the " + std::to_string(src_h) + " x " +
                     std::to_string(src_w) + " image");
  if (yuv420 && (crop[0] % 2 != 0 || crop[1] % 2 != 0))
    return ctx.Error("a YUV420SP_U8 crop must start at even coordinates, but starts at " + std::to_string(crop[0]) +
                     ", " + std::to_string(crop[1]));
  const int64_t c = f->out_channels;
  const int64_t h = crop[2] + pads[0] + pads[1], w = crop[3] + pads[2] + pads[3];
  const std::string layout = n.GetString("layout", "NCHW");
  if (layout != "NCHW" && layout != "NHWC") return ctx.Error("layout must be NCHW or NHWC, not '" + layout + "'");
  infer::SetOutput(ctx, 0, DataType::kFloat32, layout == "NCHW" ? Dims{x.dims[0], c, h, w} : Dims{x.dims[0], h, w, c});
  return Status::Ok();
}

}  // namespace

void RegisterAippOps(OpRegistry& r) {
  r.Register(OpBuilder("Aipp")
                 .Inputs(1, 1)
                 .Defaults({{"layout", std::string("NCHW")},
                            {"csc_switch", false},
                            {"rbuv_swap_switch", false},
                            {"ax_swap_switch", false},
                            {"padding_value", 0.f}})
                 .Infer(InferAipp));
}

}  // namespace ge
