// Trilu: keeps the upper (upper=1: col - row >= k) or lower (col - row <= k)
// triangle of each matrix in the last two axes and zeroes the rest. Each row
// is one copy of the kept span and one fill of the other (zero is all-zero
// bytes in every dtype), so the kernel moves bytes whatever the dtype.
//
// k (input 1, a scalar) is read at Create when constant, else on each run:
// it never changes the output's shape, so a run-time k needs no dynamic shape.
#include <algorithm>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

struct TriluPlan {
  int64_t matrices = 0, rows = 0, cols = 0;
  size_t elem = 0;
  bool upper = true;
  bool k_at_run = false;
  DataType k_dtype = DataType::kInt64;
  int64_t k = 0;  // when constant
};

Result<TriluPlan> PlanTrilu(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 2, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  if (x.dims.size() < 2) return Bad(spec, "input must have rank >= 2, but is " + DimsStr(x.dims));
  if (spec.outputs[0].dtype != x.dtype)
    return Bad(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " differs from input dtype " +
                         DataTypeName(x.dtype));
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, x.dims));
  TriluPlan p;
  p.rows = x.dims[x.dims.size() - 2];
  p.cols = x.dims.back();
  p.matrices = Product(x.dims, 0, x.dims.size() - 2);
  p.elem = DataTypeSize(x.dtype);
  if (p.elem == 0) return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  p.upper = spec.attrs.GetInt("upper", 1) != 0;
  if (HasInput(spec, 1)) {
    const TensorInfo& k = spec.inputs[1];
    if (!IsIndexType(k.dtype))
      return NotSupported(spec, std::string("k dtype ") + DataTypeName(k.dtype) + " is not supported (i64, i32)");
    if (k.NumElements() != 1) return Bad(spec, "k must be a scalar, but is " + DimsStr(k.dims));
    p.k_dtype = k.dtype;
    p.k_at_run = spec.ConstInput(1) == nullptr;
    if (!p.k_at_run) ReadInts(spec.ConstInput(1), k.dtype, 1, &p.k);
  }
  return p;
}

class TriluKernel final : public Kernel {
 public:
  explicit TriluKernel(TriluPlan p) : p_(p) {}

  Status Run(const void* const* in, void* const* out) override {
    int64_t k = p_.k;
    if (p_.k_at_run) ReadInts(in[1], p_.k_dtype, 1, &k);
    // Past these bounds every row is all kept or all zeroed; clamping keeps
    // row + k from overflowing.
    k = std::clamp(k, -p_.rows - 1, p_.cols + 1);
    const uint8_t* x = static_cast<const uint8_t*>(in[0]);
    uint8_t* y = static_cast<uint8_t*>(out[0]);
    const size_t row_bytes = static_cast<size_t>(p_.cols) * p_.elem;
    if (row_bytes == 0) return Status::Ok();  // an empty tensor's buffers may be null
    for (int64_t m = 0; m < p_.matrices; ++m) {
      for (int64_t i = 0; i < p_.rows; ++i, x += row_bytes, y += row_bytes) {
        // Columns [0, split) are the lower part, [split, cols) the upper.
        const int64_t split = std::clamp(p_.upper ? i + k : i + k + 1, int64_t{0}, p_.cols);
        const size_t cut = static_cast<size_t>(split) * p_.elem;
        if (p_.upper) {
          std::memset(y, 0, cut);
          std::memcpy(y + cut, x + cut, row_bytes - cut);
        } else {
          std::memcpy(y, x, cut);
          std::memset(y + cut, 0, row_bytes - cut);
        }
      }
    }
    return Status::Ok();
  }

 private:
  TriluPlan p_;
};

Result<std::unique_ptr<Kernel>> CreateTrilu(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(TriluPlan p, PlanTrilu(spec));
  return std::unique_ptr<Kernel>(new TriluKernel(p));
}

}  // namespace

void RegisterTriluKernels(KernelRegistry& r) {
  r.Register(
      "Trilu", [](const KernelSpec& s) { return PlanTrilu(s).status(); }, CreateTrilu);
}

}  // namespace ge::hal
