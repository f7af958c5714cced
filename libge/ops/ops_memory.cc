// Ops whose memory semantics the conflict passes act on
// (docs/memory-conflicts.md): a variable, writes into it, an atomic
// accumulation, the HCCL collectives on one process, and an explicit copy.
//
// Variable: a mutable tensor initialised from its input at the start of
// every run. The memory plan has no variables segment, so its value does not
// persist across runs (see the doc's "Departures").
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using M = InputMutability;

// Output 0 takes input 0's desc.
Status SameAsFirst(InferContext& ctx) {
  ctx.output(0) = ctx.input(0);
  return Status::Ok();
}

// Assign / AssignAdd: the value must match the variable.
InferFn UpdateOf(bool numeric) {
  return [numeric](InferContext& ctx) -> Status {
    const TensorDesc &ref = ctx.input(0), &value = ctx.input(1);
    if (ref.dtype != value.dtype)
      return ctx.Error(std::string("value dtype ") + DataTypeName(value.dtype) + " differs from the variable's " +
                       DataTypeName(ref.dtype));
    if (numeric && ref.dtype == DataType::kBool) return ctx.Error("cannot add booleans");
    if (ref.is_static() && value.is_static() && ref.dims != value.dims)
      return ctx.Error("value " + value.ToString() + " differs in shape from the variable " + ref.ToString());
    ctx.output(0) = ref;
    return Status::Ok();
  };
}

// ScatterAdd(indices [K], updates [K, d...]) -> [rows, d...]: row indices[k]
// accumulates updates[k].
Status InferScatterAdd(InferContext& ctx) {
  const TensorDesc &idx = ctx.input(0), &upd = ctx.input(1);
  if (!infer::IsIndex(idx.dtype)) return ctx.Error("indices must be i32 or i64");
  if (upd.unknown_rank() || upd.dims.empty()) return ctx.Error("updates need a known rank >= 1");
  if (idx.rank() != 1) return ctx.Error("indices must have rank 1");
  if (idx.dims[0] >= 0 && upd.dims[0] >= 0 && idx.dims[0] != upd.dims[0])
    return ctx.Error("indices " + idx.ToString() + " and updates " + upd.ToString() + " differ in length");
  const int64_t rows = ctx.node().GetInt("rows", -1);
  if (rows < 1) return ctx.Error("attribute rows must be >= 1");
  std::vector<int64_t> dims = upd.dims;
  dims[0] = rows;
  ctx.output(0) = TensorDesc(upd.dtype, dims);
  return Status::Ok();
}

}  // namespace

void RegisterMemoryOps(OpRegistry& r) {
  r.Register(OpBuilder("Variable").Inputs(1, 1).Infer(SameAsFirst).Variable());
  r.Register(OpBuilder("Assign").Inputs(2, 2).Infer(UpdateOf(false)).Reference().Mutable({M::kWriteable}));
  r.Register(OpBuilder("AssignAdd").Inputs(2, 2).Infer(UpdateOf(true)).Reference().Mutable({M::kWriteable}));
  r.Register(OpBuilder("ScatterAdd").Inputs(2, 2).Infer(InferScatterAdd).Atomic({0}));
  // One process, one rank: the reduction of one tensor and the broadcast
  // from rank 0 are the tensor itself, computed in place over the input.
  r.Register(OpBuilder("HcomAllReduce").Inputs(1, 1).Defaults({{"reduction", std::string("sum")}}).Infer(SameAsFirst)
                 .Reference().Mutable({M::kScopeWriteable}).ContinuousInput());
  r.Register(OpBuilder("HcomBroadcast").Inputs(1, 1).Defaults({{"root_rank", int64_t{0}}}).Infer(SameAsFirst)
                 .Reference().Mutable({M::kScopeWriteable}));
  // A copy into memory of its own (never an alias): the isolation node the
  // conflict passes insert where a copy must really happen.
  r.Register(OpBuilder("MemcpyAsync").Inputs(1, 1).Infer(SameAsFirst));
}

}  // namespace ge
