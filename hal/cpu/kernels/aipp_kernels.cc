// Aipp: ATC's static image preprocessing on the CPU (docs/aipp.md). One pass
// per output row: channel swap, crop, colour-space conversion (integer, as
// the hardware: (M (v - input_bias)) >> 8 + output_bias, saturated to
// 0..255), normalisation ((v - mean - min) * var_reci) and padding, written
// straight into the layout the consumer reads (NCHW, NHWC, or channels last
// for a logically NCHW output), so no reorder follows.
#include <algorithm>
#include <array>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

enum class Fmt { kYuv420sp, kRgb888, kXrgb8888, kYuv400 };

struct Params {
  Fmt fmt = Fmt::kRgb888;
  int64_t n = 0, src_h = 0, src_w = 0, c_in = 0;  // the raw image
  int64_t c = 0, h = 0, w = 0;                     // the output
  int64_t crop_y = 0, crop_x = 0, crop_h = 0, crop_w = 0;
  int64_t top = 0, left = 0;
  bool channels_last = false;  // output memory [N][H][W][C]
  bool csc = false, rbuv_swap = false, ax_swap = false;
  std::array<int32_t, 9> matrix{};
  std::array<int32_t, 3> in_bias{}, out_bias{};
  std::array<float, 3> scale{}, shift{};  // out = v * scale + shift
  float pad_value = 0.f;
};

// The three (or one) channel values of source pixel (y, x).
template <Fmt F>
inline void Fetch(const Params& p, const uint8_t* img, int64_t y, int64_t x, int32_t v[3]) {
  if constexpr (F == Fmt::kRgb888) {
    const uint8_t* q = img + (y * p.src_w + x) * 3;
    v[0] = q[0], v[1] = q[1], v[2] = q[2];
  } else if constexpr (F == Fmt::kXrgb8888) {
    const uint8_t* q = img + (y * p.src_w + x) * 4 + (p.ax_swap ? 0 : 1);  // ax_swap: RGBX in memory
    v[0] = q[0], v[1] = q[1], v[2] = q[2];
  } else if constexpr (F == Fmt::kYuv420sp) {
    const uint8_t* uv = img + p.src_h * p.src_w + (y >> 1) * p.src_w + (x >> 1) * 2;
    v[0] = img[y * p.src_w + x], v[1] = uv[0], v[2] = uv[1];
  } else {
    v[0] = img[y * p.src_w + x];
  }
}

template <Fmt F>
inline void Swap(int32_t v[3]) {
  if constexpr (F == Fmt::kYuv420sp) std::swap(v[1], v[2]);  // NV21: V before U
  else if constexpr (F != Fmt::kYuv400) std::swap(v[0], v[2]);  // BGR
}

inline void Csc(const Params& p, int32_t v[3]) {
  int32_t o[3];
  for (int i = 0; i < 3; ++i) {
    int32_t acc = 0;
    for (int j = 0; j < 3; ++j) acc += p.matrix[i * 3 + j] * (v[j] - p.in_bias[j]);
    o[i] = std::clamp((acc >> 8) + p.out_bias[i], 0, 255);  // >> floors negatives too (C++20)
  }
  v[0] = o[0], v[1] = o[1], v[2] = o[2];
}

// One output row of image b. Specialised on the format, the conversion and
// the output layout, so the per-pixel loop carries no branches on them
// (twice as fast as one generic loop).
template <Fmt F, bool kCsc, bool kChannelsLast>
void RunRow(const Params& p, const uint8_t* img, float* out, int64_t b, int64_t oy) {
  constexpr int kC = F == Fmt::kYuv400 ? 1 : 3;
  const int64_t plane = p.h * p.w;
  float* base = out + b * kC * plane;
  auto put = [&](int64_t ox, int ch, float value) {
    if constexpr (kChannelsLast) base[(oy * p.w + ox) * kC + ch] = value;
    else base[ch * plane + oy * p.w + ox] = value;
  };
  const int64_t sy = oy - p.top;
  const bool in_rows = sy >= 0 && sy < p.crop_h;
  const int64_t x0 = in_rows ? p.left : p.w, x1 = in_rows ? p.left + p.crop_w : p.w;
  for (int64_t ox = 0; ox < x0; ++ox)  // padding: left, or the whole row
    for (int ch = 0; ch < kC; ++ch) put(ox, ch, p.pad_value);
  for (int64_t ox = x1; ox < p.w; ++ox)  // right
    for (int ch = 0; ch < kC; ++ch) put(ox, ch, p.pad_value);
  const int64_t y = p.crop_y + sy;
  for (int64_t ox = x0; ox < x1; ++ox) {
    int32_t v[3] = {0, 0, 0};
    Fetch<F>(p, img, y, p.crop_x + ox - p.left, v);
    if (p.rbuv_swap) Swap<F>(v);
    if constexpr (kCsc) Csc(p, v);
    for (int ch = 0; ch < kC; ++ch) put(ox, ch, static_cast<float>(v[ch]) * p.scale[ch] + p.shift[ch]);
  }
}

