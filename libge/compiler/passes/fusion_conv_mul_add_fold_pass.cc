// fusion: conv_mul_add_fold. A batch norm that stayed unfused (TF's
// tf.nn.batch_normalization chain, folded by constant_folding into
// Conv → Mul(scale) → Add(shift)) goes into the Conv as conv_bn_fold does a
// BatchNormalization: a Mul by per-channel constants scales W and b, an Add
// of them shifts b. Each folds on its own, so Conv → Mul → Add takes two
// steps of the fixpoint loop.
#include "passes/fusion_passes.h"
#include "passes/fusion_util.h"

namespace ge {
namespace {

using namespace fusion;

// The m per-channel values of a constant operand that broadcasts against a
// conv output of `rank` dims without growing it: every dim 1 except, at
// the channel axis (1), m. nullopt otherwise.
std::optional<std::vector<double>> PerChannel(const Tensor& c, int64_t rank, int64_t m) {
  if (!IsF32(c.desc())) return std::nullopt;
  const std::vector<int64_t>& d = c.desc().dims;
  const int64_t r = static_cast<int64_t>(d.size());
  if (r > rank) return std::nullopt;
  bool per_channel = false;
  for (int64_t i = 0; i < r; ++i) {
    const int64_t axis = rank - r + i;
    if (d[i] == 1) continue;
    if (axis != 1 || d[i] != m) return std::nullopt;
    per_channel = true;
  }
  std::vector<double> v = F32Values(c);
  if (!per_channel) v.assign(static_cast<size_t>(m), v.at(0));
  return v;
}

Result<bool> TryFoldConvMulAddFold(Graph& g, Node* op, const PassContext& ctx) {
  const bool mul = op->type() == "Mul";
  for (size_t i : {size_t{0}, size_t{1}}) {
    Node* conv = op->InputNode(i);
    if (!conv || conv->type() != "Conv" || op->InputSource(i).index != 0 || InputIndexOf(*op, *conv) < 0) continue;
    const Tensor* c = ConstInput(*op, Other(i));
    const TensorDesc& y = conv->output_desc(0);
    if (!c || !NoControl(*op) || op->output_desc(0).dims != y.dims || y.rank() < 3) return false;
    const std::optional<std::vector<double>> v = PerChannel(*c, y.rank(), y.dims[1]);
    if (!v) return false;
    BnFactors f;
    f.mul = mul ? *v : std::vector<double>(v->size(), 1.0);
    f.add = mul ? std::vector<double>(v->size(), 0.0) : *v;
    return FoldAffineIntoConv(g, conv, op, f, ctx);
  }
  return false;
}

}  // namespace

Pass ConvMulAddFoldPass() {
  return FusionPass("conv_mul_add_fold", [](Graph& g, const PassContext& ctx) {
    return RunToFixpoint(g, [&](Graph& gr, Node* n) -> Result<bool> {
      if (n->type() != "Mul" && n->type() != "Add") return false;
      return TryFoldConvMulAddFold(gr, n, ctx);
    });
  });
}

}  // namespace ge
