// Det: the determinant of each M x M matrix of [..., M, M], by Gaussian
// elimination with partial pivoting in double (float32 or float64 out).
#include <cmath>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

Status CheckDet(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", {DataType::kFloat32, DataType::kFloat64}));
  const size_t r = x.dims.size();
  if (r < 2 || x.dims[r - 1] != x.dims[r - 2]) return Bad(spec, "input " + DimsStr(x.dims) + " must be [..., M, M]");
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be the input's");
  return CheckOutputDims(spec, 0, std::vector<int64_t>(x.dims.begin(), x.dims.end() - 2));
}

double Determinant(double* a, int64_t m) {
  double det = 1;
  for (int64_t k = 0; k < m; ++k) {
    int64_t piv = k;
    for (int64_t i = k + 1; i < m; ++i)
      if (std::abs(a[i * m + k]) > std::abs(a[piv * m + k])) piv = i;
    if (a[piv * m + k] == 0) return 0;
    if (piv != k) {
      for (int64_t j = 0; j < m; ++j) std::swap(a[k * m + j], a[piv * m + j]);
      det = -det;
    }
    det *= a[k * m + k];
    for (int64_t i = k + 1; i < m; ++i) {
      const double f = a[i * m + k] / a[k * m + k];
      for (int64_t j = k + 1; j < m; ++j) a[i * m + j] -= f * a[k * m + j];
    }
  }
  return det;
}

template <typename T>
Result<std::unique_ptr<Kernel>> MakeDet(int64_t batches, int64_t m) {
  return MakeKernel([batches, m, a = std::vector<double>(static_cast<size_t>(m * m))](const void* const* in,
                                                                                      void* const* out) mutable {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    for (int64_t b = 0; b < batches; ++b) {
      std::copy_n(x + b * m * m, m * m, a.begin());
      y[b] = static_cast<T>(Determinant(a.data(), m));
    }
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateDet(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckDet(spec));
  const auto& d = spec.inputs[0].dims;
  const int64_t m = d.back(), batches = Product(d, 0, d.size() - 2);
  if (spec.inputs[0].dtype == DataType::kFloat64) return MakeDet<double>(batches, m);
  return MakeDet<float>(batches, m);
}

}  // namespace

void RegisterDetKernels(KernelRegistry& r) { r.Register("Det", CheckDet, CreateDet); }

}  // namespace ge::hal
