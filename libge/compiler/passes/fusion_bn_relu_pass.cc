// fusion: bn_relu_fusion. An inference BatchNormalization that no conv
// absorbed (conv_bn_fold runs first) is a per-channel affine map; with the
// Relu after it (DenseNet's pre-activation BN -> ReLU -> Conv) it becomes
// one ChannelAffine(x, scale, shift) with activation Relu: one pass over the
// tensor instead of two, and a kernel that runs in the conv's blocked or
// channels-last layout, so the layout stage puts no reorders around it.
// scale and shift are computed at compile time in double.
#include "hal/fused_attrs.h"
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFuseBnRelu(Graph& g, Node* bn, const PassContext& ctx) {
  if (bn->type() != "BatchNormalization" || !bn->HasInput(0)) return false;
  const Endpoint x = bn->InputSource(0);
  const TensorDesc& xd = x.node->output_desc(x.index);
  if (!IsF32(xd) || xd.unknown_rank() || xd.rank() < 3) return false;
  const std::optional<BnFactors> f = ReadInferenceBn(*bn);
  if (!f) return false;
  Node* relu = SoleConsumer(*bn);
  if (relu && (relu->type() != "Relu" || !NoControl(*relu))) relu = nullptr;

  const int64_t c = static_cast<int64_t>(f->mul.size());
  Node* scale = AddConst(g, bn->name() + "_scale", MakeF32({c}, f->mul));
  Node* shift = AddConst(g, bn->name() + "_shift", MakeF32({c}, f->add));
  Node* aff = g.AddNode("ChannelAffine", g.MakeUniqueName(bn->name() + "_affine"), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, aff, 0));
  GE_RETURN_IF_ERROR(g.AddEdge(scale, 0, aff, 1));
  GE_RETURN_IF_ERROR(g.AddEdge(shift, 0, aff, 2));
  aff->output_desc(0) = bn->output_desc(0);
  if (relu) aff->SetAttr(hal::kAttrActivation, std::string(hal::ActivationName(hal::FusedActivation::kRelu)));
  if (!Supported(ctx, *aff)) {
    RemoveIfUnused(g, {aff, scale, shift});
    return false;
  }
  GE_RETURN_IF_ERROR(Redirect(g, relu ? relu : bn, aff));
  RemoveIfUnused(g, relu ? std::vector<Node*>{relu, bn} : std::vector<Node*>{bn});
  return true;
}

}  // namespace

Pass BnReluFusionPass() {
  return FusionPass("bn_relu_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseBnRelu(gr, n, ctx); });
  });
}

}  // namespace ge
