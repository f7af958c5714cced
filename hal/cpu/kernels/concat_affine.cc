// ConcatAffine(x_1, ..., x_k, scale, shift), "activation" "" or "Relu":
// act(Concat(x_1..x_k, axis 1) * scale[c] + shift[c]) written in one pass,
// what concat_bn_fusion makes of DenseNet's Concat -> BatchNorm -> ReLU.
// Each part goes through the affine loops straight into its place in the
// output (plain, blocked or channels last: the layout of all of them), so
// the concatenation is never written on its own. The parts' work units are
// cut into chunks at load and spread over the threads together: the parts
// are many and small (DenseNet's 32-channel layers).
#include <omp.h>

#include "hal/fused_attrs.h"
#include "kernels/channel_affine_kernels.h"
#include "kernels/channel_affine_loop.h"
#include "kernels/loop_common.h"

namespace ge::hal {
namespace {

using namespace loop;

// Elements per chunk of work, and the size from which the chunks go to
// several threads.
constexpr int64_t kChunk = int64_t{1} << 14;
constexpr int64_t kConcatAffineParallelMin = int64_t{1} << 15;

struct Part {
  affine::Geometry g;
  int64_t c0 = 0;   // first output channel
  int64_t y0 = 0;   // offset of the part's first element in the output
};
struct Chunk {
  size_t part;
  int64_t u0, u1;
};
struct Plan {
  std::vector<Part> parts;
  std::vector<Chunk> chunks;
  int64_t elements = 0;
};

Result<Plan> PlanConcatAffine(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(CheckArity(spec, 3, SIZE_MAX, 1, 1));
  const size_t k = spec.inputs.size() - 2;
  const TensorInfo& y = spec.outputs[0];
  if (y.dtype != DataType::kFloat32 || y.dims.size() < 3) return NotSupported(spec, "only f32 of rank >= 3");
  const int64_t n = y.dims[0], c = y.dims[1], spatial = Product(y.dims, 2, y.dims.size());
  GE_RETURN_IF_ERROR(CheckScaleShift(spec, k, c));
  const bool relu = ActivationFromName(spec.attrs.GetString(kAttrActivation, "")) == FusedActivation::kRelu;
  Plan plan;
  int64_t c0 = 0;
  for (size_t i = 0; i < k; ++i) {
    const TensorInfo& x = spec.inputs[i];
    if (x.dtype != DataType::kFloat32 || x.channel_block != y.channel_block)
      return NotSupported(spec, "every part needs the output's dtype and layout");
    if (x.dims.size() != y.dims.size()) return Bad(spec, "part " + DimsStr(x.dims) + " has another rank");
    for (size_t d = 0; d < x.dims.size(); ++d)
      if (d != 1 && x.dims[d] != y.dims[d])
        return Bad(spec, "part " + DimsStr(x.dims) + " differs from " + DimsStr(y.dims) + " outside axis 1");
    Part p;
    p.g.n = n, p.g.c = x.dims[1], p.g.spatial = spatial, p.g.block = y.channel_block;
    p.g.relu = relu;
    p.g.y_image = c * spatial;
    if (y.channel_block == kChannelsLast) p.g.y_pixel = c;
    p.c0 = c0;
    p.y0 = y.channel_block == kChannelsLast ? c0 : c0 * spatial;
    if (!affine::Handles(p.g))
      return NotSupported(spec, "part " + DimsStr(x.dims) + " in layout " + std::to_string(y.channel_block));
    const int64_t units = affine::Units(p.g), per_unit = n * p.g.c * spatial / units;
    const int64_t step = std::max<int64_t>(1, kChunk / std::max<int64_t>(1, per_unit));
    for (int64_t u = 0; u < units; u += step) plan.chunks.push_back({plan.parts.size(), u, std::min(units, u + step)});
    plan.parts.push_back(p);
    plan.elements += n * p.g.c * spatial;
    c0 += x.dims[1];
  }
  if (c0 != c) return Bad(spec, "parts add up to " + std::to_string(c0) + " channels, not " + std::to_string(c));
  return plan;
}

Result<std::unique_ptr<Kernel>> CreateConcatAffine(const KernelSpec& spec) {
  GE_ASSIGN_OR_RETURN(Plan plan, PlanConcatAffine(spec));
  const size_t k = plan.parts.size();
  return MakeKernel([plan, k](const void* const* in, void* const* out) {
    const auto* scale = static_cast<const float*>(in[k]);
    const auto* shift = static_cast<const float*>(in[k + 1]);
    auto* y = static_cast<float*>(out[0]);
    const int64_t chunks = static_cast<int64_t>(plan.chunks.size());
    auto run = [&](int64_t i) {
      const Chunk& ch = plan.chunks[static_cast<size_t>(i)];
      const Part& p = plan.parts[ch.part];
      affine::RunUnits(p.g, static_cast<const float*>(in[ch.part]), scale + p.c0, shift + p.c0, y + p.y0, ch.u0,
                       ch.u1);
    };
    if (plan.elements < kConcatAffineParallelMin) {
      for (int64_t i = 0; i < chunks; ++i) run(i);
    } else {
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < chunks; ++i) run(i);
    }
    return Status::Ok();
  });
}

}  // namespace

void RegisterConcatAffineKernels(KernelRegistry& r) {
  r.Register(
      "ConcatAffine", [](const KernelSpec& s) { return PlanConcatAffine(s).status(); }, CreateConcatAffine,
      LayoutSupport::kOwn);
}

}  // namespace ge::hal
