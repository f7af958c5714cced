// Sum: ONNX's variadic elementwise sum with numpy broadcasting (TF's AddN
// maps to it). The output is the first input broadcast, then each further
// input is added into it, one broadcast plan per input made at Create; so
// the output must not share memory with an input (the op is not in-place).
// Integer sums wrap (computed unsigned), as Add does.
#include <type_traits>

#include "cpu_kernels.h"
#include "kernels/loop_broadcast.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

template <typename T>
T AddWrapping(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// y (+)= x along one row; VX says whether x advances (else x[0] throughout).
template <bool kAccumulate, bool VX, typename T>
inline void SumRow(const T* x, T* y, int64_t n) {
  const T x0 = x[0];
  for (int64_t i = 0; i < n; ++i) {
    const T v = VX ? x[i] : x0;
    y[i] = kAccumulate ? AddWrapping(y[i], v) : v;
  }
}

template <bool kAccumulate, typename T>
void SumInto(const RowPlan<1>& p, const T* x, T* y) {
  if (p.contiguous[0]) {
    ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
      SumRow<kAccumulate, true>(x + off[0], y + o, n);
    });
  } else {
    ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
      SumRow<kAccumulate, false>(x + off[0], y + o, n);
    });
  }
}

template <typename T>
Result<KernelPtr> MakeSum(const KernelSpec& spec) {
  std::vector<RowPlan<1>> plans;
  for (const TensorInfo& t : spec.inputs) plans.push_back(PlanBroadcast<1>({&t.dims}, spec.outputs[0].dims));
  return MakeKernel([plans](const void* const* in, void* const* out) {
    T* y = static_cast<T*>(out[0]);
    SumInto<false>(plans[0], static_cast<const T*>(in[0]), y);
    for (size_t k = 1; k < plans.size(); ++k) SumInto<true>(plans[k], static_cast<const T*>(in[k]), y);
    return Status::Ok();
  });
}

Status PlanSum(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, SIZE_MAX, 1, 1));
  const DataType t = spec.inputs[0].dtype;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    if (!spec.inputs[i].present()) return Bad(spec, "input " + std::to_string(i) + " is required");
    GE_RETURN_IF_ERROR(CheckDtype(spec, spec.inputs[i], "input", {D::kFloat32, D::kInt64, D::kInt32}));
    if (spec.inputs[i].dtype != t)
      return Bad(spec, "input " + std::to_string(i) + " has dtype " + DataTypeName(spec.inputs[i].dtype) +
                           ", input 0 has " + DataTypeName(t));
  }
  if (spec.outputs[0].dtype != t)
    return Bad(spec,
               std::string("output dtype is ") + DataTypeName(spec.outputs[0].dtype) + ", expected " + DataTypeName(t));
  std::vector<const std::vector<int64_t>*> shapes;
  for (const TensorInfo& i : spec.inputs) shapes.push_back(&i.dims);
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShape(spec, shapes));
  return CheckOutputDims(spec, 0, dims);
}

Result<KernelPtr> CreateSum(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(PlanSum(spec));
  switch (spec.inputs[0].dtype) {
    case D::kInt64:
      return MakeSum<int64_t>(spec);
    case D::kInt32:
      return MakeSum<int32_t>(spec);
    default:
      return MakeSum<float>(spec);
  }
}

}  // namespace

void RegisterSumKernels(KernelRegistry& r) {
  r.Register("Sum", PlanSum, CreateSum, LayoutSupport::kElementwise);  // same-shaped blocked operands: one flat loop
}

}  // namespace ge::hal
