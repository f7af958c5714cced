// ScatterElements (and the deprecated Scatter) and ScatterND: the output is
// data with the updates written (or combined: add, mul, max, min) at the
// positions the indices name, in the indices' order, so a repeated index
// with reduction "none" keeps the last update (as onnxruntime does).
//
// Every index is checked as it is read: outside [-n, n) is a run-time error,
// never a write outside the output.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using Dims = std::vector<int64_t>;
using KernelPtr = std::unique_ptr<Kernel>;

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

Result<Reduction> ReadReduction(const KernelSpec& spec) {
  const std::string r = spec.attrs.GetString("reduction", "none");
  if (r == "none") return Reduction::kNone;
  if (r == "add") return Reduction::kAdd;
  if (r == "mul") return Reduction::kMul;
  if (r == "max") return Reduction::kMax;
  if (r == "min") return Reduction::kMin;
  return Bad(spec, "reduction '" + r + "' is not one of none, add, mul, max, min");
}

template <typename T>
inline void Combine(Reduction r, T& y, T u) {
  switch (r) {
    case Reduction::kNone: y = u; break;
    case Reduction::kAdd: y = static_cast<T>(y + u); break;
    case Reduction::kMul: y = static_cast<T>(y * u); break;
    case Reduction::kMax: y = std::max(y, u); break;
    case Reduction::kMin: y = std::min(y, u); break;
  }
}

Status IndexOutOfRange(const std::string& where, int64_t i, int64_t n) {
  return InvalidArgument(where + ": index " + std::to_string(i) + " is out of range for a dim of " + std::to_string(n));
}

// Common checks: data/updates dtype, indices dtype, output = data.
Result<Reduction> CheckScatter(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1], &upd = spec.inputs[2];
  if (!IsIndexType(idx.dtype))
    return NotSupported(spec, std::string("indices dtype ") + DataTypeName(idx.dtype) + " is not supported (i64, i32)");
  if (upd.dtype != x.dtype || spec.outputs[0].dtype != x.dtype)
    return Bad(spec, "data, updates and output must share one dtype");
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  GE_ASSIGN_OR_RETURN(Reduction r, ReadReduction(spec));
  const size_t size = DataTypeSize(x.dtype);
  if (r == Reduction::kNone && size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (r != Reduction::kNone && (x.dtype == DataType::kBool || !DispatchNumeric(x.dtype, []<typename>() {})))
    return NotSupported(spec, std::string("reduction on dtype ") + DataTypeName(x.dtype) + " is not supported");
  return r;
}

// Calls make.template operator()<T>() with T the element type: the bits of
// the element size for "none" (any dtype moves), the numeric type otherwise.
template <typename F>
void DispatchScatter(DataType dt, Reduction r, F&& make) {
  if (r == Reduction::kNone) {
    DispatchBySize(DataTypeSize(dt), make);
    return;
  }
  DispatchNumeric(dt, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) make.template operator()<T>();
  });
}

// ---- ScatterElements / Scatter

struct ElementsPlan {
  Dims idx_dims;
  Dims steps;  // output stride per indices dim, 0 on the axis
  int64_t n = 0, axis_stride = 0;
  Reduction r = Reduction::kNone;
};

Result<ElementsPlan> PlanElements(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Reduction r, CheckScatter(spec));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1], &upd = spec.inputs[2];
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (rank == 0) return Bad(spec, "data must have rank >= 1");
  if (static_cast<int64_t>(idx.dims.size()) != rank || upd.dims != idx.dims)
    return Bad(spec, "indices " + DimsStr(idx.dims) + " and updates " + DimsStr(upd.dims) +
                         " must share one shape of data's rank " + DimsStr(x.dims));
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", 0), rank));
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idx.dims[d] > x.dims[d])
      return Bad(spec, "indices " + DimsStr(idx.dims) + " are larger than data " + DimsStr(x.dims) + " in dim " +
                           std::to_string(d));
  ElementsPlan p{idx.dims, Strides(x.dims), x.dims[axis], 0, r};
  p.axis_stride = p.steps[axis];
  p.steps[axis] = 0;
  return p;
}

