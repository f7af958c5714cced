// Linear quantization: QuantizeLinear (float -> u8/i8 by scale and zero
// point, per tensor or per axis), DequantizeLinear (back), and
// DynamicQuantizeLinear (u8 with the scale and zero point it chose); the
// integer products MatMulInteger and ConvInteger (i32) and their requantizing
// forms QLinearMatMul and QLinearConv (the output zero point's dtype).
#include "infer_util.h"
#include "op_families.h"
#include "shared_shapes.h"

namespace ge {
namespace {

using infer::Dims;

bool IsQuant(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }
bool IsQuantOrI32(DataType t) { return IsQuant(t) || t == DataType::kInt32; }
bool IsF32(DataType t) { return t == DataType::kFloat32; }

// A scale or zero point: one value ([] or [1]), or one per slice of `axis`
// of x when `axis` is given.
Status CheckQuantParam(InferContext& ctx, size_t i, const char* what, const TensorDesc& x,
                       std::optional<int64_t> axis) {
  if (!ctx.has_input(i) || ctx.input(i).unknown_rank()) return Status::Ok();
  const TensorDesc& p = ctx.input(i);
  if (p.rank() == 0 || (p.rank() == 1 && p.dims[0] == 1)) return Status::Ok();
  if (axis && p.rank() == 1) {
    if (x.unknown_rank()) return Status::Ok();
    GE_ASSIGN_OR_RETURN(int64_t a, infer::NormalizeAxis(ctx, *axis, x.rank()));
    if (p.dims[0] < 0 || x.dims[a] < 0 || p.dims[0] == x.dims[a]) return Status::Ok();
  }
  return ctx.Error(
      std::string(what) + " (input " + std::to_string(i) + ") " + p.ToString() +
      (axis ? " must hold one value or one per slice of axis " + std::to_string(*axis) + " of " + x.ToString()
            : " must hold one value"));
}

// x, scale, zero point: y has x's shape and the zero point's dtype (u8 without one).
Status InferQuantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 2, IsQuant, "uint8 or int8"));
  const TensorDesc& x = ctx.input(0);
  const int64_t axis = ctx.node().GetInt("axis", 1);
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 1, "y_scale", x, axis));
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 2, "y_zero_point", x, axis));
  const DataType t = ctx.has_input(2) ? ctx.input(2).dtype : DataType::kUInt8;
  infer::SetOutput(ctx, 0, t == DataType::kUndefined ? DataType::kUInt8 : t, x.dims);
  return Status::Ok();
}

Status InferDequantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsQuantOrI32, "uint8, int8 or int32"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  const TensorDesc& x = ctx.input(0);
  const int64_t axis = ctx.node().GetInt("axis", 1);
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 1, "x_scale", x, axis));
  GE_RETURN_IF_ERROR(CheckQuantParam(ctx, 2, "x_zero_point", x, axis));
  infer::SetOutput(ctx, 0, DataType::kFloat32, x.dims);
  return Status::Ok();
}

Status InferDynamicQuantize(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsF32, "float32"));
  infer::SetOutput(ctx, 0, DataType::kUInt8, ctx.input(0).dims);
  infer::SetOutput(ctx, 1, DataType::kFloat32, {});
  infer::SetOutput(ctx, 2, DataType::kUInt8, {});
  return Status::Ok();
}

// MatMul's or Conv's output dims of inputs a and b (shared_shapes.h).
using ProductDims = Result<Dims> (*)(InferContext&, size_t, size_t);

// MatMulInteger, ConvInteger: A (x), B (w), optional zero points: i32 of the
// float op's shape.
Status InferIntegerProduct(InferContext& ctx, ProductDims dims) {
  for (size_t i : {0, 1, 2, 3}) GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, i, IsQuant, "uint8 or int8"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {1, 3}).status());
  GE_ASSIGN_OR_RETURN(Dims out, dims(ctx, 0, 1));
  infer::SetOutput(ctx, 0, DataType::kInt32, std::move(out));
  return Status::Ok();
}

// QLinearMatMul, QLinearConv: a, a_scale, a_zp, b, b_scale, b_zp, y_scale,
// y_zp: y_zp's type, of the float op's shape.
Status InferQLinearProduct(InferContext& ctx, ProductDims dims) {
  for (size_t i : {0, 2, 3, 5, 7}) GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, i, IsQuant, "uint8 or int8"));
  for (size_t i : {1, 4, 6}) GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, i, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {3, 5}).status());
  GE_ASSIGN_OR_RETURN(Dims out, dims(ctx, 0, 3));
  infer::SetOutput(ctx, 0, ctx.input(7).dtype, std::move(out));
  return Status::Ok();
}

Status InferMatMulInteger(InferContext& ctx) { return InferIntegerProduct(ctx, infer::MatMulOutDims); }
Status InferQLinearMatMul(InferContext& ctx) { return InferQLinearProduct(ctx, infer::MatMulOutDims); }
Status InferConvInteger(InferContext& ctx) { return InferIntegerProduct(ctx, infer::ConvOutDims); }

// QLinearConv's ninth input, the optional bias, is int32.
Status InferQLinearConv(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(
      ctx, 8, [](DataType t) { return t == DataType::kInt32; }, "int32"));
  return InferQLinearProduct(ctx, infer::ConvOutDims);
}

}  // namespace

void RegisterQuantOps(OpRegistry& r) {
  r.Register(OpBuilder("QuantizeLinear").Inputs(2, 3).Defaults({{"axis", int64_t{1}}}).Infer(InferQuantize));
  r.Register(OpBuilder("DequantizeLinear").Inputs(2, 3).Defaults({{"axis", int64_t{1}}}).Infer(InferDequantize));
  r.Register(OpBuilder("DynamicQuantizeLinear").Inputs(1, 1).Outputs(3, 3).Infer(InferDynamicQuantize));
  r.Register(OpBuilder("MatMulInteger").Inputs(2, 4).Infer(InferMatMulInteger));
  r.Register(OpBuilder("QLinearMatMul").Inputs(8, 8).Infer(InferQLinearMatMul));
  const std::map<std::string, AttrValue> conv = {{"auto_pad", std::string("NOTSET")}, {"group", int64_t{1}}};
  r.Register(OpBuilder("ConvInteger").Inputs(2, 4).Defaults(conv).Infer(InferConvInteger));
  r.Register(OpBuilder("QLinearConv").Inputs(8, 9).Defaults(conv).Infer(InferQLinearConv));
}

}  // namespace ge
