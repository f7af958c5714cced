// layout: conv_winograd. Asks for oneDNN's Winograd algorithm
// ("conv_algorithm" = "winograd") on the f32 3x3 stride-1 convolutions where
// it is faster than the direct kernels: it does 2.25x (F(2,3)) to 4x (F(4,3))
// fewer multiplications, at the price of transforming the input and output
// tiles, of weights 16/9 to 4x larger, and of reordering the activations
// into the nChw16c layout it reads (AVX-512 keeps them channels-last).
//
// Whether that pays depends on the shape; WinogradPays is the rule measured
// on AVX-512 (docs/passes.md has the table). The pass runs only when the
// target is this CPU and the CPU has the algorithm (hal Capabilities::
// winograd_conv): a .om moved to a CPU without it runs its convs direct.
// Winograd rounds differently from the direct sum (within 1e-5 relative on
// the reference models); --disable_pass conv_winograd keeps every conv direct.
#include <spdlog/spdlog.h>

#include "passes/fusion_util.h"
#include "passes/layout_passes.h"
#include "ge/ops/kernel_spec.h"
#include "hal/device.h"
#include "hal/fused_attrs.h"

namespace ge {

namespace {

// 2 threads, AMD EPYC (Zen 4), oneDNN 2.6: Winograd plus the reorders in and
// out against the direct brgemm kernel on channels-last tensors. It wins by
// 1.1-2x on large images when both channel counts are moderate; at 14x14 and
// 7x7 only the widest convs amortise its tile and weight overheads.
bool WinogradPays(int64_t ic, int64_t oc, int64_t oh, int64_t ow) {
  const double work_per_byte = static_cast<double>(ic) * oc / (ic + oc);  // arithmetic per activation moved
  const int64_t pixels = oh * ow;
  if (pixels >= 56 * 56) return work_per_byte >= 20;
  if (pixels >= 28 * 28) return work_per_byte >= 32;
  if (pixels >= 14 * 14) return ic >= 256 && oc >= 256;
  if (pixels >= 7 * 7) return ic >= 512 && oc >= 512;
  return false;
}

// A 2-D f32 3x3 convolution, stride 1, no dilation, group 1, pads of at most
// 1 (what oneDNN's Winograd kernels take), with static C, H and W.
bool WinogradCandidate(const Node& n) {
  if (n.type() != "Conv" || n.num_inputs() < 2 || n.HasAttr(hal::kAttrConvAlgorithm)) return false;
  const TensorDesc& x = n.InputSource(0).node->output_desc(n.InputSource(0).index);
  const TensorDesc& y = n.output_desc(0);
  if (!fusion::IsF32(x) || !fusion::IsF32(y) || x.unknown_rank() || x.rank() != 4 || y.rank() != 4) return false;
  for (size_t i = 1; i < 4; ++i)
    if (x.dims[i] <= 0 || y.dims[i] <= 0) return false;
  const Endpoint w = n.InputSource(1);
  const TensorDesc& wd = w.node->output_desc(w.index);
  if (wd.unknown_rank() || wd.rank() != 4 || wd.dims[2] != 3 || wd.dims[3] != 3) return false;
  if (n.GetInt("group", 1) != 1 || !fusion::AllEqual(n.GetInts("strides"), 1) ||
      !fusion::AllEqual(n.GetInts("dilations"), 1))
    return false;
  for (int64_t p : n.GetInts("pads", {0, 0, 0, 0}))
    if (p < 0 || p > 1) return false;
  return WinogradPays(x.dims[1], y.dims[1], y.dims[2], y.dims[3]);
}

Status RunConvWinograd(Graph& g, const PassContext& ctx) {
  if (!ctx.device) return Status::Ok();
  const hal::Capabilities& caps = ctx.device->capabilities();
  if (!caps.winograd_conv) return Status::Ok();
  if (TargetChannelBlock(ctx) != caps.channel_block) {
    spdlog::debug("conv_winograd: the target is not this CPU; every conv stays direct");
    return Status::Ok();
  }
  const std::string winograd = hal::ConvAlgorithmName(hal::ConvAlgorithm::kWinograd);
  size_t marked = 0;
  for (Node* n : g.nodes()) {
    if (!WinogradCandidate(*n)) continue;
    hal::KernelSpec spec = BuildKernelSpec(*n);
    spec.attrs.Set(hal::kAttrConvAlgorithm, winograd);
    if (!fusion::Supported(ctx, spec)) continue;
    n->SetAttr(hal::kAttrConvAlgorithm, winograd);
    ++marked;
  }
  if (marked) spdlog::debug("conv_winograd: {} convs", marked);
  return Status::Ok();
}

}  // namespace

Pass ConvWinogradPass() { return OptionalPass("conv_winograd", "layout", RunConvWinograd); }

}  // namespace ge
