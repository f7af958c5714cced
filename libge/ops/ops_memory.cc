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

// ScatterAdd(indices [K], updates [K, d...] [, accumulator]) -> [rows, d...]:
// row indices[k] accumulates updates[k]. The optional third input is the
// zeroed memory an AtomicAddrClean node provides (the atomic_addr_clean
// pass adds it); the output is that input's memory.
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
  if (ctx.num_inputs() == 3 && ctx.input(2).is_static() &&
      (ctx.input(2).dtype != upd.dtype || ctx.input(2).dims != dims))
    return ctx.Error("the accumulator " + ctx.input(2).ToString() + " differs from the output " + ctx.output(0).ToString());
  return Status::Ok();
}

// AtomicAddrClean() -> zeroed tensors, one per output, whose dtypes and dims
// the attributes `dtypes` (names) and `dims` (concatenated, split by `ranks`)
// give: the memory the atomic ops it feeds accumulate into.
Status InferAtomicAddrClean(InferContext& ctx) {
  const Node& n = ctx.node();
  const std::vector<std::string> dtypes = n.GetStrings("dtypes");
  const std::vector<int64_t> ranks = n.GetInts("ranks"), dims = n.GetInts("dims");
  if (dtypes.size() != n.num_outputs() || ranks.size() != n.num_outputs())
    return ctx.Error("needs one entry of dtypes and ranks per output");
  size_t at = 0;
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const DataType t = DataTypeFromName(dtypes[i]);
    if (t == DataType::kUndefined) return ctx.Error("unknown dtype '" + dtypes[i] + "'");
    if (ranks[i] < 0 || at + ranks[i] > dims.size()) return ctx.Error("ranks and dims disagree");
    std::vector<int64_t> d(dims.begin() + at, dims.begin() + at + ranks[i]);
    for (int64_t v : d)
      if (v < 0) return ctx.Error("dims must be known");
    at += ranks[i];
    ctx.output(i) = TensorDesc(t, d);
  }
  if (at != dims.size()) return ctx.Error("ranks and dims disagree");
  return Status::Ok();
}

}  // namespace

void RegisterMemoryOps(OpRegistry& r) {
  r.Register(OpBuilder("Variable").Inputs(1, 1).Infer(SameAsFirst).Variable());
  r.Register(OpBuilder("Assign").Inputs(2, 2).Infer(UpdateOf(false)).Reference().Mutable({M::kWriteable}));
  r.Register(OpBuilder("AssignAdd").Inputs(2, 2).Infer(UpdateOf(true)).Reference().Mutable({M::kWriteable}));
  OpDef scatter = OpBuilder("ScatterAdd").Inputs(2, 3).Infer(InferScatterAdd).Atomic({0})
                      .Mutable({M::kReadOnly, M::kReadOnly, M::kWriteable});
  scatter.memory.reference_outputs = {2};  // with an accumulator, the output is its memory
  r.Register(std::move(scatter));
  r.Register(OpBuilder("AtomicAddrClean").Inputs(0, 0).Outputs(1, -1).Infer(InferAtomicAddrClean));
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
