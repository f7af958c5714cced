// FusedAttention (libge/ops/ops_attention.cc) in three oneDNN primitives:
//   1. matmul scores = scale * Q' x K' (+ mask as a binary add post-op)
//   2. softmax over the last axis of the scores, in place
//   3. matmul out' = scores x V'
// In bf16 (Q, K, V bf16; --precision_mode allow_mix_precision) the scores
// stay f32 and the softmax computes in f32, writing its probabilities in
// bf16 for the second matmul; the output is bf16 or f32, as the spec says.
// Q', K', V' and out' are strided views of the given tensors (their perms),
// so the Transposes the compiler folded cost nothing. The scores
// [batch..., Sq, Sk] live in a buffer the kernel owns (the HAL has no
// shared workspace).
//
// oneDNN picks a reference implementation for some strides and mask
// broadcasts, which runs tens of times slower than a copy: a mask it does
// not broadcast fast is expanded to the full scores shape, and a spec whose
// primitives would still be reference ones is unsupported, so the compiler
// keeps the unfused graph.
#include <cstring>

#include "cpu_kernels.h"
#include "kernels/dnnl_context.h"
#include "kernels/loop_broadcast.h"

namespace ge::hal {
namespace {

using namespace dnnl_util;
using dims = std::vector<int64_t>;
using md = dnnl::memory::desc;

// The perm attribute (identity when absent), checked.
Result<dims> Perm(const KernelSpec& spec, const char* attr, size_t rank) {
  dims p = spec.attrs.GetInts(attr);
  if (p.empty())
    for (size_t i = 0; i < rank; ++i) p.push_back(static_cast<int64_t>(i));
  std::vector<bool> seen(rank, false);
  bool ok = p.size() == rank;
  for (size_t i = 0; ok && i < p.size(); ++i) {
    ok = p[i] >= 0 && p[i] < static_cast<int64_t>(rank) && !seen[p[i]];
    if (ok) seen[p[i]] = true;
  }
  if (!ok)
    return InvalidArgument(std::string("FusedAttention: ") + attr + " " + DimsString(p) + " is not a permutation");
  return p;
}

// Transpose(x, perm) as a view of x: logical dims with x's strides.
md ReadView(const dims& x, const dims& perm, dnnl::memory::data_type t) {
  const dims s = loop::Strides(x);
  dims ld, ls;
  for (int64_t p : perm) {
    ld.push_back(x[p]);
    ls.push_back(s[p]);
  }
  return md(ToDims(ld), t, ToDims(ls));
}

// The logical result stored as y = Transpose(result, perm): logical axis
// perm[j] advances by y's stride j.
md WriteView(const dims& y, const dims& perm, dnnl::memory::data_type t) {
  const dims s = loop::Strides(y);
  dims ld(y.size()), ls(y.size());
  for (size_t j = 0; j < perm.size(); ++j) {
    ld[perm[j]] = y[j];
    ls[perm[j]] = s[j];
  }
  return md(ToDims(ld), t, ToDims(ls));
}

struct AttentionPlan {
  md q, k, v, out, scores;
  md probs;  // the softmax's output: the scores in place (f32), or a bf16 buffer
  dims score_dims;
  dims mask_dims;  // rank-aligned to the scores (broadcast dims 1); empty: no mask
  float scale = 1.0f;
};

// What the attention fusion pass sets.
const KnownAttrs kAttentionKnownAttrs({"k_perm", "out_perm", "q_perm", "scale", "v_perm"}, /*with_activation=*/false);

Result<AttentionPlan> PlanAttention(const KernelSpec& spec) {
  GE_RETURN_IF_ERROR(kAttentionKnownAttrs.Check(spec));
  const size_t n_in = spec.inputs.size();
  if (n_in < 3 || n_in > 4) return InvalidArgument("FusedAttention takes Q, K, V and an optional mask");
  GE_RETURN_IF_ERROR(RequireOutputs(spec, 1, "FusedAttention has one output"));
  GE_RETURN_IF_ERROR(RequireStaticFloat(spec));
  const DataType qkv = spec.inputs[0].dtype;
  if (spec.inputs[1].dtype != qkv || spec.inputs[2].dtype != qkv)
    return Unsupported("FusedAttention: Q, K and V of different types");
  if (n_in == 4 && spec.inputs[3].present() && spec.inputs[3].dtype != DataType::kFloat32)
    return Unsupported("FusedAttention: a mask that is not f32");
  const dnnl::memory::data_type in_t = ToDnnl(qkv), out_t = ToDnnl(spec.outputs[0].dtype);
  const dims &q = spec.inputs[0].dims, &k = spec.inputs[1].dims, &v = spec.inputs[2].dims;
  const size_t r = q.size();
  if (r < 2 || k.size() != r || v.size() != r || spec.outputs[0].dims.size() != r)
    return InvalidArgument("FusedAttention: Q " + DimsString(q) + ", K " + DimsString(k) + ", V " + DimsString(v) +
                           " and the output must have one rank >= 2");
  if (r > DNNL_MAX_NDIMS) return Unsupported("FusedAttention: rank above " + std::to_string(DNNL_MAX_NDIMS));
  AttentionPlan p;
  GE_ASSIGN_OR_RETURN(dims qp, Perm(spec, "q_perm", r));
  GE_ASSIGN_OR_RETURN(dims kp, Perm(spec, "k_perm", r));
  GE_ASSIGN_OR_RETURN(dims vp, Perm(spec, "v_perm", r));
  GE_ASSIGN_OR_RETURN(dims op, Perm(spec, "out_perm", r));
  p.q = ReadView(q, qp, in_t);
  p.k = ReadView(k, kp, in_t);
  p.v = ReadView(v, vp, in_t);
  p.out = WriteView(spec.outputs[0].dims, op, out_t);
  const auto ql = p.q.dims(), kl = p.k.dims(), vl = p.v.dims(), ol = p.out.dims();
  bool ok = ql[r - 1] == kl[r - 2] && kl[r - 1] == vl[r - 2] && ol[r - 2] == ql[r - 2] && ol[r - 1] == vl[r - 1];
  for (size_t i = 0; ok && i + 2 < r; ++i) ok = ql[i] == kl[i] && ql[i] == vl[i] && ql[i] == ol[i];
  if (!ok)
    return InvalidArgument("FusedAttention: Q' " + DimsString(ql) + ", K' " + DimsString(kl) + ", V' " +
                           DimsString(vl) + " and the output' " + DimsString(ol) + " do not fit");
  if (ql[r - 1] == 0 || kl[r - 1] == 0) return Unsupported("FusedAttention: empty inner or key dimension");
  p.score_dims = dims(ql.begin(), ql.end() - 1);
  p.score_dims.push_back(kl[r - 1]);
  p.scores = PlainDesc(p.score_dims);
  p.probs = PlainDesc(p.score_dims, in_t);
  p.scale = spec.attrs.GetFloat("scale", 1.0f);
  if (n_in == 4 && spec.inputs[3].present()) {
    const dims& m = spec.inputs[3].dims;
    if (m.size() > r) return InvalidArgument("FusedAttention: mask " + DimsString(m) + " has a rank above the scores'");
    p.mask_dims = dims(r - m.size(), 1);
    p.mask_dims.insert(p.mask_dims.end(), m.begin(), m.end());
    for (size_t i = 0; i < r; ++i)
      if (p.mask_dims[i] != 1 && p.mask_dims[i] != p.score_dims[i])
        return InvalidArgument("FusedAttention: mask " + DimsString(m) + " does not broadcast to the scores " +
                               DimsString(p.score_dims));
  }
  return p;
}

// The three primitive descriptors, and whether the mask had to be expanded
// to the full scores shape for oneDNN to fuse it with a fast kernel.
struct AttentionPds {
  dnnl::matmul::primitive_desc qk, pv;
  dnnl::softmax_v2_forward::primitive_desc softmax;
  bool expand_mask = false;
};

dnnl::matmul::primitive_desc ScoresPd(const AttentionPlan& p, const md* mask) {
  dnnl::primitive_attr attr = ScratchpadAttr();
  if (p.scale != 1.0f) attr.set_output_scales(0, {p.scale});
  if (mask) {
    dnnl::post_ops ops;
    ops.append_binary(dnnl::algorithm::binary_add, *mask);
    attr.set_post_ops(ops);
  }
  return dnnl::matmul::primitive_desc(dnnl::matmul::desc(p.q, p.k, p.scores), attr, Engine());
}

Result<AttentionPds> MakePds(const AttentionPlan& p) {
  AttentionPds pds;
  if (p.mask_dims.empty()) {
    pds.qk = ScoresPd(p, nullptr);
  } else {
    const md given = PlainDesc(p.mask_dims);
    pds.qk = ScoresPd(p, &given);
    if (IsReference(pds.qk) && p.mask_dims != p.score_dims) {
      pds.qk = ScoresPd(p, &p.scores);
      pds.expand_mask = true;
    }
  }
  const int axis = static_cast<int>(p.score_dims.size()) - 1;
  pds.softmax = dnnl::softmax_v2_forward::primitive_desc(
      dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, p.scores,
                                     p.probs, axis),
      ScratchpadAttr(), Engine());
  pds.pv = dnnl::matmul::primitive_desc(dnnl::matmul::desc(p.probs, p.v, p.out), ScratchpadAttr(), Engine());
  for (const dnnl::primitive_desc_base* pd : {static_cast<const dnnl::primitive_desc_base*>(&pds.qk),
                                              static_cast<const dnnl::primitive_desc_base*>(&pds.softmax),
                                              static_cast<const dnnl::primitive_desc_base*>(&pds.pv)})
    if (IsReference(*pd))
      return Unsupported(std::string("FusedAttention: oneDNN has only a reference kernel (") + pd->impl_info_str() +
                         ") for these shapes and strides");
  return pds;
}

class AttentionKernel final : public DnnlKernel {
 public:
  explicit AttentionKernel(const KernelSpec& spec) : DnnlKernel(spec) {}

