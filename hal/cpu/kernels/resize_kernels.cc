// ONNX Resize (opset 10 to 13): nearest (four rounding modes), linear and
// cubic (cubic_coeff_a, exclude_outside) under every
// coordinate_transformation_mode, tf_crop_and_resize with its
// extrapolation_value. f32.
//
// The interpolation is separable: one pass per axis whose size or
// coordinates change, innermost axis first, which is the order the ONNX
// reference nests its 1-D interpolations in (it matters only for
// tf_crop_and_resize, where an extrapolated value of an inner axis is
// interpolated along the outer ones). Each pass reads a table made at
// Create: per output index, up to four (input index, weight) taps with the
// edge clamping of the reference folded into the indices.
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using Dims = std::vector<int64_t>;

struct AxisPass {
  int axis = 0;
  int64_t in = 0, out = 0;
  int taps = 1;
  std::vector<int64_t> idx;      // out * taps, within [0, in)
  std::vector<float> w;          // out * taps
  std::vector<uint8_t> extrap;   // per output index: the extrapolation value instead
};

struct ResizeAttrs {
  std::string mode, transform, nearest;
  double a = -0.75;
  int64_t cubic_table = 0;  // > 0: fractions rounded to 1/cubic_table (TF's table)
  bool exclude_outside = false;
  float extrapolation = 0;
};

// The reference's cubic weights for the four neighbours of ratio t in (0, 1].
void CubicCoeffs(double t, double a, double c[4]) {
  const double t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  c[0] = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  c[2] = ((a + 2) * t2 - (a + 3)) * t2 * t2 + 1;
  c[3] = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a;
}

// t rounded to the nearest multiple of 1/n (halves to even, as lrintf): the
// entry of an n-interval coefficient table TF reads.
double TableFraction(double t, int64_t n) {
  return std::nearbyint(t * static_cast<double>(n)) / static_cast<double>(n);
}

// Input coordinate of output index o, as ONNX's reference computes it
// (out_f is scale * in, not the rounded output size). nullopt: outside the
// crop, where the extrapolation value goes.
std::optional<double> SourceCoord(const ResizeAttrs& at, int64_t o, int64_t in, double scale, double roi_start,
                                  double roi_end) {
  const double out_f = scale * static_cast<double>(in), x = static_cast<double>(o);
  const std::string& t = at.transform;
  if (t == "align_corners") return out_f == 1 ? 0.0 : x * static_cast<double>(in - 1) / (out_f - 1);
  if (t == "asymmetric") return x / scale;
  if (t == "pytorch_half_pixel") return out_f == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  if (t == "tf_half_pixel_for_nn") return (x + 0.5) / scale;
  if (t == "tf_crop_and_resize") {
    double v = out_f == 1 ? (roi_end - roi_start) * static_cast<double>(in - 1) / 2
                          : x * (roi_end - roi_start) * static_cast<double>(in - 1) / (out_f - 1);
    v += roi_start * static_cast<double>(in - 1);
    if (v < 0 || v > static_cast<double>(in - 1)) return std::nullopt;
    return v;
  }
  return (x + 0.5) / scale - 0.5;  // half_pixel
}

AxisPass MakePass(const ResizeAttrs& at, int axis, int64_t in, int64_t out, double scale, double roi_start,
                  double roi_end, bool v10) {
  AxisPass p;
  p.axis = axis;
  p.in = in;
  p.out = out;
  p.taps = at.mode == "cubic" ? 4 : at.mode == "linear" ? 2 : 1;
  p.idx.resize(static_cast<size_t>(out * p.taps));
  p.w.resize(p.idx.size());
  p.extrap.assign(static_cast<size_t>(out), 0);
  auto clamp = [in](int64_t i) { return std::min(std::max<int64_t>(i, 0), in - 1); };
  for (int64_t o = 0; o < out; ++o) {
    int64_t* idx = &p.idx[static_cast<size_t>(o * p.taps)];
    float* w = &p.w[static_cast<size_t>(o * p.taps)];
    const auto src = SourceCoord(at, o, in, scale, roi_start, roi_end);
    if (!src) {
      p.extrap[static_cast<size_t>(o)] = 1;
      for (int k = 0; k < p.taps; ++k) idx[k] = 0, w[k] = 0;
      continue;
    }
    const double x = *src;
    // The reference takes neighbours left of x with a ratio in (0, 1]: an
    // integer x is the right neighbour of x - 1 with ratio 1.
    const double fl = std::floor(x);
    const bool whole = x == fl;
    const int64_t base = static_cast<int64_t>(fl) - (whole ? 1 : 0);
    const double ratio = whole ? 1.0 : x - fl;
    if (p.taps == 1) {
      bool right;  // the neighbour base + 1 rather than base
      if (whole) right = true;
      else if (v10) right = scale < 1;  // opset 10 (onnxruntime's rule): ceil downsampling, floor upsampling
      else if (at.nearest == "round_prefer_ceil") right = ratio >= 0.5;
      else if (at.nearest == "floor") right = false;
      else if (at.nearest == "ceil") right = true;
      else right = ratio > 0.5;  // round_prefer_floor
      idx[0] = clamp(base + (right ? 1 : 0));
      w[0] = 1;
    } else if (p.taps == 2) {
      idx[0] = clamp(base);
      idx[1] = clamp(base + 1);
      w[0] = static_cast<float>(1 - ratio);
      w[1] = static_cast<float>(ratio);
    } else {
      double c[4];
      CubicCoeffs(at.cubic_table > 0 ? TableFraction(ratio, at.cubic_table) : ratio, at.a, c);
      double sum = 0;
      for (int k = 0; k < 4; ++k) {
        const int64_t i = base - 1 + k;
        if (at.exclude_outside && (i < 0 || i >= in)) c[k] = 0;
        sum += c[k];
      }
      for (int k = 0; k < 4; ++k) {
        idx[k] = clamp(base - 1 + k);
        w[k] = static_cast<float>(at.exclude_outside ? c[k] / sum : c[k]);
      }
    }
  }
  return p;
}

