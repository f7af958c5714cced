// SpaceToBatchND and BatchToSpaceND on NCHW with two spatial dims (the TF
// parser's lowering of TF's NHWC ops; atrous_conv usually removes the pair).
// Both are one loop over the batched tensor [bh, bw, N, C, h, w] that maps
// each element to its spatial position (y, x) = (h*bh + i - top, w*bw + j -
// left) in the unbatched one: SpaceToBatch reads it (zero when it falls in
// the padding), BatchToSpace writes it (skipped when it falls in the crop).
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;
using Dims = std::vector<int64_t>;

struct SpacePlan {
  int64_t bh = 1, bw = 1, n = 0, c = 0, h = 0, w = 0;  // batched: [bh*bw*n, c, h, w]
  int64_t sh = 0, sw = 0, top = 0, left = 0;           // unbatched spatial size, offsets
};

// `to_batch`: SpaceToBatchND (attr pads) or BatchToSpaceND (attr crops).
Result<SpacePlan> PlanSpace(const KernelSpec& spec, bool to_batch) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo& x = spec.inputs[0];
  const TensorInfo& y = spec.outputs[0];
  if (x.dtype != y.dtype) return Bad(spec, "output dtype differs from the input's");
  if (DataTypeSize(x.dtype) == 0 || DataTypeSize(x.dtype) > 8 || (DataTypeSize(x.dtype) & (DataTypeSize(x.dtype) - 1)))
    return NotSupported(spec, std::string("dtype ") + DataTypeName(x.dtype) + " is not supported");
  if (x.dims.size() != 4) return NotSupported(spec, "only 4-D NCHW inputs are supported");
  const Dims block = spec.attrs.GetInts("block_shape");
  const Dims pads = spec.attrs.GetInts(to_batch ? "pads" : "crops");
  if (block.size() != 2 || block[0] < 1 || block[1] < 1) return Bad(spec, "block_shape must be two positive sizes");
  if (!pads.empty() && pads.size() != 4) return Bad(spec, "pads/crops must have 4 values");
  SpacePlan p;
  p.bh = block[0];
  p.bw = block[1];
  p.top = pads.empty() ? 0 : pads[0];
  p.left = pads.empty() ? 0 : pads[1];
  const TensorInfo& batched = to_batch ? y : x;
  const TensorInfo& space = to_batch ? x : y;
  p.n = space.dims[0];
  p.c = space.dims[1];
  p.h = batched.dims[2];
  p.w = batched.dims[3];
  p.sh = space.dims[2];
  p.sw = space.dims[3];
  const int64_t bottom = pads.empty() ? 0 : pads[2], right = pads.empty() ? 0 : pads[3];
  const bool ok = batched.dims[0] == p.bh * p.bw * p.n && batched.dims[1] == p.c &&
                  p.h * p.bh == p.sh + p.top + bottom && p.w * p.bw == p.sw + p.left + right;
  if (!ok) return Bad(spec, "input " + DimsStr(x.dims) + " and output " + DimsStr(y.dims) + " do not match the blocks");
  return p;
}

// f(batched offset, space offset or -1) for every batched element.
template <typename F>
void ForEachBatched(const SpacePlan& p, F&& f) {
  int64_t b = 0;
  for (int64_t i = 0; i < p.bh; ++i)
    for (int64_t j = 0; j < p.bw; ++j)
      for (int64_t n = 0; n < p.n; ++n)
        for (int64_t c = 0; c < p.c; ++c) {
          const int64_t plane = (n * p.c + c) * p.sh;
          for (int64_t h = 0; h < p.h; ++h) {
            const int64_t y = h * p.bh + i - p.top;
            for (int64_t w = 0; w < p.w; ++w, ++b) {
              const int64_t x = w * p.bw + j - p.left;
              f(b, y >= 0 && y < p.sh && x >= 0 && x < p.sw ? (plane + y) * p.sw + x : -1);
            }
          }
        }
}

Result<KernelPtr> Create(const KernelSpec& spec, bool to_batch) {
  GE_ASSIGN_OR_RETURN(SpacePlan p, PlanSpace(spec, to_batch));
  Result<KernelPtr> k = Internal("no kernel for the element size");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    k = MakeKernel([p, to_batch](const void* const* in, void* const* out) {
      const U* x = static_cast<const U*>(in[0]);
      U* y = static_cast<U*>(out[0]);
      if (to_batch)
        ForEachBatched(p, [&](int64_t b, int64_t s) { y[b] = s < 0 ? U{0} : x[s]; });
      else
        ForEachBatched(p, [&](int64_t b, int64_t s) {
          if (s >= 0) y[s] = x[b];
        });
      return Status::Ok();
    });
  });
  return k;
}

}  // namespace

void RegisterSpaceBatchKernels(KernelRegistry& r) {
  r.Register(
      "SpaceToBatchND", [](const KernelSpec& s) { return PlanSpace(s, true).status(); },
      [](const KernelSpec& s) { return Create(s, true); });
  r.Register(
      "BatchToSpaceND", [](const KernelSpec& s) { return PlanSpace(s, false).status(); },
      [](const KernelSpec& s) { return Create(s, false); });
}

}  // namespace ge::hal
