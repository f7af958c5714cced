// DepthToSpace (modes DCR and CRD) and SpaceToDepth on NCHW, any dtype of
// 1, 2, 4 or 8 bytes: one loop over the space-side tensor [N, c, H*b, W*b]
// that reads or writes the depth-side element [N, c*b*b-ish, H, W] at
//   DCR: channel (i*b + j)*c + ch     CRD: channel ch*b*b + i*b + j
// for the block position (i, j). SpaceToDepth is DCR's inverse.
#include "cpu_kernels.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;
using KernelPtr = std::unique_ptr<Kernel>;

struct DepthSpacePlan {
  int64_t n = 0, c = 0, h = 0, w = 0, b = 1;  // the space side is [n, c, h*b, w*b]
  bool crd = false;
  bool to_space = true;  // DepthToSpace: read depth-side, write space-side
};

Result<DepthSpacePlan> PlanDepthSpace(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 1, 1, 1, 1));
  const TensorInfo &x = spec.inputs[0], &y = spec.outputs[0];
  GE_RETURN_IF_ERROR(CheckMovable(spec, x, "input"));
  if (y.dtype != x.dtype) return Bad(spec, "output dtype differs from the input's");
  if (x.dims.size() != 4) return Bad(spec, "input must be 4-D NCHW, got " + DimsStr(x.dims));
  DepthSpacePlan p;
  p.b = spec.attrs.GetInt("blocksize", 0);
  if (p.b < 1) return Bad(spec, "blocksize must be positive");
  p.to_space = spec.op == "DepthToSpace";
  const std::string mode = spec.attrs.GetString("mode", "DCR");
  if (p.to_space && mode != "DCR" && mode != "CRD") return Bad(spec, "mode \"" + mode + "\" must be DCR or CRD");
  p.crd = p.to_space && mode == "CRD";
  const TensorInfo& depth = p.to_space ? x : y;
  const TensorInfo& space = p.to_space ? y : x;
  p.n = space.dims[0];
  p.c = space.dims[1];
  p.h = depth.dims[2];
  p.w = depth.dims[3];
  const std::vector<int64_t> want_depth = {p.n, p.c * p.b * p.b, p.h, p.w};
  const std::vector<int64_t> want_space = {p.n, p.c, p.h * p.b, p.w * p.b};
  if (depth.dims != want_depth || space.dims != want_space)
    return Bad(spec, "input " + DimsStr(x.dims) + " and output " + DimsStr(y.dims) + " do not match blocksize " +
                         std::to_string(p.b));
  return p;
}

template <typename U>
void MoveBlocks(const DepthSpacePlan& p, const U* x, U* y) {
  const int64_t b = p.b, sh = p.h * b, sw = p.w * b;
  int64_t s = 0;  // space-side offset, in order
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t ch = 0; ch < p.c; ++ch)
      for (int64_t r = 0; r < sh; ++r)
        for (int64_t col = 0; col < sw; ++col, ++s) {
          const int64_t i = r % b, j = col % b;
          const int64_t dc = p.crd ? ch * b * b + i * b + j : (i * b + j) * p.c + ch;
          const int64_t d = ((n * p.c * b * b + dc) * p.h + r / b) * p.w + col / b;
          if (p.to_space) y[s] = x[d];
          else y[d] = x[s];
        }
}

Result<KernelPtr> CreateDepthSpace(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(DepthSpacePlan p, PlanDepthSpace(spec));
  Result<KernelPtr> k = Internal("unreachable");
  DispatchBySize(DataTypeSize(spec.inputs[0].dtype), [&]<typename U>() {
    k = MakeKernel([p](const void* const* in, void* const* out) {
      MoveBlocks(p, static_cast<const U*>(in[0]), static_cast<U*>(out[0]));
      return Status::Ok();
    });
  });
  return k;
}

}  // namespace

void RegisterDepthSpaceKernels(KernelRegistry& r) {
  for (const char* op : {"DepthToSpace", "SpaceToDepth"})
    r.Register(op, [](const KernelSpec& spec) { return PlanDepthSpace(spec).status(); }, CreateDepthSpace);
}

}  // namespace ge::hal
