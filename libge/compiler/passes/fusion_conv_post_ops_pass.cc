// fusion: conv_post_ops. Conv (with its bias) followed by a residual Add of
// a same-shaped tensor and/or Relu / Clip (constant bounds) / Sigmoid becomes
// one Conv with "fused_sum" (the residual as input 3, oneDNN's sum post-op)
// and "activation" attributes: act(conv(x) + b + residual).
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using namespace fusion;

// The residual operand of `add` when it can become the conv's sum input:
// same shape as the conv result (no broadcast) and not computed from the
// conv itself (the fused node would then feed itself).
Endpoint Residual(const Node& add, const Node& conv) {
  if (add.type() != "Add" || add.num_inputs() != 2 || !NoControl(add)) return {};
  const int ci = InputIndexOf(add, conv);
  if (ci < 0) return {};
  const Endpoint r = add.InputSource(Other(ci));
  if (!r.valid() || r.node->output_desc(r.index) != conv.output_desc(0)) return {};
  if (add.output_desc(0) != conv.output_desc(0)) return {};
  if (DependsOn(r.node, &conv)) return {};
  return r;
}

Result<bool> TryFuseConvPostOps(Graph& g, Node* conv, const PassContext& ctx) {
  if (conv->type() != "Conv" || HasPostOps(*conv)) return false;
  if (conv->num_inputs() > 3 || !IsF32(conv->output_desc(0))) return false;
  Node* next = SoleConsumer(*conv);
  if (!next) return false;
  Node* add = nullptr;
  Endpoint res = Residual(*next, *conv);
  if (res.valid()) {
    add = next;
    next = SoleConsumer(*add);
  }
  std::map<std::string, AttrValue> act_attrs;
  Node* act = next && ActivationAttrs(*next, &act_attrs) ? next : nullptr;
  if (act && act->InputSource(0).node != (add ? add : conv)) act = nullptr;  // the activation's data input

  // Try the whole chain, then the sum alone, then the activation alone.
  struct Option {
    bool sum, act;
  };
  for (Option o : {Option{true, true}, Option{true, false}, Option{false, true}}) {
    if ((o.sum && !add) || (o.act && !act) || (o.act && !o.sum && add)) continue;
    hal::KernelSpec spec = BuildKernelSpec(*conv);
    if (o.sum) {
      spec.inputs.resize(4);
      spec.inputs[3] = InfoOf(res.node->output_desc(res.index));
      spec.attrs.Set(hal::kAttrFusedSum, int64_t{1});
    }
    if (o.act) ApplyAttrs(act_attrs, &spec);
    if (!Supported(ctx, spec)) continue;

    std::vector<Node*> dead;
    Node* last = conv;
    if (o.sum) {
      GE_RETURN_IF_ERROR(g.AddEdge(res.node, res.index, conv, 3));
      conv->SetAttr(hal::kAttrFusedSum, int64_t{1});
      last = add;
      dead.push_back(add);
    }
    if (o.act) {
      ApplyAttrs(act_attrs, conv);
      last = act;
      dead.push_back(act);
    }
    GE_RETURN_IF_ERROR(Redirect(g, last, conv));
    RemoveIfUnused(g, dead);
    return true;
  }
  return false;
}

}  // namespace

Pass ConvPostOpsPass() {
  return FusionPass("conv_post_ops", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseConvPostOps(gr, n, ctx); });
  });
}

}  // namespace ge