// Whether a pass would copy its input unchanged.
bool IsIdentity(const AxisPass& p) {
  if (p.in != p.out) return false;
  for (int64_t o = 0; o < p.out; ++o) {
    if (p.extrap[static_cast<size_t>(o)]) return false;
    for (int k = 0; k < p.taps; ++k) {
      const size_t j = static_cast<size_t>(o * p.taps + k);
      if (p.w[j] != 0 && (p.idx[j] != o || p.w[j] != 1)) return false;
    }
  }
  return true;
}

struct ResizePlan {
  ResizeAttrs at;
  std::vector<AxisPass> passes;  // innermost axis first
  Dims in, out;
};

Result<ResizePlan> PlanResize(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 4, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "X", {DataType::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, y, "Y", {DataType::kFloat32}));
  ResizePlan p;
  ResizeAttrs& at = p.at;
  at.mode = spec.attrs.GetString("mode", "nearest");
  at.transform = spec.attrs.GetString("coordinate_transformation_mode", "half_pixel");
  at.nearest = spec.attrs.GetString("nearest_mode", "round_prefer_floor");
  at.a = spec.attrs.GetFloat("cubic_coeff_a", -0.75f);
  at.exclude_outside = spec.attrs.GetInt("exclude_outside", 0) != 0;
  at.cubic_table = spec.attrs.GetInt("_cubic_table_size", 0);
  if (at.cubic_table < 0 || at.cubic_table > (int64_t{1} << 24))
    return Bad(spec, "_cubic_table_size must be in 0.." + std::to_string(int64_t{1} << 24));
  at.extrapolation = spec.attrs.GetFloat("extrapolation_value", 0.0f);
  const bool v10 = spec.inputs.size() == 2 && spec.attrs.GetInt("_opset", 13) < 11;
  if (v10) at.transform = "asymmetric";
  if (at.mode != "nearest" && at.mode != "linear" && at.mode != "cubic")
    return NotSupported(spec, "mode '" + at.mode + "' is not nearest, linear or cubic");
  static const char* kTransforms[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                      "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  if (std::find(std::begin(kTransforms), std::end(kTransforms), at.transform) == std::end(kTransforms))
    return NotSupported(spec, "coordinate_transformation_mode '" + at.transform + "' is not supported");
  static const char* kNearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  if (std::find(std::begin(kNearest), std::end(kNearest), at.nearest) == std::end(kNearest))
    return NotSupported(spec, "nearest_mode '" + at.nearest + "' is not supported");
  if (spec.attrs.GetInt("antialias", 0) != 0) return NotSupported(spec, "antialias=1 is not supported");
  const size_t r = x.dims.size();
  p.in = x.dims;
  p.out = y.dims;
  if (p.out.size() != r) return Bad(spec, "Y has rank " + std::to_string(p.out.size()) + ", X " + std::to_string(r));
  // Scales: given (opset 10: input 1; later: input 2), or out / in from sizes.
  const bool values = ValuesKnown(spec);
  const size_t scales_in = v10 ? 1 : 2;
  std::vector<double> scales(r);
  if (!v10 && HasInput(spec, 3) && spec.inputs[3].NumElements() > 0) {
    if (!values) return p;
    GE_ASSIGN_OR_RETURN(Dims sizes, ConstInts(spec, 3, "sizes"));
    if (sizes != p.out) return Bad(spec, "sizes " + DimsStr(sizes) + " differ from Y " + DimsStr(p.out));
    for (size_t i = 0; i < r; ++i)
      scales[i] = p.in[i] == 0 ? 1.0 : static_cast<double>(p.out[i]) / static_cast<double>(p.in[i]);
  } else if (HasInput(spec, scales_in)) {
    const TensorInfo& s = spec.inputs[scales_in];
    GE_RETURN_IF_ERROR(CheckDtype(spec, s, "scales", {DataType::kFloat32}));
    if (!values) return p;
    const void* v = spec.ConstInput(scales_in);
    if (!v) return NotSupported(spec, "scales (input " + std::to_string(scales_in) + ") must be a constant");
    if (s.NumElements() != static_cast<int64_t>(r)) return Bad(spec, "scales must have one value per axis");
    for (size_t i = 0; i < r; ++i) {
      scales[i] = static_cast<const float*>(v)[i];
      if (!(scales[i] > 0)) return Bad(spec, "scales must be positive");
      if (static_cast<int64_t>(std::floor(scales[i] * static_cast<double>(p.in[i]))) != p.out[i])
        return Bad(spec, "Y " + DimsStr(p.out) + " does not match floor(X dims * scales)");
    }
  } else {
    return Bad(spec, "needs scales or sizes");
  }
  std::vector<double> roi(2 * r, 0.0);
  if (at.transform == "tf_crop_and_resize") {
    if (!HasInput(spec, 1)) return Bad(spec, "tf_crop_and_resize needs roi (input 1)");
    const TensorInfo& t = spec.inputs[1];
    GE_RETURN_IF_ERROR(CheckDtype(spec, t, "roi", {DataType::kFloat32}));
    const void* v = spec.ConstInput(1);
    if (!v) return NotSupported(spec, "roi (input 1) must be a constant");
    if (t.NumElements() != static_cast<int64_t>(2 * r)) return Bad(spec, "roi must have two values per axis");
    for (size_t i = 0; i < 2 * r; ++i) roi[i] = static_cast<const float*>(v)[i];
  }
  for (size_t i = r; i-- > 0;) {
    if (p.in[i] == 0 || p.out[i] == 0) continue;  // nothing to interpolate (an empty output is skipped in Run)
    AxisPass pass = MakePass(at, static_cast<int>(i), p.in[i], p.out[i], scales[i], roi[i], roi[i + r], v10);
    if (!IsIdentity(pass)) p.passes.push_back(std::move(pass));
  }
  return p;
}

