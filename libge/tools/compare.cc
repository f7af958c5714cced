#include "ge/tools/compare.h"

#include <cmath>
#include <cstring>

#include "ge/ir/tensor.h"

namespace ge {

CompareResult CompareTensors(const TensorDesc& desc, const void* data, const NpyArray& golden,
                             std::optional<double> min_cosine) {
  CompareResult r;
  if (desc.dims != golden.desc.dims) {
    r.reason = "shape " + DimsToString(desc.dims) + " differs from the golden " + DimsToString(golden.desc.dims);
    return r;
  }
  const int64_t n = desc.NumElements();
  Tensor y(desc, data, static_cast<size_t>(desc.Bytes()));
  Tensor ref(golden.desc, golden.bytes.data(), golden.bytes.size());
  std::vector<double> a = y.ToDouble(), b = ref.ToDouble();
  double dot = 0, na = 0, nb = 0;
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(a[i])) finite = false;
    r.max_abs_diff = std::max(r.max_abs_diff, std::abs(a[i] - b[i]));
    r.max_abs_ref = std::max(r.max_abs_ref, std::abs(b[i]));
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na == 0 && nb == 0) r.cosine = 1;
  else if (na == 0 || nb == 0) r.cosine = 0;
  else r.cosine = dot / (std::sqrt(na) * std::sqrt(nb));
  const bool exact = !IsFloatingPoint(desc.dtype) || !IsFloatingPoint(golden.desc.dtype);
  const double tol = exact ? 0 : kCompareRelTol * r.max_abs_ref + kCompareAbsTol;
  if (!finite) r.reason = "output holds NaN or Inf";
  else if (min_cosine && !exact) {
    if (r.cosine < *min_cosine) r.reason = "cosine similarity below " + std::to_string(*min_cosine);
  } else if (r.max_abs_diff > tol) r.reason = "max abs diff above the tolerance " + std::to_string(tol);
  else if (!exact && r.cosine < kCompareMinCosine) r.reason = "cosine similarity below 0.99999";
  r.pass = r.reason.empty();
  return r;
}

}  // namespace ge
