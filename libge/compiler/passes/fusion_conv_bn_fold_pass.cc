// fusion: conv_bn_fold. An inference BatchNormalization right after a Conv
// becomes part of the Conv's weights and bias:
//   f = scale / sqrt(var + eps);  W' = W * f (per output channel);
//   b' = (b - mean) * f + B.
// Computed in double into new Const nodes (the old ones may be shared).
#include <cmath>

#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFold(Graph& g, Node* bn, const PassContext& ctx) {
  const std::optional<BnFactors> f = ReadInferenceBn(*bn);
  if (!f) return false;
  Node* conv = bn->InputNode(0);
  if (!conv || conv->type() != "Conv" || bn->InputSource(0).index != 0 || SoleConsumer(*conv) != bn) return false;
  // A conv with fused post-ops computes act(conv + sum): BN cannot go in.
  if (conv->HasAttr("fused_sum") || conv->HasAttr("activation")) return false;
  const Tensor* w = ConstInput(*conv, 1);
  if (!w || !IsF32(w->desc()) || w->desc().rank() < 3) return false;
  const int64_t m = w->desc().dims[0];
  if (m != static_cast<int64_t>(f->mul.size())) return false;
  std::vector<double> bias(m, 0.0);
  if (conv->HasInput(2)) {
    const Tensor* b = ConstInput(*conv, 2);
    if (!b || !IsF32(b->desc()) || b->desc().NumElements() != m) return false;
    bias = F32Values(*b);
  }
  // The folded conv always has a bias: make sure the backend takes it.
  hal::KernelSpec spec = BuildKernelSpec(*conv);
  spec.inputs.resize(3);
  spec.inputs[2] = hal::TensorInfo{DataType::kFloat32, {m}};
  if (!Supported(ctx, spec)) return false;

  std::vector<double> wv = F32Values(*w);
  const size_t per = wv.size() / static_cast<size_t>(m);
  for (int64_t c = 0; c < m; ++c) {
    for (size_t j = 0; j < per; ++j) wv[c * per + j] *= f->mul[c];
    bias[c] = bias[c] * f->mul[c] + f->add[c];
  }
  GE_RETURN_IF_ERROR(ReplaceWithFoldedBn(g, conv, bn, "W", MakeF32(w->desc().dims, wv), "B", MakeF32({m}, bias)));
  return true;
}

}  // namespace

Pass ConvBnFoldPass() {
  return FusionPass("conv_bn_fold", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) -> Result<bool> {
      if (n->type() != "BatchNormalization") return false;
      return TryFold(gr, n, ctx);
    });
  });
}

}  // namespace ge
