// Unique (ONNX opset 11) as numpy.unique computes it: the distinct elements
// of the flattened input, or with `axis` the distinct slices along it,
// compared lexicographically; ascending (sorted=1) or in the order they
// first occur (sorted=0). Outputs: Y, then (each optional) indices of the
// first occurrences, inverse_indices (each input element's or slice's
// position in Y) and counts. NaNs sort last and equal each other.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "cpu_kernels.h"
#include "kernels/computed_kernel.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

struct UniquePlan {
  AxisPick a;  // n elements or slices, the distinct ones counted at a.axis of Y
  size_t outputs = 1;
  size_t elem = 0;
  bool sorted = true;
};

struct Distinct {
  OutputShapes dims;
  std::vector<int64_t> first, inverse, counts;  // first and counts in Y's order
};

Result<UniquePlan> PlanUnique(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 4, /*computed_outputs=*/true));
  const TensorInfo& x = spec.inputs[0];
  if (x.dtype == DataType::kFloat16 || x.dtype == DataType::kBFloat16)
    return NotSupported(spec, std::string("input dtype ") + DataTypeName(x.dtype) + " is not supported");
  UniquePlan p;
  GE_ASSIGN_OR_RETURN(p.a, PlanAxisPick(spec, x));
  p.outputs = spec.outputs.size();
  p.elem = DataTypeSize(x.dtype);
  p.sorted = spec.attrs.GetInt("sorted", 1) != 0;
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "Y must have the input's dtype");
  GE_RETURN_IF_ERROR(CheckComputedDims(spec, 0, p.a.dims));
  const std::vector<std::vector<int64_t>> index_dims = {{-1}, {p.a.n}, {-1}};
  for (size_t j = 1; j < p.outputs; ++j) {
    if (spec.outputs[j].dtype != DataType::kInt64) return Bad(spec, "output " + std::to_string(j) + " must be int64");
    GE_RETURN_IF_ERROR(CheckComputedDims(spec, j, index_dims[j - 1]));
  }
  return p;
}

template <typename T>
bool Less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <typename T>
bool Same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) && std::isnan(b)) return true;
  }
  return a == b;
}

template <typename T>
Result<Distinct> FindDistinct(const UniquePlan& p, const void* in) {
  const T* x = static_cast<const T*>(in);
  // -1, 0, 1: slice a against slice b, element by element in row-major order.
  auto compare = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < p.a.outer; ++o)
      for (int64_t i = 0; i < p.a.inner; ++i) {
        const T va = x[(o * p.a.n + a) * p.a.inner + i], vb = x[(o * p.a.n + b) * p.a.inner + i];
        if (!Same(va, vb)) return Less(va, vb) ? -1 : 1;
      }
    return 0;
  };
  const size_t n = static_cast<size_t>(p.a.n);
  // A stable sort: each run of equal ones starts with its first occurrence.
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  std::vector<int64_t> group_of(n), first, counts;
  for (size_t k = 0; k < n; ++k) {
    if (k == 0 || compare(order[k - 1], order[k]) != 0) {
      first.push_back(order[k]);
      counts.push_back(0);
    }
    group_of[static_cast<size_t>(order[k])] = static_cast<int64_t>(first.size()) - 1;
    ++counts.back();
  }
  // Y's order: the sorted one, or by first occurrence.
  std::vector<int64_t> perm(first.size());
  std::iota(perm.begin(), perm.end(), int64_t{0});
  if (!p.sorted) std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
  std::vector<int64_t> position(first.size());
  Distinct d;
  for (size_t u = 0; u < perm.size(); ++u) {
    position[static_cast<size_t>(perm[u])] = static_cast<int64_t>(u);
    d.first.push_back(first[static_cast<size_t>(perm[u])]);
    d.counts.push_back(counts[static_cast<size_t>(perm[u])]);
  }
  d.inverse.resize(n);
  for (size_t k = 0; k < n; ++k) d.inverse[k] = position[static_cast<size_t>(group_of[k])];
  const int64_t unique = static_cast<int64_t>(d.first.size());
  std::vector<int64_t> y = p.a.dims;
  y[p.a.axis] = unique;
  d.dims = {y, {unique}, {p.a.n}, {unique}};
  d.dims.resize(p.outputs);
  return d;
}

void WriteDistinct(const UniquePlan& p, const Distinct& d, const void* in, void* const* out) {
  const uint8_t* x = static_cast<const uint8_t*>(in);
  uint8_t* y = static_cast<uint8_t*>(out[0]);
  const int64_t unique = static_cast<int64_t>(d.first.size());
  const size_t slice = static_cast<size_t>(p.a.inner) * p.elem;
  for (int64_t o = 0; o < p.a.outer; ++o)
    for (int64_t u = 0; u < unique; ++u)
      std::memcpy(y + static_cast<size_t>(o * unique + u) * slice,
                  x + static_cast<size_t>(o * p.a.n + d.first[static_cast<size_t>(u)]) * slice, slice);
  const std::vector<int64_t>* rest[] = {&d.first, &d.inverse, &d.counts};
  for (size_t j = 1; j < p.outputs; ++j)
    if (!rest[j - 1]->empty()) std::memcpy(out[j], rest[j - 1]->data(), rest[j - 1]->size() * sizeof(int64_t));
}

Result<KernelPtr> CreateUnique(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(UniquePlan p, PlanUnique(spec));
  Result<KernelPtr> k = NotSupported(spec, std::string("input dtype ") + DataTypeName(spec.inputs[0].dtype) +
                                               " is not supported");
  DispatchNumeric(spec.inputs[0].dtype, [&]<typename T>() {
    k = MakeComputedKernel<Distinct>(
        spec, [p](const void* const* in) { return FindDistinct<T>(p, in[0]); },
        [p](const Distinct& d, const void* const* in, void* const* out) { WriteDistinct(p, d, in[0], out); });
  });
  return k;
}

}  // namespace

void RegisterUniqueKernels(KernelRegistry& r) {
  r.Register("Unique", [](const KernelSpec& s) { return PlanUnique(s).status(); }, CreateUnique);
}

}  // namespace ge::hal
