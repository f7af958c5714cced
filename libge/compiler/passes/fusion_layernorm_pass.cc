// fusion: layernorm_fusion. The decomposed LayerNorm PyTorch exports
//   m = ReduceMean(x, [-1]); d = x - m; v = ReduceMean(Pow(d, 2), [-1]);
//   y = d / Sqrt(v + eps) [* gamma] [+ beta]
// becomes one LayerNormalization(x, gamma, beta, axis=-1, epsilon=eps).
// Only the last axis (what LayerNormalization with one axis computes), both
// means over the same axis with keepdims, exponent exactly 2, a constant
// scalar epsilon, and constant gamma/beta over the last axis only.
#include <algorithm>

#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

// True when r is ReduceMean over exactly the last axis of a rank-`rank` input
// with keepdims=1 (axes from the attribute, or from input 1 since opset 18).
bool MeanOverLastAxis(const Node& r, int64_t rank) {
  if (r.type() != "ReduceMean" || r.GetInt("keepdims", 1) != 1 || !NoControl(r)) return false;
  std::vector<int64_t> axes;
  if (r.HasInput(1)) {
    const Tensor* t = ConstInput(r, 1);
    if (!t || r.HasAttr("axes")) return false;
    axes = t->ToInt64();
  } else {
    axes = r.GetInts("axes");
  }
  if (axes.size() != 1) return false;  // no axes = all axes; several = not one-axis LayerNorm
  const int64_t a = axes[0] < 0 ? axes[0] + rank : axes[0];
  return a == rank - 1;
}

// The constant operand of a binary `n` whose other input is `from`; its
// values when they broadcast along the last axis only (dims [1,..,1,d]).
std::optional<std::vector<double>> LastAxisConst(const Node& n, const Node& from, int64_t d) {
  const int i = InputIndexOf(n, from);
  if (i < 0 || n.num_inputs() != 2) return std::nullopt;
  const Tensor* t = ConstInput(n, Other(i));
  if (!t || !IsF32(t->desc()) || t->desc().NumElements() != d) return std::nullopt;
  const auto& dims = t->desc().dims;
  if (dims.empty() || dims.back() != d) return std::nullopt;
  return F32Values(*t);
}

Result<bool> TryFuseLayernorm(Graph& g, Node* r1, const PassContext& ctx) {
  if (r1->type() != "ReduceMean" || !r1->HasInput(0)) return false;
  const Endpoint x = r1->InputSource(0);
  const TensorDesc& xd = x.node->output_desc(x.index);
  // A dynamic model's x may have unknown dims (batch, sequence) but its rank
  // and normalised (last) dim are known.
  if (!IsF32(xd) || xd.unknown_rank() || xd.rank() < 1 || xd.dims.back() < 1) return false;
  const int64_t rank = xd.rank(), d = xd.dims.back();
  if (!MeanOverLastAxis(*r1, rank)) return false;
  Node* sub = SoleConsumer(*r1);
  if (!sub || sub->type() != "Sub" || !(sub->InputSource(0) == x) || sub->InputNode(1) != r1 ||
      sub->InputSource(1).index != 0 || !NoControl(*sub))
    return false;
  // d = x - mean feeds Pow and Div, nothing else.
  const auto& uses = sub->OutputConsumers(0);
  if (uses.size() != 2) return false;
  Node* pow = nullptr;
  Node* div = nullptr;
  for (const Endpoint& u : uses) {
    if (u.node->type() == "Pow" && u.index == 0) pow = u.node;
    if (u.node->type() == "Div" && u.index == 0) div = u.node;
  }
  if (!pow || !div) return false;
  const std::optional<double> e = ScalarInput(*pow, 1);
  if (!e || *e != 2.0) return false;
  Node* r2 = SoleConsumer(*pow);
  if (!r2 || !MeanOverLastAxis(*r2, rank) || r2->InputNode(0) != pow) return false;
  Node* add = SoleConsumer(*r2);
  if (!add || add->type() != "Add") return false;
  const int vi = InputIndexOf(*add, *r2);
  if (vi < 0) return false;
  const std::optional<double> eps = ScalarInput(*add, Other(vi));
  if (!eps) return false;
  Node* sqrt = SoleConsumer(*add);
  if (!sqrt || sqrt->type() != "Sqrt" || SoleConsumer(*sqrt) != div || div->InputNode(1) != sqrt) return false;

  // Optional affine part: Mul by gamma, then Add beta.
  Node* last = div;
  std::vector<Node*> pattern = {r1, sub, pow, r2, add, sqrt, div};
  std::vector<double> gamma(d, 1.0), beta;
  Node* mul = SoleConsumer(*div);
  std::optional<std::vector<double>> gv;
  if (mul && mul->type() == "Mul" && (gv = LastAxisConst(*mul, *div, d))) {
    gamma = *gv;
    last = mul;
    pattern.push_back(mul);
    Node* badd = SoleConsumer(*mul);
    std::optional<std::vector<double>> bv;
    if (badd && badd->type() == "Add" && (bv = LastAxisConst(*badd, *mul, d))) {
      beta = *bv;
      last = badd;
      pattern.push_back(badd);
    }
  }
  if (last->output_desc(0) != xd) return false;  // gamma/beta must not broadcast x up

  Node* ln = g.AddNode("LayerNormalization", g.MakeUniqueName(last->name() + "_layernorm"), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(x.node, x.index, ln, 0));
  // Constants already [D] are reused (they may be shared between layers).
  auto param = [&](Node* op, Node* from, const std::vector<double>& v, const char* suffix) {
    if (op) {
      const int i = InputIndexOf(*op, *from);
      Node* c = op->InputNode(Other(i));
      if (c->output_desc(0).dims == std::vector<int64_t>{d}) return c;
    }
    return AddConst(g, ln->name() + suffix, MakeF32({d}, v));
  };
  GE_RETURN_IF_ERROR(g.AddEdge(param(last == div ? nullptr : mul, div, gamma, "_scale"), 0, ln, 1));
  if (!beta.empty()) GE_RETURN_IF_ERROR(g.AddEdge(param(last, mul, beta, "_bias"), 0, ln, 2));
  ln->SetAttr("axis", int64_t{-1});
  ln->SetAttr("epsilon", static_cast<float>(*eps));
  ln->output_desc(0) = xd;
  return ReplaceIfSupported(g, ctx, ln, last, pattern);
}

}  // namespace

Pass LayerNormFusionPass() {
  return FusionPass("layernorm_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseLayernorm(gr, n, ctx); });
  });
}

}  // namespace ge