  Status Init(const KernelSpec& spec, const AttentionPlan& p) {
    GE_ASSIGN_OR_RETURN(AttentionPds pds, MakePds(p));
    q_ = UserMemory(p.q);
    k_ = UserMemory(p.k);
    v_ = UserMemory(p.v);
    out_ = UserMemory(p.out);
    scores_ = dnnl::memory(p.scores, Engine());  // the kernel's own scratch
    probs_ = p.probs == p.scores ? scores_ : dnnl::memory(p.probs, Engine());
    std::vector<std::pair<int, dnnl::memory>> qk_args = {
        {DNNL_ARG_SRC, q_}, {DNNL_ARG_WEIGHTS, k_}, {DNNL_ARG_DST, scores_}};
    if (!p.mask_dims.empty()) {
      expand_ = loop::PlanBroadcast<1>({&p.mask_dims}, p.score_dims);
      const void* mask_const = spec.ConstInput(3);
      if (pds.expand_mask) {
        mask_ = dnnl::memory(p.scores, Engine());
        if (mask_const) Expand(mask_const);
        expand_per_run_ = !mask_const;
      } else {
        mask_ = UserMemory(PlainDesc(p.mask_dims));
        if (mask_const) Bind(mask_, mask_const);
        bind_mask_ = !mask_const;
      }
      qk_args.emplace_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mask_);
    }
    steps_.emplace_back(dnnl::matmul(pds.qk), pds.qk, std::move(qk_args));
    steps_.emplace_back(dnnl::softmax_v2_forward(pds.softmax), pds.softmax,
                        std::vector<std::pair<int, dnnl::memory>>{{DNNL_ARG_SRC, scores_}, {DNNL_ARG_DST, probs_}});
    steps_.emplace_back(dnnl::matmul(pds.pv), pds.pv,
                        std::vector<std::pair<int, dnnl::memory>>{
                            {DNNL_ARG_SRC, probs_}, {DNNL_ARG_WEIGHTS, v_}, {DNNL_ARG_DST, out_}});
    LogImpl(spec, "attention q x k", pds.qk, pds.expand_mask ? "mask:expanded" : "");
    LogImpl(spec, "attention softmax", pds.softmax);
    LogImpl(spec, "attention p x v", pds.pv);
    return Status::Ok();
  }

