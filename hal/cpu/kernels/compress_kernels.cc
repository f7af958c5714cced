// Compress: the elements of the flattened input (no `axis`), or its slices
// along `axis`, whose condition is true. A condition shorter than that drops
// the rest; entries beyond it are ignored (onnxruntime's rule). Bytes are
// copied, so every dtype is one kernel.
#include <algorithm>
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/computed_kernel.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

struct CompressPlan {
  AxisPick a;
  int64_t valid = 0;  // condition entries that count
  size_t elem = 0;
};

Result<CompressPlan> PlanCompress(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 2, 2, 1, 1, /*computed_outputs=*/true));
  const TensorInfo& x = spec.inputs[0];
  const TensorInfo& cond = spec.inputs[1];
  GE_RETURN_IF_ERROR(CheckDtype(spec, cond, "condition", {DataType::kBool}));
  if (cond.dims.size() != 1) return Bad(spec, "condition must be 1-D, got " + DimsStr(cond.dims));
  if (spec.outputs[0].dtype != x.dtype) return Bad(spec, "output must have the input's dtype");
  CompressPlan p;
  GE_ASSIGN_OR_RETURN(p.a, PlanAxisPick(spec, x));
  p.valid = std::min(p.a.n, cond.dims[0]);
  p.elem = DataTypeSize(x.dtype);
  GE_RETURN_IF_ERROR(CheckComputedDims(spec, 0, p.a.dims));
  return p;
}

Result<KernelPtr> CreateCompress(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(CompressPlan p, PlanCompress(spec));
  auto count = [p](const void* const* in) -> Result<ShapesOnly> {
    const uint8_t* cond = static_cast<const uint8_t*>(in[1]);
    ShapesOnly k{{p.a.dims}};
    k.dims[0][p.a.axis] = std::count_if(cond, cond + p.valid, [](uint8_t c) { return c != 0; });
    return k;
  };
  auto write = [p](const ShapesOnly& k, const void* const* in, void* const* out) {
    const uint8_t* x = static_cast<const uint8_t*>(in[0]);
    const uint8_t* cond = static_cast<const uint8_t*>(in[1]);
    uint8_t* y = static_cast<uint8_t*>(out[0]);
    const int64_t kept = k.dims[0][p.a.axis];
    const size_t slice = static_cast<size_t>(p.a.inner) * p.elem;
    for (int64_t o = 0; o < p.a.outer; ++o)
      for (int64_t i = 0, j = 0; i < p.valid && j < kept; ++i)
        if (cond[i])
          std::memcpy(y + static_cast<size_t>(o * kept + j++) * slice, x + static_cast<size_t>(o * p.a.n + i) * slice,
                      slice);
  };
  return MakeComputedKernel<ShapesOnly>(spec, std::move(count), std::move(write));
}

}  // namespace

void RegisterCompressKernels(KernelRegistry& r) {
  r.Register("Compress", [](const KernelSpec& s) { return PlanCompress(s).status(); }, CreateCompress);
}

}  // namespace ge::hal
