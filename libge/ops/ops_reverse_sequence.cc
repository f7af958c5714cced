// ReverseSequence(x, sequence_lens): for each batch entry b, the first
// sequence_lens[b] elements along time_axis are reversed. batch_axis and
// time_axis are 0 and 1 in either order; x has rank >= 2; sequence_lens is
// an i64 vector of the batch size. Y has X's shape.
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

Status InferReverseSequence(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "i64 or i32"));
  const int64_t batch_axis = ctx.node().GetInt("batch_axis", 1), time_axis = ctx.node().GetInt("time_axis", 0);
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0)))
    return ctx.Error("batch_axis " + std::to_string(batch_axis) + " and time_axis " + std::to_string(time_axis) +
                     " must be 0 and 1 in some order");
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& lens = ctx.input(1);
  if (!x.unknown_rank() && x.rank() < 2) return ctx.Error("input " + x.ToString() + " must have rank 2 or more");
  if (!lens.unknown_rank()) {
    const int64_t batch = x.unknown_rank() ? kUnknownDim : x.dims[static_cast<size_t>(batch_axis)];
    if (lens.rank() != 1 || (batch >= 0 && lens.dims[0] >= 0 && lens.dims[0] != batch))
      return ctx.Error("sequence_lens " + lens.ToString() + " must be a vector of the batch size " +
                       std::to_string(batch));
  }
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

}  // namespace

void RegisterReverseSequenceOps(OpRegistry& r) {
  r.Register(OpBuilder("ReverseSequence")
                 .Inputs(2, 2)
                 .Defaults({{"batch_axis", int64_t{1}}, {"time_axis", int64_t{0}}})
                 .Infer(InferReverseSequence));
}

}  // namespace ge
