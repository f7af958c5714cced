// Ops that compute along one axis with positions: CumSum (ONNX: axis as
// input 1, exclusive, reverse) and TopK (ONNX: k as input 1, axis, largest,
// sorted; values and int64 indices).
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Status InferCumSum(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc& x = ctx.input(0);
  const auto axis = infer::InputInts(ctx, 1);
  if (infer::OperandLength(ctx.input(1)) > 1 || (axis && axis->size() != 1))
    return ctx.Error("axis (input 1) must hold one value");
  if (axis && !x.unknown_rank()) GE_RETURN_IF_ERROR(infer::NormalizeAxis(ctx, (*axis)[0], x.rank()).status());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

Status InferTopK(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    infer::SetOutput(ctx, 1, DataType::kInt64, infer::UnknownRank());
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", -1), x.rank()));
  Dims out = x.dims;
  out[axis] = kUnknownDim;
  if (auto k = infer::InputInts(ctx, 1)) {
    if (k->size() != 1) return ctx.Error("k (input 1) must hold one value");
    if ((*k)[0] < 0 || (x.dims[axis] >= 0 && (*k)[0] > x.dims[axis]))
      return ctx.Error("k " + std::to_string((*k)[0]) + " is out of range for axis " + std::to_string(axis) + " of " +
                       x.ToString());
    out[axis] = (*k)[0];
  }
  infer::SetOutput(ctx, 0, x.dtype, out);
  infer::SetOutput(ctx, 1, DataType::kInt64, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterIndexOps(OpRegistry& r) {
  r.Register(OpBuilder("CumSum").Inputs(2, 2).Defaults({{"exclusive", int64_t{0}}, {"reverse", int64_t{0}}})
                 .Infer(InferCumSum));
  r.Register(OpBuilder("TopK").Inputs(2, 2).Outputs(2, 2)
                 .Defaults({{"axis", int64_t{-1}}, {"largest", int64_t{1}}, {"sorted", int64_t{1}}})
                 .Infer(InferTopK)
                 .ValueInputs({1}));
}

}  // namespace ge
