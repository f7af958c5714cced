// LRN and MeanVarianceNormalization on f32, plain loops (accumulating in
// double):
//   LRN: y = x / (bias + alpha/size * sum of x^2 over channels
//        [c - floor((size-1)/2), c + ceil((size-1)/2)])^beta, as ONNX writes
//        it (oneDNN centres an even window differently);
//   MVN: y = (x - mean) / (sqrt(E[x^2] - mean^2) + 1e-9) over `axes`, ONNX's
//        function body in one pass for the statistics and one for y.
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

Status CheckF32Like(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[0], "input", {DataType::kFloat32}));
  GE_RETURN_IF_ERROR(CheckDtype(spec, spec.outputs[0], "output", {DataType::kFloat32}));
  return CheckOutputDims(spec, 0, spec.inputs[0].dims);
}

// ---- LRN over [N, C, spatial...].

Status CheckLrn(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckF32Like(spec));
  if (spec.inputs[0].dims.size() < 3) return Bad(spec, "input must be N x C x spatial...");
  if (spec.attrs.GetInt("size", 0) < 1) return Bad(spec, "attribute size must be positive");
  return Status::Ok();
}

Result<KernelPtr> CreateLrn(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckLrn(spec));
  const auto& d = spec.inputs[0].dims;
  const int64_t n = d[0], c = d[1], inner = Product(d, 2, d.size()), size = spec.attrs.GetInt("size", 1);
  const double alpha = spec.attrs.GetFloat("alpha", 1e-4f), beta = spec.attrs.GetFloat("beta", 0.75f),
               bias = spec.attrs.GetFloat("bias", 1.0f);
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  return MakeKernel([=](const void* const* in, void* const* out) {
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t i = 0; i < inner; ++i) {
          double sum = 0;
          for (int64_t k = std::max<int64_t>(0, ch - before); k <= std::min(c - 1, ch + after); ++k) {
            const double v = x[(b * c + k) * inner + i];
            sum += v * v;
          }
          const int64_t at = (b * c + ch) * inner + i;
          y[at] = static_cast<float>(x[at] / std::pow(bias + alpha / static_cast<double>(size) * sum, beta));
        }
    return Status::Ok();
  });
}

// ---- MeanVarianceNormalization: statistics per position of the kept axes.

Result<std::vector<int64_t>> MvnAxes(const KernelSpec& spec) {
  const int64_t rank = static_cast<int64_t>(spec.inputs[0].dims.size());
  std::vector<int64_t> axes = spec.attrs.GetInts("axes", {0, 2, 3});
  for (int64_t& a : axes) {
    GE_ASSIGN_OR_RETURN(a, NormalizeAxis(spec, a, rank, "axes"));
  }
  return axes;
}

Status CheckMvn(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckF32Like(spec));
  return MvnAxes(spec).status();
}

Result<KernelPtr> CreateMvn(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckF32Like(spec));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> axes, MvnAxes(spec));
  const std::vector<int64_t>& dims = spec.inputs[0].dims;
  // group[i]: which statistics element i belongs to (its kept coordinates).
  const int64_t total = spec.inputs[0].NumElements();
  std::vector<bool> reduced(dims.size(), false);
  for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
  std::vector<int64_t> group(static_cast<size_t>(total));
  int64_t groups = 1;
  {
    std::vector<int64_t> kept_stride(dims.size(), 0);
    for (size_t i = dims.size(); i-- > 0;)
      if (!reduced[i]) {
        kept_stride[i] = groups;
        groups *= dims[i];
      }
    const std::vector<int64_t> stride = Strides(dims);
    for (int64_t e = 0; e < total; ++e) {
      int64_t g = 0;
      for (size_t i = 0; i < dims.size(); ++i) g += (e / stride[i] % dims[i]) * kept_stride[i];
      group[static_cast<size_t>(e)] = g;
    }
  }
  const double count = groups > 0 ? static_cast<double>(total) / static_cast<double>(groups) : 1.0;
  std::vector<double> sum_buf(static_cast<size_t>(groups)), sq_buf(static_cast<size_t>(groups));
  return MakeKernel([=, sum = std::move(sum_buf), sq = std::move(sq_buf)](const void* const* in,
                                                                           void* const* out) mutable {
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(sq.begin(), sq.end(), 0.0);
    for (int64_t e = 0; e < total; ++e) {
      sum[group[e]] += x[e];
      sq[group[e]] += static_cast<double>(x[e]) * x[e];
    }
    for (int64_t g = 0; g < groups; ++g) {
      const double mean = sum[g] / count;
      sum[g] = mean;
      sq[g] = std::sqrt(std::max(0.0, sq[g] / count - mean * mean)) + 1e-9;
    }
    for (int64_t e = 0; e < total; ++e) y[e] = static_cast<float>((x[e] - sum[group[e]]) / sq[group[e]]);
    return Status::Ok();
  });
}

}  // namespace

void RegisterLocalNormKernels(KernelRegistry& r) {
  r.Register("LRN", CheckLrn, CreateLrn);
  r.Register("MeanVarianceNormalization", CheckMvn, CreateMvn);
}

}  // namespace ge::hal
