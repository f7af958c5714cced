// Ops whose output is a pattern laid out by positions, not a function of
// the input values: EyeLike (ones on a diagonal, the input gives only shape
// and default dtype) and OneHot (on_value at each index, off_value elsewhere).
#include "ge_base/onnx_dtype.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// EyeLike(x): x's 2-D shape; dtype attr (an ONNX type number) or x's dtype.
Status InferEyeLike(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  DataType t = x.dtype;
  if (ctx.node().HasAttr("dtype")) {
    const int64_t onnx_type = ctx.node().GetInt("dtype");
    t = DataTypeFromOnnx(onnx_type);
    if (t == DataType::kUndefined) return ctx.NotSupported("dtype " + std::to_string(onnx_type) + " is not supported");
  }
  if (!x.unknown_rank() && x.rank() != 2) return ctx.Error("input " + x.ToString() + " must be 2-D");
  infer::SetOutput(ctx, 0, t, x.unknown_rank() ? infer::UnknownDims(2) : x.dims);
  return Status::Ok();
}

bool NotBool(DataType t) { return t != DataType::kBool; }

// OneHot(indices, depth, values): depth is inserted into indices' shape at
// axis (in [-r-1, r]); the output has the dtype of values = [off, on].
Status InferOneHot(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, NotBool, "numeric"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, NotBool, "numeric"));
  const TensorDesc& indices = ctx.input(0);
  const TensorDesc& depth = ctx.input(1);
  const TensorDesc& values = ctx.input(2);
  if (!depth.unknown_rank() && infer::OperandLength(depth) >= 0 && infer::OperandLength(depth) != 1)
    return ctx.Error("depth " + depth.ToString() + " must hold one value");
  if (!values.unknown_rank() && (values.rank() != 1 || (values.dims[0] >= 0 && values.dims[0] != 2)))
    return ctx.Error("values " + values.ToString() + " must be [off_value, on_value]");
  int64_t d = kUnknownDim;
  if (auto v = infer::InputInts(ctx, 1)) {
    d = (*v)[0];
    if (d < 1) return ctx.Error("depth " + std::to_string(d) + " must be positive");
  }
  if (indices.unknown_rank()) {
    infer::SetOutput(ctx, 0, values.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  const int64_t rank = indices.rank() + 1;
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", -1), rank));
  Dims out = indices.dims;
  out.insert(out.begin() + axis, d);
  infer::SetOutput(ctx, 0, values.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterGenerateOps(OpRegistry& r) {
  r.Register(OpBuilder("EyeLike").Inputs(1, 1).Defaults({{"k", int64_t{0}}}).Infer(InferEyeLike));
  r.Register(OpBuilder("OneHot").Inputs(3, 3).Defaults({{"axis", int64_t{-1}}}).ValueInputs({1}).Infer(InferOneHot));
}

}  // namespace ge
