// GatherElements: out[.., i_axis, ..] = data[.., idx[.., i_axis, ..], ..],
// one index per output element (any dtype of 1, 2, 4 or 8 bytes; i32 or i64
// indices).
//
// The output's last axis is the inner loop; an odometer over the leading axes
// keeps the data offset of each row. Every index is checked as it is read:
// outside [-n, n) is a run-time error, never a read outside data (constant
// indices are refused already at Create).
#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using Dims = std::vector<int64_t>;

struct GatherElementsPlan {
  Dims out_dims;
  Dims steps;  // data stride per output dim, 0 on the axis (the index moves it)
  int64_t n = 0;            // data's size along the axis
  int64_t axis_stride = 0;  // data's stride along the axis
  bool axis_is_last = false;
};

Result<GatherElementsPlan> PlanGatherElements(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1));
  const TensorInfo &x = spec.inputs[0], &idx = spec.inputs[1];
  const size_t size = DataTypeSize(x.dtype);
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (spec.outputs[0].dtype != x.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " differs from data dtype " +
                         DataTypeName(x.dtype));
  if (!IsIndexType(idx.dtype))
    return NotSupported(spec, std::string("indices dtype ") + DataTypeName(idx.dtype) + " is not supported (i64, i32)");
  const int64_t r = static_cast<int64_t>(x.dims.size());
  if (r == 0) return Bad(spec, "data must have rank >= 1");
  if (static_cast<int64_t>(idx.dims.size()) != r)
    return Bad(spec, "indices " + DimsStr(idx.dims) + " must have the rank of data " + DimsStr(x.dims));
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", 0), r));
  for (int64_t d = 0; d < r; ++d)
    if (d != axis && idx.dims[d] > x.dims[d])
      return Bad(spec, "indices " + DimsStr(idx.dims) + " are larger than data " + DimsStr(x.dims) + " in dim " +
                           std::to_string(d));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, idx.dims));
  GatherElementsPlan p;
  p.out_dims = idx.dims;
  p.steps = Strides(x.dims);
  p.n = x.dims[axis];
  p.axis_stride = p.steps[axis];
  p.steps[axis] = 0;
  p.axis_is_last = axis == r - 1;
  if (const void* c = spec.ConstInput(1)) {
    for (int64_t v : ReadInts(c, idx.dtype, idx.NumElements()))
      if (v < -p.n || v >= p.n)
        return Bad(spec, "index " + std::to_string(v) + " is out of range for axis size " + std::to_string(p.n));
  }
  return p;
}

template <typename U, typename I>
class GatherElementsKernel final : public Kernel {
 public:
  GatherElementsKernel(GatherElementsPlan p, std::string where) : p_(std::move(p)), where_(std::move(where)) {}

  Status Run(const void* const* in, void* const* out) override {
    const U* x = static_cast<const U*>(in[0]);
    const I* idx = static_cast<const I*>(in[1]);
    U* y = static_cast<U*>(out[0]);
    const int last = static_cast<int>(p_.out_dims.size()) - 1;
    const int64_t cols = p_.out_dims[last];
    const int64_t rows = Product(p_.out_dims, 0, last);
    if (rows * cols == 0) return Status::Ok();
    const int64_t n = p_.n, stride = p_.axis_stride;
    const int64_t col_step = p_.steps[last];  // 1, or 0 when the index moves along the last axis
    int64_t pos[kMaxRank] = {};
    int64_t base = 0;  // data offset of the row, without the axis
    for (int64_t row = 0; row < rows; ++row, idx += cols, y += cols) {
      for (int64_t j = 0; j < cols; ++j) {
        int64_t i = static_cast<int64_t>(idx[j]);
        if (i < -n || i >= n) return OutOfRange(i);
        if (i < 0) i += n;
        y[j] = x[base + j * col_step + i * stride];
      }
      for (int d = last - 1; d >= 0; --d) {  // next row
        base += p_.steps[d];
        if (++pos[d] < p_.out_dims[d]) break;
        base -= pos[d] * p_.steps[d];
        pos[d] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  Status OutOfRange(int64_t i) const {
    return InvalidArgument(where_ + ": index " + std::to_string(i) + " is out of range for axis size " +
                           std::to_string(p_.n));
  }

  GatherElementsPlan p_;
  std::string where_;
};

Result<std::unique_ptr<Kernel>> CreateGatherElements(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(GatherElementsPlan p, PlanGatherElements(spec));
  const bool i64 = spec.inputs[1].dtype == DataType::kInt64;
  std::unique_ptr<Kernel> k;
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    if (i64) k = std::make_unique<GatherElementsKernel<U, int64_t>>(p, Where(spec));
    else k = std::make_unique<GatherElementsKernel<U, int32_t>>(p, Where(spec));
  });
  return k;
}

}  // namespace

void RegisterGatherElementsKernels(KernelRegistry& r) {
  r.Register(
      "GatherElements", [](const KernelSpec& s) { return PlanGatherElements(s).status(); }, CreateGatherElements);
}

}  // namespace ge::hal
