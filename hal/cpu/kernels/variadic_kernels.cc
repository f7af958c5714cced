// ONNX's variadic elementwise ops with numpy broadcasting: Sum (TF's AddN
// maps to it), Mean, Max and Min, over one or more inputs. The output is the
// first input broadcast, then each further input is combined into it, one
// broadcast plan per input made at Create; Mean divides at the end. Only
// Max and Min may run over input 0's memory (ops_binary.cc says why).
// Integer sums wrap (computed unsigned), as Add does; Max and Min propagate
// NaN, as numpy does.
#include <type_traits>

#include "cpu_kernels.h"
#include "kernels/loop_broadcast.h"
#include "kernels/loop_convert.h"
#include "kernels/loop_half.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

struct SumOp {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};
struct MaxOp {
  template <typename T>
  T operator()(T a, T b) const {
    return (a < b || b != b) ? b : a;
  }
};
struct MinOp {
  template <typename T>
  T operator()(T a, T b) const {
    return (b < a || b != b) ? b : a;
  }
};

// y = x, or y = op(y, x), along one row; VX says whether x advances (else
// x[0] throughout). Rows are plain functions behind a pointer so that the
// broadcast odometer exists once, not once per op and dtype.
template <typename Op, bool kCombine, bool VX, typename T>
void CombineRow(const void* px, void* py, int64_t n) {
  const T* x = static_cast<const T*>(px);
  T* y = static_cast<T*>(py);
  const T x0 = x[0];
  for (int64_t i = 0; i < n; ++i) {
    const T v = VX ? x[i] : x0;
    y[i] = kCombine ? Op{}(y[i], v) : v;
  }
}

using CombineRowFn = void (*)(const void*, void*, int64_t);

void CombineInto(const RowPlan<1>& p, CombineRowFn row, size_t size, const void* x, void* y) {
  const char* xc = static_cast<const char*>(x);
  char* yc = static_cast<char*>(y);
  ForEachRow(p, [&](const std::array<int64_t, 1>& off, int64_t o, int64_t n) {
    row(xc + off[0] * size, yc + o * size, n);
  });
}

template <typename Op, typename T>
Result<KernelPtr> MakeVariadic(const KernelSpec& spec, bool mean) {
  std::vector<RowPlan<1>> plans;
  std::vector<CombineRowFn> rows;
  for (const TensorInfo& t : spec.inputs) {
    plans.push_back(PlanBroadcast<1>({&t.dims}, spec.outputs[0].dims));
    const bool v = plans.back().contiguous[0];
    if (rows.empty()) rows.push_back(v ? CombineRow<Op, false, true, T> : CombineRow<Op, false, false, T>);
    else rows.push_back(v ? CombineRow<Op, true, true, T> : CombineRow<Op, true, false, T>);
  }
  const int64_t n = spec.outputs[0].NumElements();
  return MakeKernel([plans, rows, mean, n](const void* const* in, void* const* out) {
    T* y = static_cast<T*>(out[0]);
    for (size_t k = 0; k < plans.size(); ++k) CombineInto(plans[k], rows[k], sizeof(T), in[k], y);
    if constexpr (std::is_floating_point_v<T>) {
      if (mean) {
        const T inv = T(1) / static_cast<T>(plans.size());
        for (int64_t i = 0; i < n; ++i) y[i] *= inv;
      }
    }
    return Status::Ok();
  });
}

// Sum and Mean: float, plus the integers TF's AddN uses for Sum; Max and
// Min: every numeric type and f16 (they pick an operand, so f32 compares
// give the f16 answer).
std::vector<DataType> DtypesOf(const std::string& op) {
  if (op == "Mean") return {D::kFloat32, D::kFloat64};
  if (op == "Sum") return {D::kFloat32, D::kFloat64, D::kInt64, D::kInt32};
  return {D::kFloat32, D::kFloat64, D::kFloat16, D::kInt8,   D::kInt16,
          D::kInt32,   D::kInt64,   D::kUInt8,   D::kUInt16, D::kUInt32, D::kUInt64};
}

Status PlanVariadic(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, SIZE_MAX, 1, 1));
  const DataType t = spec.inputs[0].dtype;
  const std::vector<DataType> dtypes = DtypesOf(spec.op);
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    if (!spec.inputs[i].present()) return Bad(spec, "input " + std::to_string(i) + " is required");
    if (std::find(dtypes.begin(), dtypes.end(), spec.inputs[i].dtype) == dtypes.end()) {
      std::string names;
      for (DataType d : dtypes) names += (names.empty() ? "" : ", ") + std::string(DataTypeName(d));
      return NotSupported(spec, std::string("dtype ") + DataTypeName(spec.inputs[i].dtype) + " is not supported (" +
                                    names + ")");
    }
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

template <typename Op>
Result<KernelPtr> Dispatch(const KernelSpec& spec, bool mean) {
  if (spec.inputs[0].dtype == D::kFloat16) return MakeVariadic<OnHalf<Op>, uint16_t>(spec, false);
  Result<KernelPtr> k = Internal("unreachable");
  DispatchNumeric(spec.inputs[0].dtype, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) k = MakeVariadic<Op, T>(spec, mean);
  });
  return k;
}

Result<KernelPtr> CreateVariadic(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(PlanVariadic(spec));
  if (spec.op == "Max") return Dispatch<MaxOp>(spec, false);
  if (spec.op == "Min") return Dispatch<MinOp>(spec, false);
  return Dispatch<SumOp>(spec, spec.op == "Mean");
}

}  // namespace

void RegisterVariadicKernels(KernelRegistry& r) {
  // Same-shaped blocked operands: one flat loop.
  for (const char* op : {"Sum", "Mean", "Max", "Min"})
    r.Register(op, PlanVariadic, CreateVariadic, LayoutSupport::kElementwise);
}

}  // namespace ge::hal
