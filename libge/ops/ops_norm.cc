// Normalisations: batch, layer and instance normalisation, and softmax /
// log-softmax (a normalisation over one axis). Y has X's shape.
#include "ge_base/onnx_dtype.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// Input i, when present and of known rank, is a vector of `channels`.
Status CheckPerChannel(InferContext& ctx, size_t i, const char* name, int64_t channels) {
  if (!ctx.has_input(i)) return Status::Ok();
  const TensorDesc& d = ctx.input(i);
  if (d.unknown_rank()) return Status::Ok();
  if (d.rank() != 1 || (channels >= 0 && d.dims[0] >= 0 && d.dims[0] != channels))
    return ctx.Error(std::string(name) + " (input " + std::to_string(i) + ") is " + d.ToString() +
                     ", expected a vector of " + std::to_string(channels) + " channels");
  return Status::Ok();
}

int64_t Channels(const TensorDesc& x) { return x.unknown_rank() || x.rank() < 2 ? kUnknownDim : x.dims[1]; }

// Outputs 1.. (running / saved mean and variance in training mode) are per channel.
Status InferBatchNorm(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() < 2) return ctx.Error("input must be N x C x ..., but is " + x.ToString());
  const int64_t c = Channels(x);
  const char* names[] = {"", "scale", "bias", "mean", "var"};
  for (size_t i = 1; i <= 4; ++i) GE_RETURN_IF_ERROR(CheckPerChannel(ctx, i, names[i], c));
  infer::SetOutputLike(ctx, 0, 0);
  for (size_t j = 1; j < ctx.num_outputs(); ++j) infer::SetOutput(ctx, j, ctx.input(3).dtype, {c});
  return Status::Ok();
}

Status InferInstanceNorm(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() < 3) return ctx.Error("input must be N x C x spatial..., but is " + x.ToString());
  GE_RETURN_IF_ERROR(CheckPerChannel(ctx, 1, "scale", Channels(x)));
  GE_RETURN_IF_ERROR(CheckPerChannel(ctx, 2, "bias", Channels(x)));
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

// Normalises over axes [axis, rank); Mean and InvStdDev keep dims before
// axis and are 1 after, in the stash type.
Status InferLayerNorm(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const int64_t stash = ctx.node().GetInt("stash_type", 1);
  const DataType stash_t = DataTypeFromOnnx(stash);
  if (stash_t == DataType::kUndefined) return ctx.Error("stash_type " + std::to_string(stash) + " is not a dtype");
  infer::SetOutputLike(ctx, 0, 0);
  if (x.unknown_rank()) {
    for (size_t j = 1; j < ctx.num_outputs(); ++j) infer::SetOutput(ctx, j, stash_t, infer::UnknownRank());
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", -1), x.rank()));
  const Dims normalized(x.dims.begin() + axis, x.dims.end());
  for (size_t i = 1; i <= 2; ++i) {
    if (!ctx.has_input(i)) continue;
    GE_ASSIGN_OR_RETURN(Dims b, infer::Broadcast(ctx, normalized, ctx.input(i).dims));
    if (!infer::IsUnknownRank(b) && b.size() != normalized.size())
      return ctx.Error(std::string(i == 1 ? "scale " : "bias ") + ctx.input(i).ToString() +
                       " has more dims than the normalized shape " + DimsToString(normalized));
  }
  Dims stats = x.dims;
  for (size_t i = static_cast<size_t>(axis); i < stats.size(); ++i) stats[i] = 1;
  for (size_t j = 1; j < ctx.num_outputs(); ++j) infer::SetOutput(ctx, j, stash_t, stats);
  return Status::Ok();
}

// The axis default changed in opset 13 (1 -> -1, and no more flattening to
// 2-D); either way the output has the input's shape, and the axis must exist.
// An unknown opset means 13, as in the CPU kernel.
Status InferSoftmax(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  const TensorDesc& x = ctx.input(0);
  const int64_t opset = infer::Opset(ctx.node());
  const int64_t axis = ctx.node().GetInt("axis", opset >= 0 && opset < 13 ? 1 : -1);
  if (!x.unknown_rank()) GE_RETURN_IF_ERROR(infer::NormalizeAxis(ctx, axis, x.rank()).status());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

// LpNormalization: x / ||x||_p along one axis (p 1 or 2); the input's shape.
Status InferLpNorm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsFloatingPoint, "floating point"));
  const int64_t p = ctx.node().GetInt("p", 2);
  if (p != 1 && p != 2) return ctx.Error("p must be 1 or 2, but is " + std::to_string(p));
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank()) GE_RETURN_IF_ERROR(infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", -1), x.rank()).status());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

}  // namespace

void RegisterNormOps(OpRegistry& r) {
  // Opset 9..13 had five outputs, 14/15 three; inference serves any count.
  r.Register(OpBuilder("BatchNormalization")
                 .Inputs(5, 5)
                 .Outputs(1, 5)
                 .Defaults({{"epsilon", 1e-5f}, {"momentum", 0.9f}, {"training_mode", int64_t{0}}})
                 .Infer(InferBatchNorm));
  r.Register(OpBuilder("InstanceNormalization").Inputs(3, 3).Defaults({{"epsilon", 1e-5f}}).Infer(InferInstanceNorm));
  r.Register(OpBuilder("LayerNormalization")
                 .Inputs(2, 3)
                 .Outputs(1, 3)
                 .Defaults({{"axis", int64_t{-1}}, {"epsilon", 1e-5f}, {"stash_type", int64_t{1}}})
                 .Infer(InferLayerNorm));
  // No "axis" default here: it depends on the opset (see InferSoftmax).
  for (const char* type : {"Softmax", "LogSoftmax", "Hardmax"}) r.Register(OpBuilder(type).Inputs(1, 1).Infer(InferSoftmax));
  r.Register(OpBuilder("LpNormalization").Inputs(1, 1).Defaults({{"axis", int64_t{-1}}, {"p", int64_t{2}}}).Infer(InferLpNorm));
}

}  // namespace ge