 protected:
  Status RunImpl(const void* const* in, void* const* out) override {
    Bind(q_, in[0]);
    Bind(k_, in[1]);
    Bind(v_, in[2]);
    if (bind_mask_) Bind(mask_, in[3]);
    if (expand_per_run_) Expand(in[3]);
    Bind(out_, out[0]);
    return Execute(steps_);
  }

 private:
  void Expand(const void* mask) {
    loop::StridedCopy(expand_, static_cast<const uint32_t*>(mask), static_cast<uint32_t*>(mask_.get_data_handle()));
  }

  dnnl::memory q_, k_, v_, out_, scores_, probs_, mask_;
  loop::RowPlan<1> expand_;  // mask -> the full scores shape, when expand_mask
  bool bind_mask_ = false, expand_per_run_ = false;
  std::vector<Step> steps_;
};

Status SupportsAttention(const KernelSpec& spec) {
  return Guard(spec, [&]() -> Status {
    GE_ASSIGN_OR_RETURN(AttentionPlan p, PlanAttention(spec));
    return MakePds(p).status();
  });
}

}  // namespace

void RegisterAttentionKernels(KernelRegistry& r) { r.Register("FusedAttention", SupportsAttention, CreatePlanned<AttentionKernel, PlanAttention>); }

}  // namespace ge::hal
