// Reductions over a set of axes (Reduce*) and over one axis with an index
// result (ArgMax/ArgMin).
#include <set>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;
using infer::IntList;

// Axes: attribute, or input 1 from opset `axes_input_since` on (13 for
// ReduceSum, 18 for the rest). No axes reduces everything, unless
// noop_with_empty_axes=1 makes the op an identity.
InferFn InferReduce(int64_t axes_input_since) {
  return [axes_input_since](InferContext& ctx) -> Status {
    const TensorDesc& x = ctx.input(0);
    const bool keep = ctx.node().GetInt("keepdims", 1) != 0;
    GE_ASSIGN_OR_RETURN(IntList axes, infer::ReadIntList(ctx, "axes", 1, axes_input_since));
    if (x.unknown_rank()) {
      infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
      return Status::Ok();
    }
    const size_t r = x.dims.size();
    if (axes.state == IntList::kUnknown) {
      const int64_t n = axes.length;
      infer::SetOutput(ctx, 0, x.dtype,
                       keep ? infer::UnknownDims(r)
                       : n < 0 || n > x.rank() ? infer::UnknownRank()
                                               : infer::UnknownDims(r - static_cast<size_t>(n)));
      return Status::Ok();
    }
    std::set<int64_t> reduced;
    if (axes.values.empty()) {
      if (ctx.node().GetInt("noop_with_empty_axes", 0) != 0) {
        infer::SetOutputLike(ctx, 0, 0);
        return Status::Ok();
      }
      for (size_t i = 0; i < r; ++i) reduced.insert(static_cast<int64_t>(i));
    } else {
      GE_ASSIGN_OR_RETURN(Dims norm, infer::NormalizeAxes(ctx, axes.values, x.rank()));
      reduced.insert(norm.begin(), norm.end());
    }
    Dims out;
    for (size_t i = 0; i < r; ++i) {
      if (!reduced.count(static_cast<int64_t>(i))) out.push_back(x.dims[i]);
      else if (keep) out.push_back(1);
    }
    infer::SetOutput(ctx, 0, x.dtype, std::move(out));
    return Status::Ok();
  };
}

Status InferArgReduce(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, DataType::kInt64, infer::UnknownRank());
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), x.rank()));
  Dims out = x.dims;
  if (ctx.node().GetInt("keepdims", 1) != 0) out[axis] = 1;
  else out.erase(out.begin() + axis);
  infer::SetOutput(ctx, 0, DataType::kInt64, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterReduceOps(OpRegistry& r) {
  const std::map<std::string, AttrValue> defaults = {{"keepdims", int64_t{1}}, {"noop_with_empty_axes", int64_t{0}}};
  r.Register(OpBuilder("ReduceSum").Inputs(1, 2).Defaults(defaults).Infer(InferReduce(13)).ValueInputs({1}));
  for (const char* type : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceSumSquare",
                           "ReduceLogSum", "ReduceLogSumExp"})
    r.Register(OpBuilder(type).Inputs(1, 2).Defaults(defaults).Infer(InferReduce(18)).ValueInputs({1}));
  for (const char* type : {"ArgMax", "ArgMin"})
    r.Register(OpBuilder(type)
                   .Inputs(1, 1)
                   .Defaults({{"axis", int64_t{0}}, {"keepdims", int64_t{1}}, {"select_last_index", int64_t{0}}})
                   .Infer(InferArgReduce));
}

}  // namespace ge