using RowFn = void (*)(const Params&, const uint8_t*, float*, int64_t, int64_t);

template <Fmt F>
RowFn PickRow(const Params& p) {
  if constexpr (F == Fmt::kYuv400) return p.channels_last ? RunRow<F, false, true> : RunRow<F, false, false>;
  if (p.csc) return p.channels_last ? RunRow<F, true, true> : RunRow<F, true, false>;
  return p.channels_last ? RunRow<F, false, true> : RunRow<F, false, false>;
}

RowFn PickRow(const Params& p) {
  switch (p.fmt) {
    case Fmt::kYuv420sp: return PickRow<Fmt::kYuv420sp>(p);
    case Fmt::kRgb888: return PickRow<Fmt::kRgb888>(p);
    case Fmt::kXrgb8888: return PickRow<Fmt::kXrgb8888>(p);
    case Fmt::kYuv400: break;
  }
  return PickRow<Fmt::kYuv400>(p);
}

Result<Params> Read(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  const Attrs& a = spec.attrs;
  Params p;
  const std::string format = a.GetString("input_format", "");
  if (format == "YUV420SP_U8") p.fmt = Fmt::kYuv420sp, p.c_in = 1;
  else if (format == "RGB888_U8") p.fmt = Fmt::kRgb888, p.c_in = 3;
  else if (format == "XRGB8888_U8") p.fmt = Fmt::kXrgb8888, p.c_in = 4;
  else if (format == "YUV400_U8") p.fmt = Fmt::kYuv400, p.c_in = 1;
  else return NotSupported(spec, "input_format '" + format + "'");
  if (x.dtype != DataType::kUInt8 || x.dims.size() != 4 || x.dims[3] != p.c_in || x.channel_block != 0)
    return Bad(spec, "input must be plain uint8 [N, H, W, " + std::to_string(p.c_in) + "], not " + DimsStr(x.dims));
  p.n = x.dims[0];
  p.src_h = p.fmt == Fmt::kYuv420sp ? x.dims[1] / 3 * 2 : x.dims[1];
  p.src_w = x.dims[2];
  if (p.fmt == Fmt::kYuv420sp && (x.dims[1] % 3 || p.src_h % 2 || p.src_w % 2))
    return Bad(spec, "a YUV420SP_U8 input is [N, H * 3 / 2, W, 1] with H and W even, not " + DimsStr(x.dims));
  const std::vector<int64_t> crop = a.GetInts("crop"), pads = a.GetInts("pads");
  if (crop.size() != 4 || pads.size() != 4) return Bad(spec, "needs 'crop' and 'pads' of 4 values");
  // The window sums below stay far from overflow (a .om may say anything).
  constexpr int64_t kMax = int64_t{1} << 31;
  for (int64_t v : crop)
    if (v > kMax) return Bad(spec, "crop " + DimsStr(crop) + " out of range");
  for (int64_t v : pads)
    if (v > kMax) return Bad(spec, "pads " + DimsStr(pads) + " out of range");
  p.crop_y = crop[0], p.crop_x = crop[1], p.crop_h = crop[2], p.crop_w = crop[3];
  if (p.crop_y < 0 || p.crop_x < 0 || p.crop_h < 1 || p.crop_w < 1 || p.crop_y + p.crop_h > p.src_h ||
      p.crop_x + p.crop_w > p.src_w)
    return Bad(spec, "crop " + DimsStr(crop) + " does not fit the image " + DimsStr({p.src_h, p.src_w}));
  for (int64_t v : pads)
    if (v < 0) return Bad(spec, "pads " + DimsStr(pads) + " below 0");
  p.top = pads[0], p.left = pads[2];
  p.c = p.fmt == Fmt::kYuv400 ? 1 : 3;
  p.h = p.crop_h + pads[0] + pads[1];
  p.w = p.crop_w + pads[2] + pads[3];
  const std::string layout = a.GetString("layout", "NCHW");
  const std::vector<int64_t> want = layout == "NHWC" ? std::vector<int64_t>{p.n, p.h, p.w, p.c}
                                                     : std::vector<int64_t>{p.n, p.c, p.h, p.w};
  if (y.dtype != DataType::kFloat32 || y.dims != want)
    return Bad(spec, "output must be float32 " + DimsStr(want) + ", not " + DimsStr(y.dims));
  if (y.channel_block != 0 && !(y.channel_block == kChannelsLast && layout == "NCHW"))
    return NotSupported(spec, "output layout with channel_block " + std::to_string(y.channel_block));
  p.channels_last = layout == "NHWC" || y.channel_block == kChannelsLast;
  p.csc = a.GetInt("csc_switch", 0) != 0;
  if (p.csc && p.fmt == Fmt::kYuv400) return NotSupported(spec, "csc_switch with YUV400_U8 (one channel)");
  p.rbuv_swap = a.GetInt("rbuv_swap_switch", 0) != 0;
  p.ax_swap = a.GetInt("ax_swap_switch", 0) != 0;
  const std::vector<int64_t> m = a.GetInts("matrix", std::vector<int64_t>(9, 0));
  const std::vector<int64_t> ib = a.GetInts("input_bias", {0, 0, 0}), ob = a.GetInts("output_bias", {0, 0, 0});
  const std::vector<int64_t> mean = a.GetInts("mean_chn", {0, 0, 0, 0});
  const std::vector<float> min = a.GetFloats("min_chn", {0, 0, 0, 0}), var = a.GetFloats("var_reci_chn", {1, 1, 1, 1});
  if (m.size() != 9 || ib.size() != 3 || ob.size() != 3 || mean.size() < 3 || min.size() < 3 || var.size() < 3)
    return Bad(spec, "matrix needs 9 values, biases 3, mean/min/var_reci 3 or 4");
  for (int i = 0; i < 9; ++i) {
    if (m[i] < -32768 || m[i] > 32767) return Bad(spec, "matrix value " + std::to_string(m[i]) + " outside int16");
    p.matrix[i] = static_cast<int32_t>(m[i]);
  }
  for (int i = 0; i < 3; ++i) {
    if (ib[i] < -255 || ib[i] > 255 || ob[i] < -255 || ob[i] > 255)
      return Bad(spec, "input_bias and output_bias must lie in -255..255");
    p.in_bias[i] = static_cast<int32_t>(ib[i]);
    p.out_bias[i] = static_cast<int32_t>(ob[i]);
    p.scale[i] = var[i];
    p.shift[i] = -(static_cast<float>(mean[i]) + min[i]) * var[i];
  }
  p.pad_value = a.GetFloat("padding_value", 0.f);
  return p;
}

}  // namespace

void RegisterAippKernels(KernelRegistry& r) {
  r.Register(
      "Aipp", [](const KernelSpec& s) { return Read(s).status(); },
      [](const KernelSpec& s) -> Result<std::unique_ptr<Kernel>> {
        GE_ASSIGN_OR_RETURN(Params p, Read(s));
        const RowFn run_row = PickRow(p);
        return MakeKernel([p, run_row](const void* const* in, void* const* out) {
          const auto* img = static_cast<const uint8_t*>(in[0]);
          auto* y = static_cast<float*>(out[0]);
          const int64_t image_bytes = p.src_h * p.src_w * p.c_in * (p.fmt == Fmt::kYuv420sp ? 3 : 2) / 2;
          const int64_t rows = p.n * p.h;
          // A pixel costs about 15 ns, so rows are split between threads from
          // 4096 pixels on (a 224 x 224 image was 5% of ResNet-18 on one thread).
#pragma omp parallel for schedule(static) if (rows * p.w >= 4096)
          for (int64_t r = 0; r < rows; ++r) run_row(p, img + (r / p.h) * image_bytes, y, r / p.h, r % p.h);
          return Status::Ok();
        });
      },
      LayoutSupport::kOwn);
}

}  // namespace ge::hal
