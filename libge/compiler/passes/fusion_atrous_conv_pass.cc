// fusion: atrous_conv. TF 1.x builds a dilated convolution as
//   SpaceToBatchND(block b, pads) → Conv (stride 1, no dilation, VALID) → BatchToSpaceND(b, crops):
// the conv runs once per phase of the b×b grid. That is one Conv with
// dilations = b and, per axis, pads begin = pad_begin - crop_begin and end =
// pad_end - crop_end: output position i reads input i - begin + k·b in both.
// Fires only when the pattern matches exactly (same block, unit strides
// and dilations, zero conv pads, non-negative resulting pads).
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"

namespace ge {
namespace {

using namespace fusion;

// The Conv between the two: plain, VALID, unit strides and dilations.
bool PlainValidConv(const Node& conv) {
  if (HasPostOps(conv)) return false;
  const std::string pad = conv.GetString("auto_pad", "NOTSET");
  return (pad == "NOTSET" || pad == "VALID") && AllEqual(conv.GetInts("pads"), 0) &&
         AllEqual(conv.GetInts("strides"), 1) && AllEqual(conv.GetInts("dilations"), 1) &&
         conv.output_desc(0).rank() == 4;
}

Result<bool> TryFuseAtrousConv(Graph& g, Node* b2s, const PassContext& ctx) {
  Node* conv = b2s->InputNode(0);
  if (!conv || conv->type() != "Conv" || b2s->InputSource(0).index != 0 || SoleConsumer(*conv) != b2s) return false;
  Node* s2b = conv->InputNode(0);
  if (!s2b || s2b->type() != "SpaceToBatchND" || conv->InputSource(0).index != 0 || SoleConsumer(*s2b) != conv)
    return false;
  if (!PlainValidConv(*conv) || !NoControl(*b2s)) return false;
  const std::vector<int64_t> block = s2b->GetInts("block_shape");
  if (block.size() != 2 || b2s->GetInts("block_shape") != block) return false;
  const std::vector<int64_t> pads = s2b->GetInts("pads", {0, 0, 0, 0});
  const std::vector<int64_t> crops = b2s->GetInts("crops", {0, 0, 0, 0});
  if (pads.size() != 4 || crops.size() != 4) return false;
  std::vector<int64_t> conv_pads;
  for (size_t k = 0; k < 4; ++k) {
    conv_pads.push_back(pads[k] - crops[k]);
    if (conv_pads.back() < 0) return false;
  }
  const std::map<std::string, AttrValue> attrs = {
      {"dilations", block}, {"pads", conv_pads}, {"auto_pad", std::string("NOTSET")}};
  const Endpoint x = s2b->InputSource(0);
  hal::KernelSpec spec = BuildKernelSpec(*conv);
  spec.inputs[0] = InfoOf(x.node->output_desc(static_cast<size_t>(x.index)));
  spec.outputs[0] = InfoOf(b2s->output_desc(0));
  ApplyAttrs(attrs, &spec);
  if (!Supported(ctx, spec)) return false;

  GE_RETURN_IF_ERROR(SetInput(g, conv, 0, x.node, x.index));
  ApplyAttrs(attrs, conv);
  conv->output_desc(0) = b2s->output_desc(0);
  GE_RETURN_IF_ERROR(Redirect(g, b2s, conv));
  RemoveIfUnused(g, {b2s, s2b});
  return true;
}

}  // namespace

Pass AtrousConvPass() {
  return FusionPass("atrous_conv", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) -> Result<bool> {
      if (n->type() != "BatchToSpaceND") return false;
      return TryFuseAtrousConv(gr, n, ctx);
    });
  });
}

}  // namespace ge
