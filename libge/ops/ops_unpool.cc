// MaxUnpool: X [N, C, spatial...] scattered by MaxPool's flattened Indices
// into zeros of the pooled input's shape: output_shape (input 2, a value
// input) when given, else (in - 1) * stride + kernel - pads per axis.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Status InferMaxUnpool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(
      ctx, 1, [](DataType t) { return t == DataType::kInt64; }, "int64"));
  const TensorDesc &x = ctx.input(0), &idx = ctx.input(1);
  if (!ctx.node().HasAttr("kernel_shape")) return ctx.Error("needs attribute 'kernel_shape'");
  const Dims kernel = ctx.node().GetInts("kernel_shape");
  if (!x.unknown_rank() && x.rank() != static_cast<int64_t>(kernel.size()) + 2)
    return ctx.Error("X " + x.ToString() + " must be N x C x " + std::to_string(kernel.size()) + " spatial dims");
  if (!x.unknown_rank() && !idx.unknown_rank() && idx.dims != x.dims)
    return ctx.Error("Indices " + idx.ToString() + " must have X's shape " + x.ToString());
  if (ctx.has_input(2)) {
    const auto given = infer::InputInts(ctx, 2);
    if (!given) {
      infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(kernel.size() + 2));
      return Status::Ok();
    }
    if (given->size() != kernel.size() + 2) return ctx.Error("output_shape must have one value per dim of X");
    infer::SetOutput(ctx, 0, x.dtype, *given);
    return Status::Ok();
  }
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(kernel.size() + 2));
    return Status::Ok();
  }
  const size_t sp = kernel.size();
  const Dims strides = ctx.node().GetInts("strides", Dims(sp, 1)), pads = ctx.node().GetInts("pads", Dims(2 * sp, 0));
  if (strides.size() != sp || pads.size() != 2 * sp) return ctx.Error("strides and pads must match kernel_shape");
  Dims out = {x.dims[0], x.dims[1]};
  for (size_t i = 0; i < sp; ++i) {
    const int64_t in = x.dims[i + 2];
    const int64_t d = in < 0 ? kUnknownDim : (in - 1) * strides[i] + kernel[i] - pads[i] - pads[i + sp];
    if (in >= 0 && d < 1)
      return ctx.Error("the unpooled size of spatial axis " + std::to_string(i) + " is not positive");
    out.push_back(d);
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterUnpoolOps(OpRegistry& r) {
  r.Register(OpBuilder("MaxUnpool").Inputs(2, 3).Infer(InferMaxUnpool).ValueInputs({2}));
}

}  // namespace ge
