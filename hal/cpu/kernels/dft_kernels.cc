// DFT and STFT (opset 17) by the definition, in double: X[k] = sum_t x[t]
// e^(-2 pi i k t / L) (inverse: e^(+...) / L) over L = dft_length points (the
// signal zero-padded or cut), k below L or L/2 + 1 (onesided). Signals end
// in a dim of 1 (real) or 2 (re, im); outputs in 2. STFT takes frames of
// frame_length every frame_step samples, each times the window if given.
// O(L^2) per line: correct first; the ONNX tests' lengths are small.
#include <cmath>
#include <numbers>
#include <optional>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using Dims = std::vector<int64_t>;

// The transform of one line: n samples at `in` (stride in elements, c = 1 or
// 2 values each, scaled by w[t] if w), onto `bins` outputs (re, im) at `out`
// (stride out_stride).
template <typename T>
class LineDft {
 public:
  LineDft(int64_t length, int64_t bins, bool inverse) : l_(length), bins_(bins), inverse_(inverse) {
    cos_.resize(static_cast<size_t>(l_));
    sin_.resize(static_cast<size_t>(l_));
    for (int64_t j = 0; j < l_; ++j) {
      const double a = 2 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(l_);
      cos_[j] = std::cos(a);
      sin_[j] = (inverse ? 1 : -1) * std::sin(a);
    }
  }

  int64_t length() const { return l_; }

  void Run(const T* in, int64_t n, int64_t stride, int c, const T* w, T* out, int64_t out_stride) const {
    const int64_t used = std::min(n, l_);
    for (int64_t k = 0; k < bins_; ++k) {
      double re = 0, im = 0;
      for (int64_t t = 0; t < used; ++t) {
        const double s = w ? static_cast<double>(w[t]) : 1.0;
        const double xr = static_cast<double>(in[t * stride]) * s;
        const double xi = c == 2 ? static_cast<double>(in[t * stride + 1]) * s : 0.0;
        const int64_t j = (k * t) % l_;
        re += xr * cos_[j] - xi * sin_[j];
        im += xr * sin_[j] + xi * cos_[j];
      }
      const double scale = inverse_ ? 1.0 / static_cast<double>(l_) : 1.0;
      out[k * out_stride] = static_cast<T>(re * scale);
      out[k * out_stride + 1] = static_cast<T>(im * scale);
    }
  }

 private:
  int64_t l_, bins_;
  bool inverse_;
  std::vector<double> cos_, sin_;
};

Status CheckSignal(const KernelSpec& spec, const TensorInfo& x) {
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", {DataType::kFloat32, DataType::kFloat64}));
  if (x.dims.size() < 2 || (x.dims.back() != 1 && x.dims.back() != 2))
    return Bad(spec, "input " + DimsStr(x.dims) + " must end in a dim of 1 (real) or 2 (complex)");
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be the input's");
  return Status::Ok();
}

// ---- DFT

struct DftPlan {
  Dims x_dims;
  int64_t axis = 1, length = 0, bins = 0;
  bool inverse = false;
  bool has_length = false;  // input 1 (the input array may be shorter)
};

