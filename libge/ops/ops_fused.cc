// Op types of our own that fusion passes create (not in ONNX):
//   FusedMatMul(A, B, bias): MatMul with A of rank >= 2, a 2-D B [K,N] and a
//   bias of N values added along the last axis; optional "activation" attr
//   (Relu, Clip, Sigmoid, Gelu) applied after the bias.
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

}  // namespace

void RegisterFusedOps(OpRegistry& r) {
  r.Register(OpBuilder("FusedMatMul").Inputs(3, 3).Infer(InferFusedMatMul));
}

}  // namespace ge
