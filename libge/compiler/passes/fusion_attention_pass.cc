// fusion: attention_fusion. Scaled dot-product attention
//   MatMul(Q', K') -> [scale] -> [Add mask] -> Softmax(last axis) -> MatMul(., V')
// becomes one FusedAttention(Q, K, V[, mask]) node (libge/ops/ops_attention.cc):
//   - scale: Div or Mul by a scalar constant on Q, on K or on the product
//     (several multiply up); none means 1. A non-scalar Div/Mul is no scale:
//     it stays and its result is the operand;
//   - mask: either operand of an Add after the scale (a scale after the Add
//     would scale the mask too, so it is not taken);
//   - a Transpose feeding Q', K' or V' (under the scale or above it) and one
//     consuming the result fold into the node as perms, i.e. strided views.
// Every node that disappears must be the sole consumer of what it reads from
// the chain (and no graph output), so each folded Transpose and intermediate
// has no other reader. That also keeps the rewrite acyclic: Q, K, V and the
// mask cannot depend on a node that is removed.
// The head-splitting Reshapes stay: they alias their input (no copy). The
// Slices of a packed QKV projection stay too (see docs/passes.md).
#include "hal/fused_attrs.h"
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

const TensorDesc& OutDesc(const Endpoint& e) { return e.node->output_desc(e.index); }

// n is Div(x, c) or Mul(x, c) / Mul(c, x) with a scalar constant c that does
// not broadcast x up: returns the factor and the index of x.
std::optional<std::pair<double, size_t>> ScalarScale(const Node& n) {
  if ((n.type() != "Div" && n.type() != "Mul") || n.num_inputs() != 2 || !NoControl(n)) return std::nullopt;
  for (size_t i = 0; i < 2; ++i) {
    if (n.type() == "Div" && i == 1) break;  // c / x is no scale
    std::optional<double> c = ScalarInput(n, Other(i));
    if (!c || !n.HasInput(i) || OutDesc(n.InputSource(i)) != n.output_desc(0)) continue;
    if (n.type() == "Div") {
      if (*c == 0.0) return std::nullopt;
      return std::make_pair(1.0 / *c, i);
    }
    return std::make_pair(*c, i);
  }
  return std::nullopt;
}

// One matrix operand walked back from its consumer: scalar scales and at
// most one Transpose, each read only by the node after it.
struct Operand {
  Endpoint src;                // what the fused node reads
  std::vector<int64_t> perm;   // empty: identity
  double scale = 1.0;
  std::vector<Node*> folded;
};

Operand WalkOperand(const Node& consumer, size_t input) {
  Operand op;
  op.src = consumer.InputSource(input);
  const Node* reader = &consumer;
  while (op.src.valid() && op.src.index == 0 && SoleConsumer(*op.src.node) == reader) {
    Node* n = op.src.node;
    if (auto s = ScalarScale(*n)) {
      op.scale *= s->first;
      op.src = n->InputSource(s->second);
    } else if (n->type() == "Transpose" && op.perm.empty() && NoControl(*n) && n->HasAttr("perm")) {
      op.perm = n->GetInts("perm");
      op.src = n->InputSource(0);
    } else {
      break;
    }
    op.folded.push_back(n);
    reader = n;
  }
  return op;
}

// The Softmax normalises the last axis (legacy opsets flatten from `axis`,
// which is the same when axis is the last one).
bool LastAxisSoftmax(const Node& sm) {
  const TensorDesc& y = sm.output_desc(0);
  if (y.unknown_rank() || y.dims.empty()) return false;
  const int64_t r = y.rank();
  const bool legacy = sm.GetInt("_opset", 13) < 13;
  int64_t axis = sm.GetInt("axis", legacy ? 1 : -1);
  if (axis < 0) axis += r;
  return axis == r - 1;
}

bool AllF32(std::initializer_list<const TensorDesc*> ds) {
  for (const TensorDesc* d : ds)
    if (!IsF32(*d)) return false;
  return true;
}

