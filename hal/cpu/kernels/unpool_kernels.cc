// MaxUnpool: the output is zeros with X[j] written at the flattened position
// Indices[j] (MaxPool's Indices count over the whole tensor, N and C
// included) of the unpooled shape (in - 1) * stride + kernel - pads. A larger
// output_shape pads that at the end of each axis (as ONNX's reference does).
// An index outside the unpooled shape is a run-time error.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

// The unpooled shape (where the indices point) from X and the attributes.
Result<std::vector<int64_t>> UnpooledDims(const KernelSpec& spec) {
  const std::vector<int64_t>& x = spec.inputs[0].dims;
  const std::vector<int64_t> kernel = spec.attrs.GetInts("kernel_shape");
  const size_t sp = kernel.size();
  if (x.size() != sp + 2) return Bad(spec, "X " + DimsStr(x) + " must have kernel_shape's spatial dims");
  const std::vector<int64_t> strides = spec.attrs.GetInts("strides", std::vector<int64_t>(sp, 1));
  const std::vector<int64_t> pads = spec.attrs.GetInts("pads", std::vector<int64_t>(2 * sp, 0));
  if (strides.size() != sp || pads.size() != 2 * sp) return Bad(spec, "strides and pads must match kernel_shape");
  std::vector<int64_t> d = {x[0], x[1]};
  for (size_t i = 0; i < sp; ++i) d.push_back((x[i + 2] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + sp]);
  return d;
}

Status CheckMaxUnpool(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 3, 1, 1));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1];
  const size_t size = DataTypeSize(x.dtype);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (idx.dtype != DataType::kInt64 || idx.dims != x.dims) return Bad(spec, "Indices must be int64 of X's shape");
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output must have X's dtype");
  GE_ASSIGN_OR_RETURN(auto inner, UnpooledDims(spec));
  const auto& out = spec.outputs[0].dims;
  bool fits = out.size() == inner.size() && out[0] == inner[0] && out[1] == inner[1];
  for (size_t i = 2; fits && i < out.size(); ++i) fits = inner[i] >= 1 && out[i] >= inner[i];
  if (!fits) return Bad(spec, "output " + DimsStr(out) + " cannot hold the unpooled " + DimsStr(inner));
  return Status::Ok();
}

Result<std::unique_ptr<Kernel>> CreateMaxUnpool(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckMaxUnpool(spec));
  GE_ASSIGN_OR_RETURN(auto inner, UnpooledDims(spec));
  const std::vector<int64_t> out = spec.outputs[0].dims, out_strides = Strides(out);
  const int64_t n = spec.inputs[0].NumElements(), total = spec.outputs[0].NumElements();
  const int64_t inner_total = Product(inner, 0, inner.size());
  Result<std::unique_ptr<Kernel>> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    k = MakeKernel([=, where = Where(spec)](const void* const* in, void* const* o) -> Status {
      const U* x = static_cast<const U*>(in[0]);
      const int64_t* idx = static_cast<const int64_t*>(in[1]);
      U* y = static_cast<U*>(o[0]);
      std::fill(y, y + total, U{0});
      for (int64_t j = 0; j < n; ++j) {
        if (idx[j] < 0 || idx[j] >= inner_total)
          return InvalidArgument(where + ": index " + std::to_string(idx[j]) + " is outside the unpooled " +
                                 DimsStr(inner));
        int64_t rest = idx[j], at = 0;  // the position in `inner`, placed in `out`
        for (size_t d = inner.size(); d-- > 0;) {
          at += (rest % inner[d]) * out_strides[d];
          rest /= inner[d];
        }
        y[at] = x[j];
      }
      return Status::Ok();
    });
  });
  return k;
}

}  // namespace

void RegisterUnpoolKernels(KernelRegistry& r) { r.Register("MaxUnpool", CheckMaxUnpool, CreateMaxUnpool); }

}  // namespace ge::hal
