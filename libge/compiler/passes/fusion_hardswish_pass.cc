// fusion: hardswish_fusion. HardSwish and HardSigmoid as exporters write
// them become the single ops, which the post-op passes then take into the
// producing Conv/Gemm (oneDNN eltwise_hardswish; linear + clip for the
// sigmoid):
//   Mul(x, HardSigmoid(x; alpha 1/6, beta 1/2))          -> HardSwish(x)
//     (torch.onnx at opset < 14, which has no HardSwish op)
//   Div(Clip(Add(x, 3), 0, 6), 6) or Mul(., 1/6)           -> HardSigmoid(x, 1/6, 1/2)
//   Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6) or Mul(., 1/6)   -> HardSwish(x)
// Operands of Add and Mul in either order; every intermediate must have no
// other consumer; the Mul by x must not broadcast.
#include <cmath>

#include "hal/fused_attrs.h"
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

bool NearF(float v, double want) { return Near(std::optional<double>(v), want); }

// n divides its input 0 by 6, or multiplies either operand by 1/6: the
// other operand (the scaled one), else an invalid endpoint.
Endpoint SixthOf(const Node& n) {
  if (n.num_inputs() != 2 || !NoControl(n)) return {};
  if (n.type() == "Div" && Near(ScalarInput(n, 1), 6.0)) return n.InputSource(0);
  if (n.type() != "Mul") return {};
  for (size_t i = 0; i < 2; ++i)
    if (Near(ScalarInput(n, Other(i)), 1.0 / 6.0)) return n.InputSource(i);
  return {};
}

// Clip(Add(x, 3), 0, 6) with a single-use Add: x, else invalid.
Endpoint Relu6OfXPlus3(const Node& clip) {
  std::map<std::string, AttrValue> a;
  if (clip.type() != "Clip" || !NoControl(clip) || !ActivationAttrs(clip, &a)) return {};
  if (std::abs(std::get<float>(a[hal::kAttrActivationMin])) > 1e-6f ||
      !NearF(std::get<float>(a[hal::kAttrActivationMax]), 6.0))
    return {};
  Node* add = clip.InputNode(0);
  if (!add || add->type() != "Add" || add->num_inputs() != 2 || SoleConsumer(*add) != &clip) return {};
  for (size_t i = 0; i < 2; ++i)
    if (Near(ScalarInput(*add, Other(i)), 3.0)) return add->InputSource(i);
  return {};
}

// Replaces `last` (and the pattern nodes only it used) by op(x).
Result<bool> Replace(Graph& g, const PassContext& ctx, const std::string& op, const Endpoint& x, Node* last,
                     const std::vector<Node*>& dead) {
  if (!IsF32(x.node->output_desc(x.index)) || last->output_desc(0) != x.node->output_desc(x.index)) return false;
  Node* n = g.AddNode(op, g.MakeUniqueName(last->name() + "_" + op), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, n, 0));
  n->output_desc(0) = last->output_desc(0);
  if (op == "HardSigmoid") {
    n->SetAttr("alpha", 1.0f / 6.0f);
    n->SetAttr("beta", 0.5f);
  }
  return ReplaceIfSupported(g, ctx, n, last, dead);
}

// Mul(x, gate) in either order where gate is output 0 of `gate`: x's
// endpoint, else invalid.
Endpoint TimesOwnInput(const Node& mul, const Node& gate, const Endpoint& x) {
  if (mul.type() != "Mul" || mul.num_inputs() != 2 || !NoControl(mul)) return {};
  const int gi = InputIndexOf(mul, gate);
  if (gi < 0 || !(mul.InputSource(Other(gi)) == x)) return {};
  return x;
}

Result<bool> FromHardSigmoid(Graph& g, Node* hs, const PassContext& ctx) {
  if (!hs->HasInput(0) || !NearF(hs->GetFloat("alpha", 0.2f), 1.0 / 6.0) || !NearF(hs->GetFloat("beta", 0.5f), 0.5))
    return false;
  Node* mul = SoleConsumer(*hs);
  const Endpoint x = hs->InputSource(0);
  if (!mul || !TimesOwnInput(*mul, *hs, x).valid()) return false;
  return Replace(g, ctx, "HardSwish", x, mul, {mul, hs});
}

Result<bool> FromClip(Graph& g, Node* clip, const PassContext& ctx) {
  const Endpoint x = Relu6OfXPlus3(*clip);
  Node* next = x.valid() ? SoleConsumer(*clip) : nullptr;
  if (!next) return false;
  Node* add = clip->InputNode(0);
  // (x + 3) clipped, / 6: the hard sigmoid (a later round may make it a HardSwish).
  const Endpoint scaled = SixthOf(*next);
  if (scaled.valid() && scaled.node == clip) return Replace(g, ctx, "HardSigmoid", x, next, {next, clip, add});
  // x * relu6(x + 3), / 6.
  if (!TimesOwnInput(*next, *clip, x).valid()) return false;
  Node* div = SoleConsumer(*next);
  if (!div || SixthOf(*div).node != next) return false;
  return Replace(g, ctx, "HardSwish", x, div, {div, next, clip, add});
}

Result<bool> TryFuseHardswish(Graph& g, Node* n, const PassContext& ctx) {
  if (n->type() == "HardSigmoid" && NoControl(*n)) return FromHardSigmoid(g, n, ctx);
  if (n->type() == "Clip") return FromClip(g, n, ctx);
  return false;
}

}  // namespace

Pass HardSwishFusionPass() {
  return FusionPass("hardswish_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseHardswish(gr, n, ctx); });
  });
}

}  // namespace ge
