// GridSample (ONNX opset 16, 4-D): Y[n,c,h,w] samples X[n,c] at the grid's
// normalised (x, y) in [-1, 1], by nearest (rounding half to even),
// bilinear or bicubic (Keys, a = -0.75) interpolation; positions outside
// read zeros, the border, or the image reflected at its border.
// align_corners maps -1 and 1 to the corner pixels' centres (else to their
// outer edges). The arithmetic follows onnxruntime's, step by step, in float.
#include <algorithm>
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

enum class Mode { kNearest, kBilinear, kBicubic };
enum class Padding { kZeros, kBorder, kReflection };

struct GridPlan {
  int64_t n = 0, c = 0, h = 0, w = 0, ho = 0, wo = 0;
  Mode mode = Mode::kBilinear;
  Padding padding = Padding::kZeros;
  bool align = false;
};

Result<GridPlan> PlanGridSample(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &g = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "X", {DataType::kFloat32}));
  if (g.dtype != x.dtype || spec.outputs[0].dtype != x.dtype) return Bad(spec, "X, grid and Y must share one dtype");
  if (x.dims.size() != 4) return NotSupported(spec, "X " + DimsStr(x.dims) + " (only 4-D, N x C x H x W)");
  if (g.dims.size() != 4 || g.dims[0] != x.dims[0] || g.dims[3] != 2)
    return Bad(spec, "grid " + DimsStr(g.dims) + " must be N x H_out x W_out x 2 for X " + DimsStr(x.dims));
  GridPlan p{x.dims[0], x.dims[1], x.dims[2], x.dims[3], g.dims[1], g.dims[2]};
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, {p.n, p.c, p.ho, p.wo}));
  const std::string mode = spec.attrs.GetString("mode", "bilinear");
  const std::string pad = spec.attrs.GetString("padding_mode", "zeros");
  if (mode == "nearest")
    p.mode = Mode::kNearest;
  else if (mode == "bicubic")
    p.mode = Mode::kBicubic;
  else if (mode != "bilinear")
    return Bad(spec, "mode '" + mode + "' is not bilinear, nearest or bicubic");
  if (pad == "border")
    p.padding = Padding::kBorder;
  else if (pad == "reflection")
    p.padding = Padding::kReflection;
  else if (pad != "zeros")
    return Bad(spec, "padding_mode '" + pad + "' is not zeros, border or reflection");
  p.align = spec.attrs.GetInt("align_corners", 0) != 0;
  return p;
}

// x reflected into [lo, hi] as often as it takes.
float Reflect(float x, float lo, float hi) {
  const float range = hi - lo;
  if (x >= lo && x <= hi) return x;
  const float d = x < lo ? lo - x : x - hi;
  const float q = std::floor(d / range), r = d - q * range;
  const bool even = std::fmod(q, 2.f) == 0;
  if (x < lo) return even ? lo + r : hi - r;
  return even ? hi - r : lo + r;
}