Result<DftPlan> PlanDft(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 2, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckSignal(spec, x));
  const int64_t r = static_cast<int64_t>(x.dims.size());
  const int64_t axis = spec.attrs.GetInt("axis", 1), a = axis < 0 ? axis + r : axis;
  if (a < 0 || a > r - 2) return Bad(spec, "axis " + std::to_string(axis) + " is out of range for " + DimsStr(x.dims));
  DftPlan p{x.dims, a, x.dims[a], 0, spec.attrs.GetInt("inverse", 0) != 0};
  const bool onesided = spec.attrs.GetInt("onesided", 0) != 0;
  if (onesided && p.inverse) return NotSupported(spec, "onesided with inverse");
  const Dims& out = spec.outputs[0].dims;
  if (out.size() != x.dims.size()) return Bad(spec, "output rank must be the input's");
  p.bins = out[a];
  p.has_length = HasInput(spec, 1);
  if (p.has_length) {
    if (!IsIndexType(spec.inputs[1].dtype) || spec.inputs[1].NumElements() != 1)
      return Bad(spec, "dft_length must be one int32 or int64");
    // The output's size on the axis says the length (onesided: one of two).
    p.length = onesided ? -1 : p.bins;
  } else {
    p.length = x.dims[a];
  }
  if (p.length > 0) {
    Dims want = x.dims;
    want.back() = 2;
    want[a] = onesided ? p.length / 2 + 1 : p.length;
    GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  }
  return p;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeDft(DftPlan p, DataType len_type, std::string where) {
  return MakeKernel([p, len_type, where, dft = std::optional<LineDft<T>>()](const void* const* in,
                                                                            void* const* out) mutable -> Status {
    int64_t length = p.length;
    if (p.has_length) {
      length = ReadInts(in[1], len_type, 1)[0];
      const int64_t bins = p.length < 0 ? length / 2 + 1 : length;
      if (length < 1 || bins != p.bins)
        return InvalidArgument(where + ": dft_length " + std::to_string(length) + " does not match the output");
    }
    if (!dft || dft->length() != length) dft.emplace(length, p.bins, p.inverse);  // tables for this length
    const int64_t r = static_cast<int64_t>(p.x_dims.size());
    const int c = static_cast<int>(p.x_dims.back());
    const int64_t outer = Product(p.x_dims, 0, static_cast<size_t>(p.axis));
    const int64_t inner = Product(p.x_dims, static_cast<size_t>(p.axis) + 1, static_cast<size_t>(r - 1));
    const int64_t n = p.x_dims[p.axis];
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        dft->Run(x + (o * n * inner + i) * c, n, inner * c, c, nullptr, y + (o * p.bins * inner + i) * 2, inner * 2);
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateDft(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(DftPlan p, PlanDft(spec));
  const DataType lt = HasInput(spec, 1) ? spec.inputs[1].dtype : DataType::kInt64;
  if (spec.inputs[0].dtype == DataType::kFloat64) return MakeDft<double>(p, lt, Where(spec));
  return MakeDft<float>(p, lt, Where(spec));
}

// ---- STFT: signal [batch, length, c], frame_step, window, frame_length.

struct StftPlan {
  int64_t batch = 0, signal = 0, frames = 0, bins = 0, length = -1;  // length -1: read frame_length per call
  int c = 1;
  bool onesided = true;
  bool has_window = false, has_length = false;  // inputs 2 and 3 (the arrays may be shorter)
};

Result<StftPlan> PlanStft(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 4, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckSignal(spec, x));
  if (x.dims.size() != 3) return Bad(spec, "signal must be [batch, length, 1 or 2]");
  if (!IsIndexType(spec.inputs[1].dtype) || spec.inputs[1].NumElements() != 1)
    return Bad(spec, "frame_step must be one int32 or int64");
  if (HasInput(spec, 3) && (!IsIndexType(spec.inputs[3].dtype) || spec.inputs[3].NumElements() != 1))
    return Bad(spec, "frame_length must be one int32 or int64");
  StftPlan p{x.dims[0], x.dims[1], 0, 0, -1, static_cast<int>(x.dims[2]), spec.attrs.GetInt("onesided", 1) != 0};
  p.has_window = HasInput(spec, 2), p.has_length = HasInput(spec, 3);
  if (p.has_window) {
    const TensorInfo& w = spec.inputs[2];
    if (w.dtype != x.dtype || w.dims.size() != 1) return Bad(spec, "window must be 1-D of the signal's dtype");
    p.length = w.dims[0];
  } else if (!HasInput(spec, 3)) {
    return Bad(spec, "needs a window or a frame_length");
  }
  const Dims& out = spec.outputs[0].dims;
  if (out.size() != 4 || out[0] != p.batch || out[3] != 2) return Bad(spec, "output must be [batch, frames, bins, 2]");
  p.frames = out[1], p.bins = out[2];
  return p;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeStft(StftPlan p, DataType step_type, DataType len_type, std::string where) {
  return MakeKernel([p, step_type, len_type, where, dft = std::optional<LineDft<T>>()](
                        const void* const* in, void* const* out) mutable -> Status {
    const int64_t step = ReadInts(in[1], step_type, 1)[0];
    int64_t length = p.length;
    if (p.has_length) {
      const int64_t given = ReadInts(in[3], len_type, 1)[0];
      if (length >= 0 && given != length)
        return InvalidArgument(where + ": frame_length " + std::to_string(given) + " differs from the window's");
      length = given;
    }
    const int64_t bins = p.onesided ? length / 2 + 1 : length;
    if (step < 1 || length < 1 || length > p.signal || (p.signal - length) / step + 1 != p.frames || bins != p.bins)
      return InvalidArgument(where + ": frame_step " + std::to_string(step) + " and frame_length " +
                             std::to_string(length) + " do not match the output");
    if (!dft || dft->length() != length) dft.emplace(length, bins, false);  // tables for this length
    const T* x = static_cast<const T*>(in[0]);
    const T* w = p.has_window ? static_cast<const T*>(in[2]) : nullptr;
    T* y = static_cast<T*>(out[0]);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t f = 0; f < p.frames; ++f)
        dft->Run(x + (b * p.signal + f * step) * p.c, length, p.c, p.c, w, y + ((b * p.frames + f) * bins) * 2, 2);
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateStft(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(StftPlan p, PlanStft(spec));
  const DataType st = spec.inputs[1].dtype, lt = HasInput(spec, 3) ? spec.inputs[3].dtype : DataType::kInt64;
  if (spec.inputs[0].dtype == DataType::kFloat64) return MakeStft<double>(p, st, lt, Where(spec));
  return MakeStft<float>(p, st, lt, Where(spec));
}

}  // namespace

void RegisterDftKernels(KernelRegistry& r) {
  r.Register(
      "DFT", [](const KernelSpec& s) { return PlanDft(s).status(); }, CreateDft);
  r.Register(
      "STFT", [](const KernelSpec& s) { return PlanStft(s).status(); }, CreateStft);
}

}  // namespace ge::hal