template <typename T, typename I>
Result<KernelPtr> MakeElements(const ElementsPlan& p, int64_t total, std::string where) {
  return MakeKernel([p, total, where](const void* const* in, void* const* out) -> Status {
    const I* idx = static_cast<const I*>(in[1]);
    const T* upd = static_cast<const T*>(in[2]);
    T* y = static_cast<T*>(out[0]);
    if (y != in[0]) std::copy_n(static_cast<const T*>(in[0]), total, y);
    const int64_t count = Product(p.idx_dims, 0, p.idx_dims.size());
    const int rank = static_cast<int>(p.idx_dims.size());
    int64_t pos[kMaxRank] = {};
    int64_t base = 0;  // output offset of the position, without the axis
    for (int64_t e = 0; e < count; ++e) {
      int64_t i = static_cast<int64_t>(idx[e]);
      if (i < -p.n || i >= p.n) return IndexOutOfRange(where, i, p.n);
      if (i < 0) i += p.n;
      Combine(p.r, y[base + i * p.axis_stride], upd[e]);
      for (int d = rank - 1; d >= 0; --d) {  // next position
        base += p.steps[d];
        if (++pos[d] < p.idx_dims[d]) break;
        base -= pos[d] * p.steps[d];
        pos[d] = 0;
      }
    }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateElements(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(ElementsPlan p, PlanElements(spec));
  const bool i64 = spec.inputs[1].dtype == DataType::kInt64;
  const int64_t total = spec.inputs[0].NumElements();
  Result<KernelPtr> k = Internal("unreachable");
  DispatchScatter(spec.inputs[0].dtype, p.r, [&]<typename T>() {
    k = i64 ? MakeElements<T, int64_t>(p, total, Where(spec)) : MakeElements<T, int32_t>(p, total, Where(spec));
  });
  return k;
}

// ---- ScatterND: indices [..., k] address slices data[i0..ik-1, :].

struct NdPlan {
  Dims data_dims;
  int64_t k = 0, tuples = 0, slice = 0;
  Reduction r = Reduction::kNone;
};

Result<NdPlan> PlanNd(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Reduction r, CheckScatter(spec));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1], &upd = spec.inputs[2];
  if (idx.dims.empty()) return Bad(spec, "indices must have rank >= 1");
  const int64_t k = idx.dims.back();
  if (k < 1 || k > static_cast<int64_t>(x.dims.size()))
    return Bad(spec, "indices " + DimsStr(idx.dims) + " must index 1.." + std::to_string(x.dims.size()) + " dims");
  Dims want(idx.dims.begin(), idx.dims.end() - 1);
  want.insert(want.end(), x.dims.begin() + k, x.dims.end());
  if (upd.dims != want) return Bad(spec, "updates " + DimsStr(upd.dims) + " must be " + DimsStr(want));
  return NdPlan{x.dims, k, Product(idx.dims, 0, idx.dims.size() - 1),
                Product(x.dims, static_cast<size_t>(k), x.dims.size()), r};
}

template <typename T, typename I>
Result<KernelPtr> MakeNd(const NdPlan& p, std::string where) {
  return MakeKernel([p, where, strides = Strides(p.data_dims)](const void* const* in, void* const* out) -> Status {
    const I* idx = static_cast<const I*>(in[1]);
    const T* upd = static_cast<const T*>(in[2]);
    T* y = static_cast<T*>(out[0]);
    if (y != in[0]) std::copy_n(static_cast<const T*>(in[0]), Product(p.data_dims, 0, p.data_dims.size()), y);
    for (int64_t t = 0; t < p.tuples; ++t, idx += p.k, upd += p.slice) {
      int64_t at = 0;
      for (int64_t j = 0; j < p.k; ++j) {
        const int64_t n = p.data_dims[j];
        int64_t i = static_cast<int64_t>(idx[j]);
        if (i < -n || i >= n) return IndexOutOfRange(where, i, n);
        at += (i < 0 ? i + n : i) * strides[j];
      }
      for (int64_t s = 0; s < p.slice; ++s) Combine(p.r, y[at + s], upd[s]);
    }
    return Status::Ok();
  });
}

Result<KernelPtr> CreateNd(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(NdPlan p, PlanNd(spec));
  const bool i64 = spec.inputs[1].dtype == DataType::kInt64;
  Result<KernelPtr> k = Internal("unreachable");
  DispatchScatter(spec.inputs[0].dtype, p.r, [&]<typename T>() {
    k = i64 ? MakeNd<T, int64_t>(p, Where(spec)) : MakeNd<T, int32_t>(p, Where(spec));
  });
  return k;
}

}  // namespace

void RegisterScatterKernels(KernelRegistry& r) {
  for (const char* op : {"ScatterElements", "Scatter"})
    r.Register(
        op, [](const KernelSpec& s) { return PlanElements(s).status(); }, CreateElements);
  r.Register(
      "ScatterND", [](const KernelSpec& s) { return PlanNd(s).status(); }, CreateNd);
}

}  // namespace ge::hal
