// fusion: matmul_add_to_gemm. MatMul(A, B) + bias, with B 2-D and a constant
// bias broadcast along the last axis ([N], [1,N], [1,1,N] ...), becomes
//   Gemm(A, B, bias[N])             when A is 2-D
//   FusedMatMul(A, B, bias[N])      when A is N-D (BERT's [1,128,256] x [256,256])
// so the bias is added inside the oneDNN matmul instead of by a second pass
// over the result.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFuseMatmulAdd(Graph& g, Node* mm, const PassContext& ctx) {
  if (mm->type() != "MatMul" || mm->num_inputs() != 2 || mm->HasAttr(hal::kAttrActivation)) return false;
  const TensorDesc& y = mm->output_desc(0);
  // Dynamic models: unknown leading dims are fine, N must be known.
  if (!mm->HasInput(1) || !IsF32(y) || y.unknown_rank() || y.dims.empty() || y.dims.back() < 1) return false;
  const TensorDesc& bd = mm->InputNode(1)->output_desc(mm->InputSource(1).index);
  const TensorDesc& ad = mm->InputNode(0)->output_desc(mm->InputSource(0).index);
  if (bd.unknown_rank() || ad.unknown_rank() || bd.rank() != 2 || ad.rank() < 2) return false;
  const int64_t n = y.dims.back();
  Node* add = SoleConsumer(*mm);
  if (!add || add->type() != "Add" || add->num_inputs() != 2 || !NoControl(*add)) return false;
  const int mi = InputIndexOf(*add, *mm);
  if (mi < 0) return false;
  const Tensor* bias = ConstInput(*add, Other(mi));
  if (!bias || !IsF32(bias->desc()) || bias->desc().NumElements() != n || bias->desc().dims.empty() ||
      bias->desc().dims.back() != n)
    return false;
  if (add->output_desc(0) != y) return false;  // the bias must not broadcast the result up

  const char* fused = ad.rank() == 2 ? "Gemm" : "FusedMatMul";
  hal::KernelSpec spec = BuildKernelSpec(*mm);
  spec.op = fused;
  spec.inputs.push_back(hal::TensorInfo{DataType::kFloat32, {n}});
  if (!Supported(ctx, spec)) return false;

  Node* old_bias = add->InputNode(Other(mi));
  mm->set_type(fused);
  if (ad.rank() == 2) {
    mm->SetAttr("alpha", 1.0f);
    mm->SetAttr("beta", 1.0f);
    mm->SetAttr("transA", int64_t{0});
    mm->SetAttr("transB", int64_t{0});
  }
  // A [N] bias is used as it is (it may be shared); others get an [N] copy.
  Node* b = bias->desc().dims == std::vector<int64_t>{n} ? old_bias
                                                         : AddConst(g, mm->name() + "_bias", MakeF32({n}, F32Values(*bias)));
  GE_RETURN_IF_ERROR(g.AddEdge(b, 0, mm, 2));
  GE_RETURN_IF_ERROR(Redirect(g, add, mm));
  RemoveIfUnused(g, {add, old_bias});
  return true;
}

}  // namespace

Pass MatMulAddToGemmPass() {
  return FusionPass("matmul_add_to_gemm", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) { return TryFuseMatmulAdd(gr, n, ctx); });
  });
}

}  // namespace ge
