// GatherND: data [B..., D...], indices [B..., M..., k] with b = batch_dims
// leading dims shared; each k-tuple of a batch picks the slice
// data[batch, i0..ik-1, :] (any dtype of 1, 2, 4 or 8 bytes). Indices are
// checked as they are read: outside [-n, n) is a run-time error.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using Dims = std::vector<int64_t>;

struct GatherNdPlan {
  Dims data_dims;
  int64_t b = 0, k = 0;
  int64_t batches = 1, tuples_per_batch = 0, slice = 0, batch_size = 0;
};

Result<GatherNdPlan> PlanGatherNd(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1];
  const size_t size = DataTypeSize(x.dtype);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype must be data's");
  if (!IsIndexType(idx.dtype))
    return NotSupported(spec, std::string("indices dtype ") + DataTypeName(idx.dtype) + " is not supported (i64, i32)");
  const int64_t b = spec.attrs.GetInt("batch_dims", 0);
  const int64_t xr = static_cast<int64_t>(x.dims.size()), ir = static_cast<int64_t>(idx.dims.size());
  if (b < 0 || ir < 1 || b >= ir || b >= xr)
    return Bad(spec, "batch_dims " + std::to_string(b) + " must be below the ranks of data and indices");
  const int64_t k = idx.dims.back();
  if (k < 1 || b + k > xr)
    return Bad(spec, "indices " + DimsStr(idx.dims) + " index too many dims of " + DimsStr(x.dims));
  for (int64_t i = 0; i < b; ++i)
    if (idx.dims[i] != x.dims[i]) return Bad(spec, "data and indices differ in batch dim " + std::to_string(i));
  Dims want(idx.dims.begin(), idx.dims.end() - 1);
  want.insert(want.end(), x.dims.begin() + b + k, x.dims.end());
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  GatherNdPlan p;
  p.data_dims = x.dims;
  p.b = b;
  p.k = k;
  p.batches = Product(x.dims, 0, static_cast<size_t>(b));
  p.tuples_per_batch = Product(idx.dims, static_cast<size_t>(b), idx.dims.size() - 1);
  p.slice = Product(x.dims, static_cast<size_t>(b + k), x.dims.size());
  p.batch_size = Product(x.dims, static_cast<size_t>(b), x.dims.size());
  return p;
}

template <typename U, typename I>
Result<std::unique_ptr<Kernel>> MakeGatherNd(const GatherNdPlan& p, std::string where) {
  return MakeKernel([p, where, strides = Strides(p.data_dims)](const void* const* in, void* const* out) -> Status {
    const U* x = static_cast<const U*>(in[0]);
    const I* idx = static_cast<const I*>(in[1]);
    U* y = static_cast<U*>(out[0]);
    for (int64_t bi = 0; bi < p.batches; ++bi) {
      const U* batch = x + bi * p.batch_size;
      for (int64_t t = 0; t < p.tuples_per_batch; ++t, idx += p.k, y += p.slice) {
        int64_t at = 0;
        for (int64_t j = 0; j < p.k; ++j) {
          const int64_t n = p.data_dims[p.b + j];
          int64_t i = static_cast<int64_t>(idx[j]);
          if (i < -n || i >= n)
            return InvalidArgument(where + ": index " + std::to_string(i) + " is out of range for a dim of " +
                                   std::to_string(n));
          at += (i < 0 ? i + n : i) * strides[p.b + j];
        }
        std::copy_n(batch + at, p.slice, y);
      }
    }
    return Status::Ok();
  });
}

Result<std::unique_ptr<Kernel>> CreateGatherNd(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(GatherNdPlan p, PlanGatherNd(spec));
  const bool i64 = spec.inputs[1].dtype == DataType::kInt64;
  Result<std::unique_ptr<Kernel>> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    k = i64 ? MakeGatherNd<U, int64_t>(p, Where(spec)) : MakeGatherNd<U, int32_t>(p, Where(spec));
  });
  return k;
}

}  // namespace

void RegisterGatherNdKernels(KernelRegistry& r) {
  r.Register(
      "GatherND", [](const KernelSpec& s) { return PlanGatherNd(s).status(); }, CreateGatherNd);
}

}  // namespace ge::hal
