// Kernels that lay out a pattern by positions: EyeLike (ones on diagonal k
// of a 2-D output, zeros elsewhere) and OneHot (on_value where the position
// along the depth axis equals the index, off_value elsewhere).
#include <type_traits>

#include "cpu_kernels.h"
#include "ge_base/bfloat16.h"
#include "ge_base/float16.h"
#include "kernels/loop_common.h"
#include "kernels/loop_convert.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using D = DataType;

// ---- EyeLike: the input gives only the shape (the compiler checked it).

// The bits of 1 in an output of dtype t (f16 and bf16 have no C++ type).
bool OneBits(DataType t, uint64_t* bits) {
  if (t == D::kFloat16) *bits = FloatToHalf(1.0f);
  else if (t == D::kBFloat16) *bits = FloatToBFloat16(1.0f);
  else
    return DispatchNumeric(t, [&]<typename T>() {
      const T one = Convert<T>(1);
      *bits = 0;
      std::memcpy(bits, &one, sizeof one);
    });
  return true;
}

Status CheckEyeLike(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  uint64_t one;
  if (!OneBits(spec.outputs[0].dtype, &one))
    return NotSupported(spec, std::string("output dtype ") + DataTypeName(spec.outputs[0].dtype) + " is not supported");
  if (spec.outputs[0].dims.size() != 2) return Bad(spec, "output must be 2-D, got " + DimsStr(spec.outputs[0].dims));
  return CheckOutputDims(spec, 0, spec.inputs[0].dims);
}

Result<KernelPtr> CreateEyeLike(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckEyeLike(spec));
  uint64_t one = 0;
  OneBits(spec.outputs[0].dtype, &one);
  const int64_t rows = spec.outputs[0].dims[0], cols = spec.outputs[0].dims[1];
  const int64_t k = spec.attrs.GetInt("k", 0);
  const size_t size = DataTypeSize(spec.outputs[0].dtype);
  return MakeKernel([=](const void* const*, void* const* out) {
    std::memset(out[0], 0, static_cast<size_t>(rows * cols) * size);
    DispatchBySize(size, [&]<typename U>() {
      U* y = static_cast<U*>(out[0]);
      const U v = static_cast<U>(one);
      // Row r holds its 1 at column r + k when that column exists.
      for (int64_t r = std::max<int64_t>(0, -k); r < rows && r + k < cols; ++r) y[r * cols + r + k] = v;
    });
    return Status::Ok();
  });
}

// ---- OneHot(indices, depth, values), output [outer, depth, inner] around the axis.

struct OneHotPlan {
  int64_t outer = 1, depth = 0, inner = 1;
};

Result<OneHotPlan> PlanOneHot(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, 3, 1, 1));
  const TensorInfo &indices = spec.inputs[0], &depth = spec.inputs[1], &values = spec.inputs[2];
  const TensorInfo& y = spec.outputs[0];
  for (size_t i : {size_t{0}, size_t{1}})
    if (spec.inputs[i].dtype == D::kBool || !DispatchNumeric(spec.inputs[i].dtype, []<typename T>() {}))
      return NotSupported(spec, std::string(i == 0 ? "indices" : "depth") + " dtype " +
                                    DataTypeName(spec.inputs[i].dtype) + " is not supported");
  if (depth.NumElements() != 1) return Bad(spec, "depth must hold one value, got " + DimsStr(depth.dims));
  if (values.dims != std::vector<int64_t>{2}) return Bad(spec, "values must be [off_value, on_value]");
  GE_RETURN_IF_ERROR(CheckMovable(spec, values, "values"));
  if (y.dtype != values.dtype) return Bad(spec, "output dtype differs from the values'");
  const int64_t rank = static_cast<int64_t>(indices.dims.size()) + 1;
  GE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(spec, spec.attrs.GetInt("axis", -1), rank));
  if (static_cast<int64_t>(y.dims.size()) != rank) return Bad(spec, "output rank differs from indices' rank + 1");
  OneHotPlan p;
  p.depth = y.dims[static_cast<size_t>(axis)];
  std::vector<int64_t> want = indices.dims;
  want.insert(want.begin() + axis, p.depth);
  GE_RETURN_IF_ERROR(CheckOutputDims(spec, 0, want));
  p.outer = Product(indices.dims, 0, static_cast<size_t>(axis));
  p.inner = Product(indices.dims, static_cast<size_t>(axis), indices.dims.size());
  return p;
}

// An index of any numeric dtype as int64 (floats truncate, as Cast).
template <typename T>
int64_t IndexAt(const void* p, int64_t i) {
  return Convert<int64_t>(static_cast<const T*>(p)[i]);
}
using IndexFn = int64_t (*)(const void*, int64_t);

IndexFn IndexReader(DataType t) {
  IndexFn f = nullptr;
  DispatchNumeric(t, [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) f = IndexAt<T>;
  });
  return f;
}

Result<KernelPtr> CreateOneHot(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(OneHotPlan p, PlanOneHot(spec));
  const IndexFn index = IndexReader(spec.inputs[0].dtype), depth_of = IndexReader(spec.inputs[1].dtype);
  const std::string where = Where(spec);
  Result<KernelPtr> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[2].dtype), [&]<typename U>() {
    k = MakeKernel([=](const void* const* in, void* const* out) -> Status {
      // The output was sized for one depth; a different value at run time
      // would be another shape.
      const int64_t depth = depth_of(in[1], 0);
      if (depth != p.depth)
        return InvalidArgument(where + ": depth " + std::to_string(depth) + " differs from the output's " +
                               std::to_string(p.depth));
      const U* values = static_cast<const U*>(in[2]);
      U* y = static_cast<U*>(out[0]);
      std::fill(y, y + p.outer * p.depth * p.inner, values[0]);
      for (int64_t o = 0; o < p.outer; ++o)
        for (int64_t i = 0; i < p.inner; ++i) {
          int64_t d = index(in[0], o * p.inner + i);
          if (d < 0) d += p.depth;  // negative indices count from the end
          if (d >= 0 && d < p.depth) y[(o * p.depth + d) * p.inner + i] = values[1];
        }
      return Status::Ok();
    });
  });
  return k;
}

}  // namespace

void RegisterGenerateKernels(KernelRegistry& r) {
  r.Register("EyeLike", CheckEyeLike, CreateEyeLike);
  r.Register("OneHot", [](const KernelSpec& spec) { return PlanOneHot(spec).status(); }, CreateOneHot);
}

}  // namespace ge::hal
