// fusion: silu_fusion. SiLU as exporters write it, Mul(x, Sigmoid(x)) in
// either operand order (EfficientNet, YOLO, GPT-style MLPs), becomes one
// Swish node: one pass over the tensor instead of two and a temporary, and
// after a Conv or Gemm a post-op of it (conv_post_ops, gemm_post_ops: oneDNN's
// eltwise_swish). The Sigmoid must have no other consumer.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFuseSilu(Graph& g, Node* sig, const PassContext& ctx) {
  if (sig->type() != "Sigmoid" || !NoControl(*sig) || !sig->HasInput(0)) return false;
  const Endpoint x = sig->InputSource(0);
  if (!IsF32(x.node->output_desc(x.index))) return false;
  Node* mul = SoleConsumer(*sig);
  if (!mul || mul->type() != "Mul" || mul->num_inputs() != 2 || !NoControl(*mul)) return false;
  const int si = InputIndexOf(*mul, *sig);
  if (si < 0 || !(mul->InputSource(Other(si)) == x)) return false;
  if (mul->output_desc(0) != x.node->output_desc(x.index)) return false;  // no broadcast
  Node* swish = g.AddNode("Swish", g.MakeUniqueName(mul->name() + "_swish"), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, swish, 0));
  swish->output_desc(0) = mul->output_desc(0);
  return ReplaceIfSupported(g, ctx, swish, mul, {mul, sig});
}

}  // namespace

Pass SiluFusionPass() {
  return FusionPass("silu_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseSilu(gr, n, ctx); });
  });
}

}  // namespace ge
