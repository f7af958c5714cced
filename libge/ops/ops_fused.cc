// Op types of our own that fusion passes create (not in ONNX):
//   FusedMatMul(A, B, bias): MatMul with A of rank >= 2, a 2-D B [K,N] and a
//   bias of N values added along the last axis; optional "activation" attr
//   (Relu, Clip, Sigmoid, Gelu) applied after the bias.
//   ChannelAffine(X, scale, shift): X of rank >= 3 times scale[c] plus
//   shift[c] along dim 1 (C values each), optional "activation" Relu; what
//   bn_relu_fusion makes of an inference BatchNormalization (+ Relu).
//   ConcatAffine(x_1, ..., x_k, scale, shift): ChannelAffine of the Concat
//   of the x_i along dim 1; what concat_bn_fusion makes of Concat ->
//   ChannelAffine.
// (Gelu itself is registered with the unary ops.)
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Status InferFusedMatMul(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  const TensorDesc& a = ctx.input(0);
  const TensorDesc& b = ctx.input(1);
  const TensorDesc& bias = ctx.input(2);
  if (a.unknown_rank()) {
    infer::SetOutput(ctx, 0, t, infer::UnknownRank());
    return Status::Ok();
  }
  if (a.rank() < 2) return ctx.Error("A must have rank >= 2, but is " + a.ToString());
  if (b.rank() != 2) return ctx.Error("B must be 2-D, but is " + b.ToString());
  const int64_t ka = a.dims.back(), kb = b.dims[0], n = b.dims[1];
  if (ka >= 0 && kb >= 0 && ka != kb)
    return ctx.Error("inner dims differ: " + a.ToString() + " x " + b.ToString());
  if (!bias.unknown_rank() && bias.is_static() && n >= 0 && bias.NumElements() != n)
    return ctx.Error("bias " + bias.ToString() + " must have N=" + std::to_string(n) + " values");
  Dims out = a.dims;
  out.back() = n;
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

Status InferChannelAffine(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() < 3) return ctx.Error("X must have rank >= 3, but is " + x.ToString());
  const int64_t c = x.unknown_rank() ? -1 : x.dims[1];
  for (size_t i : {1, 2}) {
    const TensorDesc& p = ctx.input(i);
    if (c >= 0 && !p.unknown_rank() && p.is_static() && p.NumElements() != c)
      return ctx.Error("input " + std::to_string(i) + " " + p.ToString() + " must have C=" + std::to_string(c) +
                       " values");
  }
  infer::SetOutput(ctx, 0, t, x.unknown_rank() ? infer::UnknownRank() : x.dims);
  return Status::Ok();
}

// The parts' channels add up; everything else is the first part's.
Status InferConcatAffine(InferContext& ctx) {
  const size_t k = ctx.num_inputs() - 2;
  std::vector<size_t> all(ctx.num_inputs());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, all));
  Dims out = ctx.input(0).dims;
  if (ctx.input(0).unknown_rank()) {
    infer::SetOutput(ctx, 0, t, infer::UnknownRank());
    return Status::Ok();
  }
  if (out.size() < 3) return ctx.Error("parts must have rank >= 3, but part 0 is " + ctx.input(0).ToString());
  for (size_t i = 1; i < k; ++i) {
    const TensorDesc& p = ctx.input(i);
    if (p.unknown_rank() || p.rank() != static_cast<int64_t>(out.size()))
      return ctx.Error("part " + std::to_string(i) + " " + p.ToString() + " differs in rank");
    out[1] = out[1] < 0 || p.dims[1] < 0 ? -1 : out[1] + p.dims[1];
  }
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterFusedOps(OpRegistry& r) {
  r.Register(OpBuilder("FusedMatMul").Inputs(3, 3).Infer(InferFusedMatMul));
  r.Register(OpBuilder("ChannelAffine").Inputs(3, 3).Infer(InferChannelAffine).Inplace());
  r.Register(OpBuilder("ConcatAffine").Inputs(3, -1).Infer(InferConcatAffine));
}

}  // namespace ge
