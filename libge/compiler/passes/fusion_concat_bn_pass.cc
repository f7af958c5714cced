// fusion: concat_bn_fusion. DenseNet joins every earlier layer's features
// with a channel Concat and normalises the result (BatchNorm -> ReLU, a
// ChannelAffine after bn_relu_fusion) before the next conv. The Concat's
// result is read only there, so writing it is wasted: Concat(axis 1) ->
// ChannelAffine becomes one ConcatAffine(parts..., scale, shift) that writes
// each part through the affine map straight into its place. Runs after
// bn_relu_fusion (it matches that pass's ChannelAffine).
#include "hal/fused_attrs.h"
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

// A channel Concat whose result only `reader` reads: its parts, else empty.
std::vector<Endpoint> ChannelParts(const Node& cat, const Node& reader) {
  if (cat.type() != "Concat" || SoleConsumer(cat) != &reader || !NoControl(cat)) return {};
  const TensorDesc& y = cat.output_desc(0);
  if (!IsF32(y) || y.unknown_rank() || y.rank() < 3) return {};
  const int64_t axis = cat.GetInt("axis", 0);
  if (axis != 1 && axis != 1 - y.rank()) return {};
  std::vector<Endpoint> parts;
  for (size_t i = 0; i < cat.num_inputs(); ++i) {
    if (!cat.HasInput(i)) return {};
    parts.push_back(cat.InputSource(i));
  }
  return parts;
}

Result<bool> TryFuseConcatBn(Graph& g, Node* aff, const PassContext& ctx) {
  if (aff->type() != "ChannelAffine" || !NoControl(*aff) || !aff->HasInput(1) || !aff->HasInput(2)) return false;
  Node* cat = aff->InputNode(0);
  if (!cat || aff->InputSource(0).index != 0) return false;
  const std::vector<Endpoint> parts = ChannelParts(*cat, *aff);
  if (parts.empty()) return false;
  const size_t k = parts.size();
  Node* fused = g.AddNode("ConcatAffine", g.MakeUniqueName(cat->name() + "_affine"), 0, 1);
  for (size_t i = 0; i < k; ++i) GE_RETURN_IF_ERROR(g.AddEdge(parts[i].node, parts[i].index, fused, static_cast<int>(i)));
  for (size_t i : {1, 2}) {
    const Endpoint p = aff->InputSource(i);
    GE_RETURN_IF_ERROR(g.AddEdge(p.node, p.index, fused, static_cast<int>(k + i - 1)));
  }
  fused->output_desc(0) = aff->output_desc(0);
  if (aff->HasAttr(hal::kAttrActivation)) fused->SetAttr(hal::kAttrActivation, aff->GetString(hal::kAttrActivation));
  return ReplaceIfSupported(g, ctx, fused, aff, {aff, cat});
}

}  // namespace

Pass ConcatBnFusionPass() {
  return FusionPass("concat_bn_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseConcatBn(gr, n, ctx); });
  });
}

}  // namespace ge