void CubicCoeffs(float x, float c[4]) {
  constexpr float a = -0.75f;
  x = std::abs(x);
  c[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  c[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  c[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

class GridSampler {
 public:
  explicit GridSampler(const GridPlan& p) : p_(p) {
    lo_x_ = lo_y_ = p.align ? 0.f : -0.5f;
    hi_x_ = p.align ? static_cast<float>(p.w) - 1 : static_cast<float>(p.w) - 0.5f;
    hi_y_ = p.align ? static_cast<float>(p.h) - 1 : static_cast<float>(p.h) - 0.5f;
  }

  // One output value of the image `img` (H x W) at normalised (nx, ny).
  float Sample(const float* img, float nx, float ny) const {
    float x = Denormalize(nx, p_.w), y = Denormalize(ny, p_.h);
    if (p_.mode == Mode::kNearest) x = std::nearbyint(x), y = std::nearbyint(y);
    if (x < lo_x_ || x > hi_x_ || y < lo_y_ || y > hi_y_) {
      if (p_.padding == Padding::kBorder) {
        x = std::clamp(x, 0.f, static_cast<float>(p_.w - 1));
        y = std::clamp(y, 0.f, static_cast<float>(p_.h - 1));
      } else if (p_.padding == Padding::kReflection) {
        x = Reflect(x, lo_x_, hi_x_);
        y = Reflect(y, lo_y_, hi_y_);
      }
    }
    if (std::isnan(x) || std::isnan(y)) return std::nanf("");
    // Far outside, every tap reads padding: keep the casts below in range.
    x = std::clamp(x, -4.f, static_cast<float>(p_.w) + 3);
    y = std::clamp(y, -4.f, static_cast<float>(p_.h) + 3);
    if (p_.mode == Mode::kNearest) return Pixel(img, static_cast<int64_t>(y), static_cast<int64_t>(x));
    const int64_t x1 = static_cast<int64_t>(std::floor(x)), y1 = static_cast<int64_t>(std::floor(y));
    if (p_.mode == Mode::kBilinear) {
      const float dx1 = x - static_cast<float>(x1), dx2 = static_cast<float>(x1 + 1) - x;
      const float dy1 = y - static_cast<float>(y1), dy2 = static_cast<float>(y1 + 1) - y;
      return dy2 * (dx2 * Pixel(img, y1, x1) + dx1 * Pixel(img, y1, x1 + 1)) +
             dy1 * (dx2 * Pixel(img, y1 + 1, x1) + dx1 * Pixel(img, y1 + 1, x1 + 1));
    }
    float cx[4], cy[4], rows[4];
    CubicCoeffs(x - static_cast<float>(x1), cx);
    CubicCoeffs(y - static_cast<float>(y1), cy);
    for (int64_t i = 0; i < 4; ++i) {
      rows[i] = 0;
      for (int64_t j = 0; j < 4; ++j) rows[i] += cx[j] * Pixel(img, y1 - 1 + i, x1 - 1 + j);
    }
    return cy[0] * rows[0] + cy[1] * rows[1] + cy[2] * rows[2] + cy[3] * rows[3];
  }

 private:
  float Denormalize(float v, int64_t len) const {
    const float n = static_cast<float>(len);
    return p_.align ? (v + 1) / 2.f * (n - 1) : ((v + 1) * n - 1) / 2.f;
  }

  // The pixel at integer (r, c), padded as the mode says.
  float Pixel(const float* img, int64_t r, int64_t c) const {
    switch (p_.padding) {
      case Padding::kZeros: return r >= 0 && r < p_.h && c >= 0 && c < p_.w ? img[r * p_.w + c] : 0.f;
      case Padding::kBorder:
        return img[std::clamp<int64_t>(r, 0, p_.h - 1) * p_.w + std::clamp<int64_t>(c, 0, p_.w - 1)];
      case Padding::kReflection: {
        // Reflection lands inside; the clamp only guards a degenerate 1-pixel axis.
        const int64_t rr = static_cast<int64_t>(Reflect(static_cast<float>(r), lo_y_, hi_y_));
        const int64_t cc = static_cast<int64_t>(Reflect(static_cast<float>(c), lo_x_, hi_x_));
        return img[std::clamp<int64_t>(rr, 0, p_.h - 1) * p_.w + std::clamp<int64_t>(cc, 0, p_.w - 1)];
      }
    }
    return 0.f;
  }

  GridPlan p_;
  float lo_x_, hi_x_, lo_y_, hi_y_;
};

Result<std::unique_ptr<Kernel>> CreateGridSample(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(GridPlan p, PlanGridSample(spec));
  return MakeKernel([p, s = GridSampler(p)](const void* const* in, void* const* out) {
    const float* x = static_cast<const float*>(in[0]);
    const float* grid = static_cast<const float*>(in[1]);
    float* y = static_cast<float*>(out[0]);
    const int64_t points = p.ho * p.wo;
    for (int64_t b = 0; b < p.n; ++b)
      for (int64_t ch = 0; ch < p.c; ++ch) {
        const float* img = x + (b * p.c + ch) * p.h * p.w;
        const float* g = grid + b * points * 2;
        for (int64_t i = 0; i < points; ++i) *y++ = s.Sample(img, g[2 * i], g[2 * i + 1]);
      }
    return Status::Ok();
  });
}

}  // namespace

void RegisterGridSampleKernels(KernelRegistry& r) {
  r.Register(
      "GridSample", [](const KernelSpec& s) { return PlanGridSample(s).status(); }, CreateGridSample);
}

}  // namespace ge::hal
