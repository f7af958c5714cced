// Signal processing (opset 17): the windows HannWindow, HammingWindow and
// BlackmanWindow ([size], size an input), MelWeightMatrix ([dft_length/2 + 1,
// num_mel_bins]), DFT (along one axis of [..., 1 or 2], the last dim real or
// (re, im); output [..., 2]) and STFT ([batch, frames, bins, 2]). Sizes that
// come from input values are value inputs: known at compile time from
// constants, otherwise per call (dynamic shapes).
#include "ge_base/onnx_dtype.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// One integer of a scalar value input, when known.
Result<std::optional<int64_t>> ScalarValue(InferContext& ctx, size_t i, const char* what) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, i, infer::IsIndex, "int32 or int64"));
  const auto v = infer::InputInts(ctx, i);
  if (!v) return std::optional<int64_t>{};
  if (v->size() != 1) return ctx.Error(std::string(what) + " (input " + std::to_string(i) + ") must hold one value");
  return std::optional<int64_t>((*v)[0]);
}

Result<DataType> OutputDatatype(InferContext& ctx) {
  const int64_t onnx_type = ctx.node().GetInt("output_datatype", 1);
  const DataType t = DataTypeFromOnnx(onnx_type);
  if (t == DataType::kUndefined) return ctx.NotSupported("output_datatype " + std::to_string(onnx_type));
  return t;
}

Status InferWindow(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, OutputDatatype(ctx));
  GE_ASSIGN_OR_RETURN(auto size, ScalarValue(ctx, 0, "size"));
  if (size && *size < 0) return ctx.Error("size " + std::to_string(*size) + " is negative");
  infer::SetOutput(ctx, 0, t, {size ? *size : kUnknownDim});
  return Status::Ok();
}

Status InferMelWeightMatrix(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, OutputDatatype(ctx));
  GE_ASSIGN_OR_RETURN(auto bins, ScalarValue(ctx, 0, "num_mel_bins"));
  GE_ASSIGN_OR_RETURN(auto dft, ScalarValue(ctx, 1, "dft_length"));
  GE_RETURN_IF_ERROR(ScalarValue(ctx, 2, "sample_rate").status());
  if ((bins && *bins < 0) || (dft && *dft < 1)) return ctx.Error("num_mel_bins and dft_length must be positive");
  infer::SetOutput(ctx, 0, t, {dft ? *dft / 2 + 1 : kUnknownDim, bins ? *bins : kUnknownDim});
  return Status::Ok();
}

bool IsFloat(DataType t) { return t == DataType::kFloat32 || t == DataType::kFloat64; }

// The length of the last dim: 1 (real) or 2 (complex).
Status CheckComplexDim(InferContext& ctx, const TensorDesc& x, const char* what) {
  if (!x.unknown_rank() && (x.rank() < 2 || (x.dims.back() >= 0 && x.dims.back() != 1 && x.dims.back() != 2)))
    return ctx.Error(std::string(what) + " " + x.ToString() + " must end in a dim of 1 (real) or 2 (complex)");
  return Status::Ok();
}

Status InferDft(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloat, "float32 or float64"));
  const TensorDesc& x = ctx.input(0);
  GE_RETURN_IF_ERROR(CheckComplexDim(ctx, x, "input"));
  GE_ASSIGN_OR_RETURN(auto length, ScalarValue(ctx, 1, "dft_length"));
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  const int64_t axis = ctx.node().GetInt("axis", 1);
  // Any dim but the last (re, im) one: [-r, -2] or [0, r - 2].
  const int64_t a = axis < 0 ? axis + x.rank() : axis;
  if (a < 0 || a > x.rank() - 2)
    return ctx.Error("axis " + std::to_string(axis) + " is out of range for " + x.ToString());
  if (length && *length < 1) return ctx.Error("dft_length " + std::to_string(*length) + " must be positive");
  Dims out = x.dims;
  out.back() = 2;
  int64_t n = ctx.has_input(1) ? (length ? *length : kUnknownDim) : x.dims[a];
  if (ctx.node().GetInt("onesided", 0) != 0) {
    if (ctx.node().GetInt("inverse", 0) != 0) return ctx.NotSupported("onesided with inverse");
    n = n >= 0 ? n / 2 + 1 : kUnknownDim;
  }
  out[a] = n;
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// signal [batch, length, 1 or 2], frame_step, window [frame_length], frame_length.
Status InferStft(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloat, "float32 or float64"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  const TensorDesc& x = ctx.input(0);
  GE_RETURN_IF_ERROR(CheckComplexDim(ctx, x, "signal"));
  if (!x.unknown_rank() && x.rank() != 3)
    return ctx.Error("signal must be [batch, length, 1 or 2], but is " + x.ToString());
  GE_ASSIGN_OR_RETURN(auto step, ScalarValue(ctx, 1, "frame_step"));
  GE_ASSIGN_OR_RETURN(auto flen, ScalarValue(ctx, 3, "frame_length"));
  int64_t len = flen ? *flen : kUnknownDim;
  if (ctx.has_input(2) && !ctx.input(2).unknown_rank()) {
    const TensorDesc& w = ctx.input(2);
    if (w.rank() != 1) return ctx.Error("window must be 1-D, but is " + w.ToString());
    if (len >= 0 && w.dims[0] >= 0 && len != w.dims[0])
      return ctx.Error("frame_length " + std::to_string(len) + " differs from the window's " + w.ToString());
    if (len < 0) len = w.dims[0];
  }
  if (!ctx.has_input(2) && !ctx.has_input(3)) return ctx.Error("needs a window or a frame_length");
  if ((step && *step < 1) || len == 0) return ctx.Error("frame_step and frame_length must be positive");
  const int64_t sig = x.unknown_rank() ? kUnknownDim : x.dims[1];
  int64_t frames = kUnknownDim;
  if (step && len >= 0 && sig >= 0) {
    if (len > sig) return ctx.Error("frame_length " + std::to_string(len) + " exceeds the signal " + x.ToString());
    frames = (sig - len) / *step + 1;
  }
  const bool onesided = ctx.node().GetInt("onesided", 1) != 0;
  const int64_t bins = len < 0 ? kUnknownDim : onesided ? len / 2 + 1 : len;
  infer::SetOutput(ctx, 0, x.dtype, {x.unknown_rank() ? kUnknownDim : x.dims[0], frames, bins, 2});
  return Status::Ok();
}

}  // namespace

void RegisterSignalOps(OpRegistry& r) {
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    r.Register(OpBuilder(w)
                   .Inputs(1, 1)
                   .Defaults({{"periodic", int64_t{1}}, {"output_datatype", int64_t{1}}})
                   .Infer(InferWindow)
                   .ValueInputs({0}));
  r.Register(OpBuilder("MelWeightMatrix")
                 .Inputs(5, 5)
                 .Defaults({{"output_datatype", int64_t{1}}})
                 .Infer(InferMelWeightMatrix)
                 .ValueInputs({0, 1}));
  r.Register(OpBuilder("DFT")
                 .Inputs(1, 2)
                 .Defaults({{"axis", int64_t{1}}, {"inverse", int64_t{0}}, {"onesided", int64_t{0}}})
                 .Infer(InferDft)
                 .ValueInputs({1}));
  r.Register(OpBuilder("STFT").Inputs(2, 4).Defaults({{"onesided", int64_t{1}}}).Infer(InferStft).ValueInputs({1, 3}));
}

}  // namespace ge
