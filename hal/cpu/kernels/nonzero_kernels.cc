// NonZero: int64 [rank, nnz], the coordinates of the non-zero elements in
// row-major order; a scalar reads as one element ([1, nnz]). Values compare
// with zero in their own type (-0 is zero, NaN is not); f16 and bf16 by
// their bits without the sign, which says the same.
#include "cpu_kernels.h"
#include "kernels/computed_kernel.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

struct NonZeroPlan {
  std::vector<int64_t> dims;  // the input's, a scalar as [1]
  int64_t n = 0;
};

Result<NonZeroPlan> PlanNonZero(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1, /*computed_outputs=*/true));
  const TensorInfo& x = spec.inputs[0];
  if (spec.outputs[0].dtype != DataType::kInt64) return Bad(spec, "output must be int64");
  NonZeroPlan p{x.dims.empty() ? std::vector<int64_t>{1} : x.dims, x.NumElements()};
  GE_RETURN_IF_ERROR(CheckComputedDims(spec, 0, {static_cast<int64_t>(p.dims.size()), -1}));
  return p;
}

// OutputDims counts; Run walks the input again and writes the coordinates.
template <typename T, typename Test>
Result<KernelPtr> MakeNonZero(const KernelSpec& spec, const NonZeroPlan& p, Test nonzero) {
  auto count = [p, nonzero](const void* const* in) -> Result<ShapesOnly> {
    const T* x = static_cast<const T*>(in[0]);
    int64_t nnz = 0;
    for (int64_t i = 0; i < p.n; ++i) nnz += nonzero(x[i]) ? 1 : 0;
    return ShapesOnly{{{static_cast<int64_t>(p.dims.size()), nnz}}};
  };
  auto write = [p, nonzero](const ShapesOnly& c, const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    int64_t* y = static_cast<int64_t*>(out[0]);
    const size_t rank = p.dims.size();
    const int64_t nnz = c.dims[0][1];
    std::vector<int64_t> at(rank, 0);  // the coordinates of element i
    for (int64_t i = 0, j = 0; i < p.n && j < nnz; ++i) {
      if (nonzero(x[i])) {
        for (size_t d = 0; d < rank; ++d) y[static_cast<int64_t>(d) * nnz + j] = at[d];
        ++j;
      }
      for (size_t d = rank; d-- > 0;) {
        if (++at[d] < p.dims[d]) break;
        at[d] = 0;
      }
    }
  };
  return MakeComputedKernel<ShapesOnly>(spec, std::move(count), std::move(write));
}

Result<KernelPtr> CreateNonZero(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(NonZeroPlan p, PlanNonZero(spec));
  const DataType t = spec.inputs[0].dtype;
  if (t == DataType::kFloat16 || t == DataType::kBFloat16)
    return MakeNonZero<uint16_t>(spec, p, [](uint16_t v) { return (v & 0x7fffu) != 0; });
  Result<KernelPtr> k = NotSupported(spec, std::string("input dtype ") + DataTypeName(t) + " is not supported");
  DispatchNumeric(t, [&]<typename T>() { k = MakeNonZero<T>(spec, p, [](T v) { return v != T(0); }); });
  return k;
}

}  // namespace

void RegisterNonZeroKernels(KernelRegistry& r) {
  r.Register("NonZero", [](const KernelSpec& s) { return PlanNonZero(s).status(); }, CreateNonZero);
}

}  // namespace ge::hal
