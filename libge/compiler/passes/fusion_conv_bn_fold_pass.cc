// fusion: conv_bn_fold. An inference BatchNormalization right after a Conv
// becomes part of the Conv's weights and bias:
//   f = scale / sqrt(var + eps);  W' = W * f (per output channel);
//   b' = (b - mean) * f + B.
// Computed in double into new Const nodes (the old ones may be shared).
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFoldConvBnFold(Graph& g, Node* bn, const PassContext& ctx) {
  const std::optional<BnFactors> f = ReadInferenceBn(*bn);
  if (!f) return false;
  Node* conv = bn->InputNode(0);
  if (!conv || conv->type() != "Conv" || bn->InputSource(0).index != 0) return false;
  return FoldAffineIntoConv(g, conv, bn, *f, ctx);
}

}  // namespace

Pass ConvBnFoldPass() {
  return FusionPass("conv_bn_fold", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) -> Result<bool> {
      if (n->type() != "BatchNormalization") return false;
      return TryFoldConvBnFold(gr, n, ctx);
    });
  });
}

}  // namespace ge
