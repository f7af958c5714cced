// ReverseSequence on any dtype of 1, 2, 4 or 8 bytes. x is viewed as
// [T, B, inner] (time_axis 0) or [B, T, inner] (batch_axis 0); for batch b
// the first lens[b] time steps are reversed and the rest copied. A length
// outside [0, T] is an error at run time (the values are data).
#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

struct ReversePlan {
  int64_t steps = 0, batch = 0, inner = 1;
  bool time_major = true;
};

Result<ReversePlan> PlanReverse(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &lens = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckMovable(spec, x, "input"));
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output dtype differs from the input's");
  GE_RETURN_IF_ERROR(CheckDtype(spec, lens, "sequence_lens", {DataType::kInt64, DataType::kInt32}));
  if (x.dims.size() < 2) return Bad(spec, "input must have rank 2 or more");
  const int64_t batch_axis = spec.attrs.GetInt("batch_axis", 1), time_axis = spec.attrs.GetInt("time_axis", 0);
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0)))
    return Bad(spec, "batch_axis and time_axis must be 0 and 1 in some order");
  ReversePlan p;
  p.time_major = time_axis == 0;
  p.steps = x.dims[static_cast<size_t>(time_axis)];
  p.batch = x.dims[static_cast<size_t>(batch_axis)];
  p.inner = Product(x.dims, 2, x.dims.size());
  if (lens.dims != std::vector<int64_t>{p.batch})
    return Bad(spec, "sequence_lens " + DimsStr(lens.dims) + " must be a vector of the batch size " +
                         std::to_string(p.batch));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  return p;
}

Result<KernelPtr> CreateReverse(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(ReversePlan p, PlanReverse(spec));
  const DataType lens_t = spec.inputs[1].dtype;
  const std::string where = Where(spec);
  std::vector<int64_t> lens_buf(static_cast<size_t>(p.batch));
  Result<KernelPtr> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    k = MakeKernel([=, lens = lens_buf](const void* const* in, void* const* out) mutable -> Status {
      ReadInts(in[1], lens_t, p.batch, lens.data());
      for (int64_t b = 0; b < p.batch; ++b)
        if (lens[b] < 0 || lens[b] > p.steps)
          return InvalidArgument(where + ": sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[b]) +
                                 " is outside [0, " + std::to_string(p.steps) + "]");
      const U* x = static_cast<const U*>(in[0]);
      U* y = static_cast<U*>(out[0]);
      // Offset of (time t, batch b) in elements.
      auto at = [&](int64_t t, int64_t b) { return (p.time_major ? t * p.batch + b : b * p.steps + t) * p.inner; };
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t t = 0; t < p.steps; ++t) {
          const int64_t from = t < lens[b] ? lens[b] - 1 - t : t;
          std::copy(x + at(from, b), x + at(from, b) + p.inner, y + at(t, b));
        }
      return Status::Ok();
    });
  });
  return k;
}

}  // namespace

void RegisterReverseSequenceKernels(KernelRegistry& r) {
  r.Register("ReverseSequence", [](const KernelSpec& spec) { return PlanReverse(spec).status(); }, CreateReverse);
}

}  // namespace ge::hal