Result<bool> TryFuseAttention(Graph& g, Node* sm, const PassContext& ctx) {
  if (sm->type() != "Softmax" || !NoControl(*sm) || !sm->HasInput(0) || !LastAxisSoftmax(*sm)) return false;
  const TensorDesc& scores = sm->output_desc(0);
  if (!scores.is_static() || scores.rank() < 2) return false;
  std::vector<Node*> removed = {sm};

  // Backwards from the Softmax: [Add mask] <- [scales] <- MatMul.
  Endpoint cur = sm->InputSource(0);
  const Node* reader = sm;
  Endpoint mask;
  if (cur.index == 0 && cur.node->type() == "Add" && SoleConsumer(*cur.node) == reader &&
      cur.node->num_inputs() == 2 && cur.node->output_desc(0) == scores) {
    Node* add = cur.node;
    for (size_t i = 0; i < 2 && !mask.valid(); ++i) {
      Node* from = add->InputNode(i);
      if (from && add->InputSource(i).index == 0 && SoleConsumer(*from) == add &&
          (from->type() == "MatMul" || ScalarScale(*from))) {
        mask = add->InputSource(Other(i));
        cur = add->InputSource(i);
      }
    }
    if (!mask.valid() || !IsF32(OutDesc(mask))) return false;
    removed.push_back(add);
    reader = add;
  }
  double scale = 1.0;
  while (cur.index == 0 && SoleConsumer(*cur.node) == reader) {
    auto s = ScalarScale(*cur.node);
    if (!s) break;
    scale *= s->first;
    removed.push_back(cur.node);
    reader = cur.node;
    cur = cur.node->InputSource(s->second);
  }
  Node* qk = cur.node;
  if (cur.index != 0 || qk->type() != "MatMul" || qk->num_inputs() != 2 || SoleConsumer(*qk) != reader ||
      qk->HasAttr(hal::kAttrActivation) || OutDesc(cur) != scores)
    return false;
  removed.push_back(qk);

  // Forwards: MatMul(P, V) [-> Transpose].
  Node* pv = SoleConsumer(*sm);
  if (!pv || pv->type() != "MatMul" || pv->num_inputs() != 2 || InputIndexOf(*pv, *sm) != 0 ||
      pv->HasAttr(hal::kAttrActivation))
    return false;
  removed.push_back(pv);
  Node* last = pv;
  std::vector<int64_t> out_perm;
  if (Node* t = SoleConsumer(*pv); t && t->type() == "Transpose" && NoControl(*t) && t->HasAttr("perm")) {
    out_perm = t->GetInts("perm");
    last = t;
    removed.push_back(t);
  }

  Operand q = WalkOperand(*qk, 0), k = WalkOperand(*qk, 1), v = WalkOperand(*pv, 1);
  if (!q.src.valid() || !k.src.valid() || !v.src.valid()) return false;
  if (v.scale != 1.0) return false;  // the kernel has no scale for V
  scale *= q.scale * k.scale;
  const TensorDesc &qd = OutDesc(q.src), &kd = OutDesc(k.src), &vd = OutDesc(v.src);
  const TensorDesc& out = last->output_desc(0);
  // One rank everywhere (no MatMul rank broadcasting), static, f32.
  for (const TensorDesc* d : {&qd, &kd, &vd, &out})
    if (!d->is_static() || d->rank() != scores.rank()) return false;
  if (!AllF32({&qd, &kd, &vd, &out})) return false;

  Node* fused = g.AddNode("FusedAttention", g.MakeUniqueName(pv->name() + "_attention"), 0, 1);
  GE_RETURN_IF_ERROR(g.AddEdge(q.src.node, q.src.index, fused, 0));
  GE_RETURN_IF_ERROR(g.AddEdge(k.src.node, k.src.index, fused, 1));
  GE_RETURN_IF_ERROR(g.AddEdge(v.src.node, v.src.index, fused, 2));
  if (mask.valid()) GE_RETURN_IF_ERROR(g.AddEdge(mask.node, mask.index, fused, 3));
  fused->SetAttr("scale", static_cast<float>(scale));
  if (!q.perm.empty()) fused->SetAttr("q_perm", q.perm);
  if (!k.perm.empty()) fused->SetAttr("k_perm", k.perm);
  if (!v.perm.empty()) fused->SetAttr("v_perm", v.perm);
  if (!out_perm.empty()) fused->SetAttr("out_perm", out_perm);
  fused->output_desc(0) = out;
  // The backend checks the shapes fit and that oneDNN runs them fast.
  for (const Operand* o : {&q, &k, &v}) removed.insert(removed.end(), o->folded.begin(), o->folded.end());
  return ReplaceIfSupported(g, ctx, fused, last, removed);
}

}  // namespace

Pass AttentionFusionPass() {
  return FusionPass("attention_fusion", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseAttention(gr, n, ctx); });
  });
}

}  // namespace ge
