// fusion: gemm_bn_fold. An inference BatchNormalization on a Gemm's [M,N]
// result (channel = column n) folds into B and C:
//   BN(alpha*A*B + beta*C) = alpha*A*(B*f) + ((beta*C - mean)*f + Bbn)
// with f = scale/sqrt(var+eps) per column; the new Gemm has beta = 1.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"
#include "ge/ops/kernel_spec.h"
#include "hal/fused_attrs.h"

namespace ge {
namespace {

using namespace fusion;

Result<bool> TryFoldGemmBnFold(Graph& g, Node* bn, const PassContext& ctx) {
  const std::optional<BnFactors> f = ReadInferenceBn(*bn);
  if (!f) return false;
  Node* gemm = bn->InputNode(0);
  if (!gemm || gemm->type() != "Gemm" || bn->InputSource(0).index != 0 || SoleConsumer(*gemm) != bn) return false;
  if (gemm->HasAttr(hal::kAttrActivation)) return false;  // BN would have to run after the activation
  const TensorDesc& y = gemm->output_desc(0);
  if (y.rank() != 2 || !y.is_static()) return false;
  const int64_t m = y.dims[0], n = y.dims[1];
  if (n != static_cast<int64_t>(f->mul.size())) return false;
  const Tensor* b = ConstInput(*gemm, 1);
  if (!b || !IsF32(b->desc()) || b->desc().rank() != 2) return false;
  const bool tb = gemm->GetInt("transB", 0) != 0;
  const double beta = gemm->GetFloat("beta", 1.0f);
  // C as [rows, cols] with broadcast dims 1; absent C is zero.
  int64_t cr = 1, cc = 1;
  std::vector<double> cv = {0.0};
  if (gemm->HasInput(2)) {
    const Tensor* c = ConstInput(*gemm, 2);
    if (!c || !IsF32(c->desc()) || c->desc().rank() > 2) return false;
    const auto& d = c->desc().dims;
    if (d.size() == 2) cr = d[0];
    if (!d.empty()) cc = d.back();
    if ((cr != 1 && cr != m) || (cc != 1 && cc != n)) return false;
    cv = F32Values(*c);
  }
  std::vector<int64_t> new_c_dims = cr == 1 ? std::vector<int64_t>{n} : std::vector<int64_t>{m, n};
  hal::KernelSpec spec = BuildKernelSpec(*gemm);
  spec.inputs.resize(3);
  spec.inputs[2] = hal::TensorInfo{DataType::kFloat32, new_c_dims};
  spec.attrs.Set("beta", 1.0);
  if (!Supported(ctx, spec)) return false;

  std::vector<double> bv = F32Values(*b);
  const int64_t k = tb ? b->desc().dims[1] : b->desc().dims[0];
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) bv[tb ? j * k + i : i * n + j] *= f->mul[j];
  std::vector<double> nc(static_cast<size_t>(cr * n));
  for (int64_t i = 0; i < cr; ++i)
    for (int64_t j = 0; j < n; ++j)
      nc[i * n + j] = beta * cv[(cr == 1 ? 0 : i) * cc + (cc == 1 ? 0 : j)] * f->mul[j] + f->add[j];
  gemm->SetAttr("beta", 1.0f);
  GE_RETURN_IF_ERROR(
      ReplaceWithFoldedBn(g, gemm, bn, "B", MakeF32(b->desc().dims, bv), "C", MakeF32(new_c_dims, nc)));
  return true;
}

}  // namespace

Pass GemmBnFoldPass() {
  return FusionPass("gemm_bn_fold", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) -> Result<bool> {
      if (n->type() != "BatchNormalization") return false;
      return TryFoldGemmBnFold(gr, n, ctx);
    });
  });
}

}  // namespace ge
