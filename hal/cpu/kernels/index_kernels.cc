// CumSum and TopK: each walks one axis of x viewed as [outer, n, inner].
// CumSum adds in double for floats (int64 for integers), with ONNX's
// exclusive and reverse. TopK keeps the k largest (or smallest) per row,
// ties broken by the lower index (ONNX and TF agree), sorted or not; k is
// the output's static size along the axis.
#include <algorithm>
#include <numeric>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

struct AxisPlan {
  int64_t outer = 1, n = 0, inner = 1;
};

AxisPlan PlanAxis(const std::vector<int64_t>& dims, int64_t axis) {
  return {Product(dims, 0, static_cast<size_t>(axis)), dims[static_cast<size_t>(axis)],
          Product(dims, static_cast<size_t>(axis) + 1, dims.size())};
}

// ---- CumSum: the axis is read at run time (a model input in ONNX's tests).

struct CumSumPlan {
  std::vector<int64_t> dims;
  DataType axis_type = D::kInt64;
  bool exclusive = false, reverse = false;
};

Result<CumSumPlan> PlanCumSum(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", {D::kFloat32, D::kFloat64, D::kInt32, D::kInt64}));
  if (spec.outputs[0].dtype != x.dtype || spec.outputs[0].dims != x.dims) return Bad(spec, "output must match the input");
  if (!IsIndexType(spec.inputs[1].dtype) || spec.inputs[1].NumElements() != 1)
    return Bad(spec, "axis (input 1) must be one i64 or i32 value");
  if (x.dims.empty()) return Bad(spec, "a scalar has no axis");
  if (const void* a = spec.ConstInput(1))
    GE_RETURN_IF_ERROR(NormalizeAxis(spec, ReadInts(a, spec.inputs[1].dtype, 1)[0], static_cast<int64_t>(x.dims.size()))
                           .status());
  return CumSumPlan{x.dims, spec.inputs[1].dtype, spec.attrs.GetInt("exclusive", 0) != 0,
                    spec.attrs.GetInt("reverse", 0) != 0};
}

template <typename T, typename Acc>
Result<KernelPtr> MakeCumSum(const CumSumPlan& p, std::string where) {
  return MakeKernel([p, where](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* y = static_cast<T*>(out[0]);
    const int64_t rank = static_cast<int64_t>(p.dims.size());
    int64_t axis = ReadInts(in[1], p.axis_type, 1)[0];
    if (axis < -rank || axis >= rank)
      return InvalidArgument(where + ": axis " + std::to_string(axis) + " is out of range for rank " +
                             std::to_string(rank));
    const AxisPlan a = PlanAxis(p.dims, axis < 0 ? axis + rank : axis);
    for (int64_t o = 0; o < a.outer; ++o)
      for (int64_t i = 0; i < a.inner; ++i) {
        const int64_t base = o * a.n * a.inner + i;
        Acc acc = 0;
        for (int64_t s = 0; s < a.n; ++s) {
          const int64_t at = base + (p.reverse ? a.n - 1 - s : s) * a.inner;
          const Acc v = static_cast<Acc>(x[at]);
          if (!p.exclusive) acc += v;
          y[at] = static_cast<T>(acc);
          if (p.exclusive) acc += v;
        }
      }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateCumSum(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(CumSumPlan p, PlanCumSum(spec));
  switch (spec.inputs[0].dtype) {
    case D::kFloat64: return MakeCumSum<double, double>(p, Where(spec));
    case D::kInt32: return MakeCumSum<int32_t, int64_t>(p, Where(spec));
    case D::kInt64: return MakeCumSum<int64_t, int64_t>(p, Where(spec));
    default: return MakeCumSum<float, double>(p, Where(spec));
  }
}

// ---- TopK

struct TopKPlan {
  AxisPlan a;
  int64_t k = 0;
  bool largest = true, sorted = true;
};

Result<TopKPlan> PlanTopK(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 2, 2));
  const TensorInfo& x = spec.inputs[0];
  GE_RETURN_IF_ERROR(CheckDtype(spec, x, "input", {D::kFloat32, D::kInt32, D::kInt64}));
  if (spec.outputs[0].dtype != x.dtype || spec.outputs[1].dtype != D::kInt64)
    return Bad(spec, "outputs must be the input's dtype and int64");
  if (!IsIndexType(spec.inputs[1].dtype) || spec.inputs[1].NumElements() != 1)
    return Bad(spec, "k (input 1) must be one i64 or i32 value");
  if (x.dims.empty()) return Bad(spec, "a scalar has no axis");
  GE_ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(spec, spec.attrs.GetInt("axis", -1), static_cast<int64_t>(x.dims.size())));
  // k is the output's size along the axis (static shapes); a constant k must agree.
  const std::vector<int64_t>& out = spec.outputs[0].dims;
  if (out.size() != x.dims.size()) return Bad(spec, "output rank differs from the input's");
  TopKPlan p{PlanAxis(x.dims, ax), out[static_cast<size_t>(ax)], spec.attrs.GetInt("largest", 1) != 0,
             spec.attrs.GetInt("sorted", 1) != 0};
  if (const void* k = spec.ConstInput(1); k && ReadInts(k, spec.inputs[1].dtype, 1)[0] != p.k)
    return Bad(spec, "k differs from the output's size along the axis");
  if (p.k < 0 || p.k > p.a.n) return Bad(spec, "k " + std::to_string(p.k) + " is out of range for an axis of " + std::to_string(p.a.n));
  std::vector<int64_t> want = x.dims;
  want[static_cast<size_t>(ax)] = p.k;
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 1, want));
  return p;
}

template <typename T>
Result<KernelPtr> MakeTopK(const TopKPlan& p) {
  return MakeKernel([p](const void* const* in, void* const* out) {
    const T* x = static_cast<const T*>(in[0]);
    T* values = static_cast<T*>(out[0]);
    int64_t* indices = static_cast<int64_t*>(out[1]);
    const int64_t n = p.a.n, inner = p.a.inner, k = p.k;
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t o = 0; o < p.a.outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const T* row = x + o * n * inner + i;
        auto before = [&](int64_t a, int64_t b) {
          const T va = row[a * inner], vb = row[b * inner];
          if (va != vb) return p.largest ? va > vb : va < vb;
          return a < b;
        };
        std::iota(order.begin(), order.end(), int64_t{0});
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        // Unsorted: the k chosen ones in their original order.
        if (!p.sorted) std::sort(order.begin(), order.begin() + k);
        for (int64_t s = 0; s < k; ++s) {
          const int64_t at = (o * k + s) * inner + i;
          values[at] = row[order[static_cast<size_t>(s)] * inner];
          indices[at] = order[static_cast<size_t>(s)];
        }
      }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateTopK(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(TopKPlan p, PlanTopK(spec));
  switch (spec.inputs[0].dtype) {
    case D::kInt32: return MakeTopK<int32_t>(p);
    case D::kInt64: return MakeTopK<int64_t>(p);
    default: return MakeTopK<float>(p);
  }
}

}  // namespace

void RegisterIndexKernels(KernelRegistry& r) {
  r.Register("CumSum", [](const KernelSpec& s) { return PlanCumSum(s).status(); }, CreateCumSum);
  r.Register("TopK", [](const KernelSpec& s) { return PlanTopK(s).status(); }, CreateTopK);
}

}  // namespace ge::hal
