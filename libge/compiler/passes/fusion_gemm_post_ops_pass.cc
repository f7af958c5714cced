// fusion: gemm_post_ops. Gemm / MatMul / FusedMatMul followed by Relu, Clip
// (constant bounds), Sigmoid or Gelu (erf) becomes the matrix product with an
// "activation" attribute, run as a oneDNN eltwise post-op.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFuseGemmPostOps(Graph& g, Node* mm, const PassContext& ctx) {
  const std::string& t = mm->type();
  if ((t != "Gemm" && t != "MatMul" && t != "FusedMatMul") || mm->HasAttr(hal::kAttrActivation)) return false;
  if (!IsF32(mm->output_desc(0))) return false;
  Node* act = SoleConsumer(*mm);
  std::map<std::string, AttrValue> attrs;
  if (!act || !NoControl(*act) || act->InputNode(0) != mm || !ActivationAttrs(*act, &attrs)) return false;
  if (act->output_desc(0) != mm->output_desc(0)) return false;
  hal::KernelSpec spec = BuildKernelSpec(*mm);
  ApplyAttrs(attrs, &spec);
  if (!Supported(ctx, spec)) return false;
  ApplyAttrs(attrs, mm);
  GE_RETURN_IF_ERROR(Redirect(g, act, mm));
  RemoveIfUnused(g, {act});
  return true;
}

}  // namespace

Pass GemmPostOpsPass() {
  return FusionPass("gemm_post_ops", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseGemmPostOps(gr, n, ctx); });
  });
}

}  // namespace ge
