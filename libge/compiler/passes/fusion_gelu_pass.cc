// fusion: gelu_fusion. The erf GELU x * 0.5 * (1 + erf(x / sqrt(2))) in the
// operand orders PyTorch and others export becomes one Gelu node:
//   scale: Div(x, 1.4142..) or Mul(x, 0.7071..) (either Mul operand order)
//   then Erf, Add(., 1) (either order), and the 0.5 either
//   (a) Mul(Mul(x, add), 0.5)   (b) Mul(Mul(x, 0.5), add)   (c) Mul(x, Mul(add, 0.5))
// Every intermediate must have no other consumer.
#include <cmath>

#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;


// Binary `n` (commutative Mul/Add) has `from` on one side and the constant
// `want` on the other.
bool WithConst(const Node& n, const Node& from, double want) {
  const int i = InputIndexOf(n, from);
  return i >= 0 && n.num_inputs() == 2 && Near(ScalarInput(n, Other(i)), want);
}

// n is Mul(x, c) (either order) with a constant c ≈ want: fills x.
bool MulOfX(const Node& n, const Endpoint& x, double want) {
  if (n.type() != "Mul" || n.num_inputs() != 2) return false;
  for (size_t i = 0; i < 2; ++i)
    if (n.InputSource(i) == x && Near(ScalarInput(n, Other(i)), want)) return true;
  return false;
}

// Mul(x, other) with `other` the output 0 of node `o`.
bool MulXAnd(const Node& n, const Endpoint& x, const Node& o) {
  if (n.type() != "Mul" || n.num_inputs() != 2) return false;
  const int i = InputIndexOf(n, o);
  return i >= 0 && n.InputSource(Other(i)) == x;
}

Result<bool> TryFuseGelu(Graph& g, Node* erf, const PassContext& ctx) {
  if (erf->type() != "Erf" || !NoControl(*erf)) return false;
  Node* scale = erf->InputNode(0);
  if (!scale || SoleConsumer(*scale) != erf || erf->InputSource(0).index != 0) return false;
  Endpoint x;
  if (scale->type() == "Div" && Near(ScalarInput(*scale, 1), std::sqrt(2.0))) {
    x = scale->InputSource(0);
  } else if (scale->type() == "Mul") {
    for (size_t i = 0; i < 2 && !x.valid(); ++i)
      if (Near(ScalarInput(*scale, Other(i)), std::sqrt(0.5))) x = scale->InputSource(i);
  }
  if (!x.valid() || !IsF32(x.node->output_desc(x.index))) return false;
  Node* add = SoleConsumer(*erf);
  if (!add || add->type() != "Add" || !WithConst(*add, *erf, 1.0)) return false;
  Node* m1 = SoleConsumer(*add);
  if (!m1 || m1->type() != "Mul") return false;

  std::vector<Node*> pattern = {scale, erf, add, m1};
  Node* last = nullptr;
  if (MulXAnd(*m1, x, *add)) {
    // (a) x * (1 + erf) then * 0.5
    Node* m2 = SoleConsumer(*m1);
    if (m2 && m2->type() == "Mul" && WithConst(*m2, *m1, 0.5)) {
      last = m2;
      pattern.push_back(m2);
    }
  } else if (WithConst(*m1, *add, 0.5)) {
    // (c) x * ((1 + erf) * 0.5)
    Node* m2 = SoleConsumer(*m1);
    if (m2 && MulXAnd(*m2, x, *m1)) {
      last = m2;
      pattern.push_back(m2);
    }
  } else {
    // (b) (x * 0.5) * (1 + erf)
    const int ai = InputIndexOf(*m1, *add);
    Node* half = ai >= 0 ? m1->InputNode(Other(ai)) : nullptr;
    if (half && m1->InputSource(Other(ai)).index == 0 && SoleConsumer(*half) == m1 && MulOfX(*half, x, 0.5)) {
      last = m1;
      pattern.push_back(half);
    }
  }
  if (!last || last->output_desc(0) != x.node->output_desc(x.index)) return false;

  Node* gelu = g.AddNode("Gelu", g.MakeUniqueName(last->name() + "_gelu"), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, gelu, 0));
  gelu->SetAttr("approximate", std::string("none"));
  gelu->output_desc(0) = last->output_desc(0);
  return ReplaceIfSupported(g, ctx, gelu, last, pattern);
}

}  // namespace

Pass GeluFusionPass() {
  return FusionPass("gelu_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseGelu(gr, n, ctx); });
  });
}

}  // namespace ge
