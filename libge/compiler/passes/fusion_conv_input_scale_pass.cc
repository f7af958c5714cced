// fusion: conv_input_scale. A squeeze-excitation block (EfficientNet,
// MobileNetV3) ends with Mul(x, gate), the gate [1, C, 1, 1] computed from
// x itself (GlobalAveragePool -> FC -> activation -> FC -> Sigmoid), and a
// Conv reads the product. conv(x * gate, W) = conv(x, W * gate) per input
// channel, so the Conv takes the gate as its input 4 and scales its weights
// while it reorders them, each run; the Mul, a read and a write of all of x,
// is gone.
//
// Reordering the weights per run instead of packing them once costs about
// twice per value what the Mul costs per value of x (measured on 2 AVX-512
// cores, 2026-12-07: 96->24 weights 6.7 us vs the 96x56x56 Mul 92 us;
// 480->80 21 us vs the 480x14x14 Mul 20 us), so the pass fires only where
// the weights have at most a quarter of x's values: EfficientNet-B0's first
// five projection convs, not the deep ones.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"

namespace ge {
namespace {

using namespace fusion;

// The per-channel operand of `mul` ([1, C, 1, ...] beside x [1, C, ...]),
// and x; invalid when mul is not such a product.
struct ScaledInput {
  Endpoint x, scale;
};

ScaledInput ReadScaledInput(const Node& mul) {
  if (mul.type() != "Mul" || mul.num_inputs() != 2 || !NoControl(mul)) return {};
  for (size_t xi : {size_t{0}, size_t{1}}) {
    const Endpoint x = mul.InputSource(xi), s = mul.InputSource(Other(xi));
    if (!x.valid() || !s.valid()) return {};
    const TensorDesc& xd = x.node->output_desc(x.index);
    const TensorDesc& sd = s.node->output_desc(s.index);
    if (!IsF32(xd) || !IsF32(sd) || !xd.is_static() || xd.rank() < 3 || xd.dims[0] != 1) continue;
    if (mul.output_desc(0) != xd) continue;  // x is not broadcast
    std::vector<int64_t> per_channel(xd.dims.size(), 1);
    per_channel[1] = xd.dims[1];
    if (sd.dims == per_channel) return {x, s};
  }
  return {};
}

Result<bool> TryScaleConvInput(Graph& g, Node* mul, const PassContext& ctx) {
  const ScaledInput in = ReadScaledInput(*mul);
  if (!in.x.valid()) return false;
  Node* conv = SoleConsumer(*mul);
  if (!conv || conv->type() != "Conv" || conv->InputNode(0) != mul || conv->num_inputs() > 4) return false;
  if (conv->GetInt("group", 1) != 1 || !conv->HasInput(1)) return false;
  const TensorDesc& w = *conv->SourceDesc(1);
  if (!w.is_static() || w.NumElements() * 4 > mul->output_desc(0).NumElements()) return false;

  hal::KernelSpec spec = BuildKernelSpec(*conv);
  spec.inputs.resize(5);
  spec.inputs[4] = InfoOf(in.scale.node->output_desc(in.scale.index));
  if (!Supported(ctx, spec)) return false;

  GE_RETURN_IF_ERROR(SetInput(g, conv, 0, in.x.node, in.x.index));
  GE_RETURN_IF_ERROR(g.AddEdge(in.scale.node, in.scale.index, conv, 4));
  RemoveIfUnused(g, {mul});
  return true;
}

}  // namespace

Pass ConvInputScalePass() {
  return FusionPass("conv_input_scale", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryScaleConvInput(gr, n, ctx); });
  });
}

}  // namespace ge
