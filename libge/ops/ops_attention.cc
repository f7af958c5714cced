// FusedAttention(Q, K, V[, mask]), what attention_fusion makes of
//   Softmax(scale * (Q' x K') [+ mask], axis=-1) x V'
// where each operand X' is Transpose(X, x_perm) (absent perm: identity):
//   Q' = [batch..., Sq, D], K' = [batch..., D, Sk] (K given transposed, as
//   the MatMul takes it), V' = [batch..., Sk, Dv], and the result
//   [batch..., Sq, Dv] is stored as Transpose(result, out_perm).
// The perms describe strided views the kernel reads and writes in place of
// the Transposes the fusion folded. The mask broadcasts (unidirectionally)
// to [batch..., Sq, Sk]. Batch dims of Q', K', V' must be equal.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// The operand's perm attr, checked to be a permutation of [0, rank).
Result<Dims> ReadPerm(InferContext& ctx, const std::string& attr, size_t rank) {
  Dims perm = ctx.node().GetInts(attr);
  if (perm.empty()) {
    for (size_t i = 0; i < rank; ++i) perm.push_back(static_cast<int64_t>(i));
    return perm;
  }
  std::vector<bool> seen(rank, false);
  if (perm.size() != rank)
    return ctx.Error(attr + " " + infer::ValuesToString(perm) + " must have " + std::to_string(rank) + " entries");
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p])
      return ctx.Error(attr + " " + infer::ValuesToString(perm) + " is not a permutation");
    seen[p] = true;
  }
  return perm;
}

Dims Permuted(const Dims& d, const Dims& perm) {
  Dims out;
  for (int64_t p : perm) out.push_back(d[p]);
  return out;
}

// a and b agree where both are known; the known one wins.
bool Merge(int64_t a, int64_t b, int64_t* out) {
  if (a >= 0 && b >= 0 && a != b) return false;
  *out = a >= 0 ? a : b;
  return true;
}

Status InferFusedAttention(InferContext& ctx) {
  const bool has_mask = ctx.num_inputs() > 3 && ctx.has_input(3);
  std::vector<size_t> typed = {0, 1, 2};
  if (has_mask) typed.push_back(3);
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, typed));
  const TensorDesc &q = ctx.input(0), &k = ctx.input(1), &v = ctx.input(2);
  if (q.unknown_rank() || k.unknown_rank() || v.unknown_rank()) {
    infer::SetOutput(ctx, 0, t, infer::UnknownRank());
    return Status::Ok();
  }
  const size_t r = q.dims.size();
  if (r < 2 || k.dims.size() != r || v.dims.size() != r)
    return ctx.Error("Q " + q.ToString() + ", K " + k.ToString() + " and V " + v.ToString() +
                     " must have one rank >= 2");
  GE_ASSIGN_OR_RETURN(Dims qp, ReadPerm(ctx, "q_perm", r));
  GE_ASSIGN_OR_RETURN(Dims kp, ReadPerm(ctx, "k_perm", r));
  GE_ASSIGN_OR_RETURN(Dims vp, ReadPerm(ctx, "v_perm", r));
  GE_ASSIGN_OR_RETURN(Dims op, ReadPerm(ctx, "out_perm", r));
  const Dims ql = Permuted(q.dims, qp), kl = Permuted(k.dims, kp), vl = Permuted(v.dims, vp);
  Dims out(r);
  const std::string shapes = "Q' " + DimsToString(ql) + ", K' " + DimsToString(kl) + ", V' " + DimsToString(vl);
  for (size_t i = 0; i + 2 < r; ++i)
    if (!Merge(ql[i], kl[i], &out[i]) || !Merge(out[i], vl[i], &out[i]))
      return ctx.Error("batch dims differ: " + shapes);
  int64_t d = 0, sk = 0;
  if (!Merge(ql[r - 1], kl[r - 2], &d) || !Merge(kl[r - 1], vl[r - 2], &sk))
    return ctx.Error("inner dims differ: " + shapes);
  out[r - 2] = ql[r - 2];
  out[r - 1] = vl[r - 1];
  if (has_mask) {
    const TensorDesc& m = ctx.input(3);
    Dims scores(out.begin(), out.end() - 1);
    scores.push_back(sk);
    if (!m.unknown_rank()) {
      bool ok = m.dims.size() <= r;
      for (size_t i = 0; ok && i < m.dims.size(); ++i) {
        const int64_t md = m.dims[m.dims.size() - 1 - i], sd = scores[r - 1 - i];
        ok = md == 1 || md < 0 || sd < 0 || md == sd;
      }
      if (!ok) return ctx.Error("mask " + m.ToString() + " does not broadcast to the scores " + DimsToString(scores));
    }
  }
  infer::SetOutput(ctx, 0, t, Permuted(out, op));
  return Status::Ok();
}

}  // namespace

void RegisterAttentionOps(OpRegistry& r) {
  r.Register(OpBuilder("FusedAttention").Inputs(3, 4).Infer(InferFusedAttention));
}

}  // namespace ge
