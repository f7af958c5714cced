// Index-driven writes and N-d reads: ScatterElements (and its deprecated
// alias Scatter), ScatterND and GatherND. The scatters keep data's shape;
// GatherND's output is indices.shape[:-1] + data.shape[batch_dims + k:] with
// k = indices.shape[-1].
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

Status CheckReduction(InferContext& ctx) {
  const std::string r = ctx.node().GetString("reduction", "none");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min")
    return ctx.Error("reduction '" + r + "' is not one of none, add, mul, max, min");
  return Status::Ok();
}

// data, indices, updates: updates have the indices' shape; indices data's rank.
Status InferScatterElements(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  GE_RETURN_IF_ERROR(CheckReduction(ctx));
  const TensorDesc &data = ctx.input(0), &idx = ctx.input(1), &upd = ctx.input(2);
  if (!data.unknown_rank()) {
    if (data.rank() == 0) return ctx.Error("data must have rank >= 1, but is " + data.ToString());
    GE_RETURN_IF_ERROR(infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), data.rank()).status());
    if (!idx.unknown_rank() && idx.rank() != data.rank())
      return ctx.Error("indices " + idx.ToString() + " must have the rank of data " + data.ToString());
  }
  if (!idx.unknown_rank() && !upd.unknown_rank()) {
    bool same = idx.rank() == upd.rank();
    for (size_t i = 0; same && i < idx.dims.size(); ++i)
      same = idx.dims[i] < 0 || upd.dims[i] < 0 || idx.dims[i] == upd.dims[i];
    if (!same) return ctx.Error("updates " + upd.ToString() + " must have the shape of indices " + idx.ToString());
  }
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

// updates = indices.shape[:-1] + data.shape[k:].
Status InferScatterND(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  GE_RETURN_IF_ERROR(CheckReduction(ctx));
  const TensorDesc &data = ctx.input(0), &idx = ctx.input(1), &upd = ctx.input(2);
  if (!data.unknown_rank() && !idx.unknown_rank() && !upd.unknown_rank()) {
    if (idx.rank() == 0) return ctx.Error("indices must have rank >= 1");
    const int64_t k = idx.dims.back();
    if (k > data.rank())
      return ctx.Error("indices " + idx.ToString() + " index more dims than data " + data.ToString());
    if (k >= 0) {
      Dims want(idx.dims.begin(), idx.dims.end() - 1);
      want.insert(want.end(), data.dims.begin() + k, data.dims.end());
      bool same = want.size() == upd.dims.size();
      for (size_t i = 0; same && i < want.size(); ++i) same = want[i] < 0 || upd.dims[i] < 0 || want[i] == upd.dims[i];
      if (!same) return ctx.Error("updates " + upd.ToString() + " must be " + DimsToString(want));
    }
  }
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

Status InferGatherND(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc &data = ctx.input(0), &idx = ctx.input(1);
  const int64_t b = ctx.node().GetInt("batch_dims", 0);
  if (data.unknown_rank() || idx.unknown_rank() || (idx.rank() > 0 && idx.dims.back() < 0)) {
    infer::SetOutput(ctx, 0, data.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  if (b < 0 || idx.rank() < 1 || b >= idx.rank() || b >= data.rank())
    return ctx.Error("batch_dims " + std::to_string(b) + " must be below the ranks of data " + data.ToString() +
                     " and indices " + idx.ToString());
  const int64_t k = idx.dims.back();
  if (k < 1 || b + k > data.rank())
    return ctx.Error("indices " + idx.ToString() + " index " + std::to_string(k) + " dims of data " + data.ToString() +
                     " after " + std::to_string(b) + " batch dims");
  for (int64_t i = 0; i < b; ++i)
    if (idx.dims[i] >= 0 && data.dims[i] >= 0 && idx.dims[i] != data.dims[i])
      return ctx.Error("batch dim " + std::to_string(i) + " differs between data " + data.ToString() + " and indices " +
                       idx.ToString());
  Dims out(idx.dims.begin(), idx.dims.end() - 1);
  out.insert(out.end(), data.dims.begin() + b + k, data.dims.end());
  infer::SetOutput(ctx, 0, data.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterScatterOps(OpRegistry& r) {
  const std::map<std::string, AttrValue> elements = {{"axis", int64_t{0}}, {"reduction", std::string("none")}};
  r.Register(OpBuilder("ScatterElements").Inputs(3, 3).Defaults(elements).Infer(InferScatterElements));
  r.Register(OpBuilder("Scatter").Inputs(3, 3).Defaults({{"axis", int64_t{0}}}).Infer(InferScatterElements));
  r.Register(OpBuilder("ScatterND").Inputs(3, 3).Defaults({{"reduction", std::string("none")}}).Infer(InferScatterND));
  r.Register(OpBuilder("GatherND").Inputs(2, 2).Defaults({{"batch_dims", int64_t{0}}}).Infer(InferGatherND));
}

}  // namespace ge