// One axis: x as [outer, in, inner] -> y as [outer, out, inner].
void RunPass(const AxisPass& p, float extrapolation, int64_t outer, int64_t inner, const float* x, float* y) {
  const int taps = p.taps;
  auto rows = [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t a = r / p.out, o = r % p.out;
      float* dst = y + r * inner;
      if (p.extrap[static_cast<size_t>(o)]) {
        std::fill(dst, dst + inner, extrapolation);
        continue;
      }
      const int64_t* idx = &p.idx[static_cast<size_t>(o * taps)];
      const float* w = &p.w[static_cast<size_t>(o * taps)];
      const float* src = x + a * p.in * inner;
      if (taps == 1) {
        std::memcpy(dst, src + idx[0] * inner, static_cast<size_t>(inner) * sizeof(float));
        continue;
      }
      for (int64_t j = 0; j < inner; ++j) dst[j] = w[0] * src[idx[0] * inner + j];
      for (int k = 1; k < taps; ++k) {
        const float wk = w[k];
        const float* s = src + idx[k] * inner;
        for (int64_t j = 0; j < inner; ++j) dst[j] += wk * s[j];
      }
    }
  };
  const int64_t n = outer * p.out;
  if (n * inner >= kParallelMin && n > 1) {
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < n; ++r) rows(r, r + 1);
  } else {
    rows(0, n);
  }
}

Result<KernelPtr> CreateResize(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(ResizePlan p, PlanResize(spec));
  // Intermediate sizes after each pass but the last, for two ping-pong buffers.
  Dims cur = p.in;
  int64_t scratch = 0;
  for (size_t k = 0; k + 1 < p.passes.size(); ++k) {
    cur[p.passes[k].axis] = p.passes[k].out;
    scratch = std::max(scratch, Product(cur, 0, cur.size()));
  }
  const int64_t total = Product(p.out, 0, p.out.size());
  return MakeKernel([p = std::move(p), buf = std::vector<float>(static_cast<size_t>(2 * scratch)), scratch,
                     total](const void* const* in, void* const* out) mutable {
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    if (total == 0) return Status::Ok();
    if (p.passes.empty()) {
      std::memcpy(y, x, static_cast<size_t>(total) * sizeof(float));
      return Status::Ok();
    }
    Dims cur = p.in;
    const float* src = x;
    for (size_t k = 0; k < p.passes.size(); ++k) {
      const AxisPass& pass = p.passes[k];
      const bool last = k + 1 == p.passes.size();
      float* dst = last ? y : buf.data() + (k % 2) * scratch;
      const size_t ax = static_cast<size_t>(pass.axis);
      RunPass(pass, p.at.extrapolation, Product(cur, 0, ax), Product(cur, ax + 1, cur.size()), src, dst);
      cur[ax] = pass.out;
      src = dst;
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterResizeKernels(KernelRegistry& r) {
  r.Register("Resize", [](const KernelSpec& spec) { return PlanResize(spec).status(); }, CreateResize);
}

}  // namespace ge::hal
