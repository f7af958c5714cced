// Data movement: Transpose, Concat, Split, Gather, GatherElements, Pad,
// Trilu. (Slice has its own file for its clamping rules.)
#include <numeric>
#include <set>

#include "ge_base/checked_math.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;
using infer::IntList;

Status InferTranspose(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const bool has_perm = ctx.node().HasAttr("perm");
  Dims perm = ctx.node().GetInts("perm");
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, has_perm ? infer::UnknownDims(perm.size()) : infer::UnknownRank());
    return Status::Ok();
  }
  const size_t r = x.dims.size();
  if (!has_perm) {
    perm.resize(r);
    std::iota(perm.rbegin(), perm.rend(), 0);  // default: reverse the dims
  }
  if (perm.size() != r)
    return ctx.Error("perm " + infer::ValuesToString(perm) + " must have one entry per dim of " + x.ToString());
  GE_ASSIGN_OR_RETURN(Dims p, infer::NormalizeAxes(ctx, perm, x.rank(), "perm"));
  Dims out;
  for (int64_t a : p) out.push_back(x.dims[a]);
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// Inputs agree on every dim but `axis`, whose sizes add up.
Status InferConcat(InferContext& ctx) {
  if (!ctx.node().HasAttr("axis")) return ctx.Error("needs attribute 'axis'");
  std::vector<size_t> all(ctx.num_inputs());
  std::iota(all.begin(), all.end(), 0);
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, all));
  int ref = -1;  // first input of known rank
  for (size_t i = 0; i < ctx.num_inputs() && ref < 0; ++i)
    if (ctx.has_input(i) && !ctx.input(i).unknown_rank()) ref = static_cast<int>(i);
  if (ref < 0) {
    infer::SetOutput(ctx, 0, t, infer::UnknownRank());
    return Status::Ok();
  }
  const TensorDesc& first = ctx.input(ref);
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), first.rank()));
  Dims out = first.dims;
  int64_t sum = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    const TensorDesc& in = ctx.input(i);
    if (in.unknown_rank()) {
      sum = kUnknownDim;
      continue;
    }
    if (in.rank() != first.rank())
      return ctx.Error("input " + std::to_string(i) + " " + in.ToString() + " has rank " + std::to_string(in.rank()) +
                       ", but input " + std::to_string(ref) + " " + first.ToString() + " has rank " +
                       std::to_string(first.rank()));
    for (size_t d = 0; d < out.size(); ++d) {
      if (static_cast<int64_t>(d) == axis) continue;
      if (out[d] < 0) out[d] = in.dims[d];
      else if (in.dims[d] >= 0 && in.dims[d] != out[d])
        return ctx.Error("input " + std::to_string(i) + " " + in.ToString() + " differs from " + DimsToString(out) +
                         " in dim " + std::to_string(d) + " (" + std::to_string(in.dims[d]) + " vs " +
                         std::to_string(out[d]) + "), which is not the concat axis " + std::to_string(axis));
    }
    if (sum < 0 || in.dims[axis] < 0) {
      sum = kUnknownDim;
      continue;
    }
    const std::optional<int64_t> grown = CheckedAdd(sum, in.dims[axis]);
    if (!grown) return ctx.Error("the inputs' sizes along axis " + std::to_string(axis) + " add up to more than int64 holds");
    sum = *grown;
  }
  out[axis] = sum;
  infer::SetOutput(ctx, 0, t, std::move(out));
  return Status::Ok();
}

// Sizes along the axis: from split (attribute before opset 13, input 1 since),
// else equal parts (since opset 18 the last one may be smaller).
Result<Dims> SplitSizes(InferContext& ctx, int64_t dim, const IntList& split) {
  const size_t n = ctx.num_outputs();
  if (split.state == IntList::kUnknown) return infer::UnknownDims(n);
  if (split.state == IntList::kKnown && !split.values.empty()) {
    const Dims& s = split.values;
    if (s.size() != n)
      return ctx.Error("split " + infer::ValuesToString(s) + " has " + std::to_string(s.size()) + " sizes for " +
                       std::to_string(n) + " outputs");
    int64_t total = 0;
    for (int64_t v : s) {
      if (v < 0) return ctx.Error("split " + infer::ValuesToString(s) + " has a negative size");
      const std::optional<int64_t> sum = CheckedAdd(total, v);
      if (!sum) return ctx.Error("split " + infer::ValuesToString(s) + " adds up to more than int64 holds");
      total = *sum;
    }
    if (dim >= 0 && total != dim)
      return ctx.Error("split " + infer::ValuesToString(s) + " adds up to " + std::to_string(total) + ", but the axis has " +
                       std::to_string(dim));
    return s;
  }
  if (ctx.node().HasAttr("num_outputs") && ctx.node().GetInt("num_outputs", 0) != static_cast<int64_t>(n))
    return ctx.Error("num_outputs is " + std::to_string(ctx.node().GetInt("num_outputs", 0)) + ", but the node has " +
                     std::to_string(n) + " outputs");
  if (dim < 0) return infer::UnknownDims(n);
  const int64_t parts = static_cast<int64_t>(n);
  if (dim % parts == 0) return Dims(n, dim / parts);
  const int64_t opset = infer::Opset(ctx.node());
  const int64_t chunk = (dim + parts - 1) / parts;
  const int64_t last = dim - chunk * (parts - 1);
  if ((opset >= 0 && opset < 18) || last <= 0)
    return ctx.Error("axis of size " + std::to_string(dim) + " does not split evenly into " + std::to_string(n) +
                     " outputs");
  Dims s(n, chunk);
  s.back() = last;
  return s;
}

Status InferSplit(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  GE_ASSIGN_OR_RETURN(IntList split, infer::ReadIntList(ctx, "split", 1, 13));
  if (x.unknown_rank()) {
    for (size_t j = 0; j < ctx.num_outputs(); ++j) infer::SetOutput(ctx, j, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), x.rank()));
  GE_ASSIGN_OR_RETURN(Dims sizes, SplitSizes(ctx, x.dims[axis], split));
  for (size_t j = 0; j < ctx.num_outputs(); ++j) {
    Dims d = x.dims;
    d[axis] = sizes[j];
    infer::SetOutput(ctx, j, x.dtype, std::move(d));
  }
  return Status::Ok();
}

// Indices (input 1) known at compile time lie in [-dim, dim) of data's axis.
Status CheckKnownIndices(InferContext& ctx, const TensorDesc& data, int64_t axis) {
  const int64_t dim = data.dims[axis];
  if (auto v = infer::InputInts(ctx, 1); v && dim >= 0) {
    for (int64_t i : *v)
      if (i < -dim || i >= dim)
        return ctx.Error("index " + std::to_string(i) + " is out of range for axis " + std::to_string(axis) +
                         " of size " + std::to_string(dim) + " (data " + data.ToString() + ")");
  }
  return Status::Ok();
}

// data.shape[:axis] + indices.shape + data.shape[axis+1:]
Status InferGather(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc& data = ctx.input(0);
  const TensorDesc& idx = ctx.input(1);
  if (data.unknown_rank() || idx.unknown_rank()) {
    infer::SetOutput(ctx, 0, data.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), data.rank()));
  GE_RETURN_IF_ERROR(CheckKnownIndices(ctx, data, axis));
  Dims out(data.dims.begin(), data.dims.begin() + axis);
  out.insert(out.end(), idx.dims.begin(), idx.dims.end());
  out.insert(out.end(), data.dims.begin() + axis + 1, data.dims.end());
  infer::SetOutput(ctx, 0, data.dtype, std::move(out));
  return Status::Ok();
}

// Output: the indices' shape. Indices have data's rank and, off the axis, no
// dim larger than data's: each output element reads data at its own position
// but along the axis.
Status InferGatherElements(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc& data = ctx.input(0);
  const TensorDesc& idx = ctx.input(1);
  if (!data.unknown_rank() && !idx.unknown_rank()) {
    if (data.rank() == 0) return ctx.Error("data must have rank >= 1, but is " + data.ToString());
    if (idx.rank() != data.rank())
      return ctx.Error("indices " + idx.ToString() + " must have the rank of data " + data.ToString());
    GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), data.rank()));
    for (int64_t d = 0; d < data.rank(); ++d)
      if (d != axis && data.dims[d] >= 0 && idx.dims[d] > data.dims[d])
        return ctx.Error("indices " + idx.ToString() + " are larger than data " + data.ToString() + " in dim " +
                         std::to_string(d) + ", which is not the axis " + std::to_string(axis));
    GE_RETURN_IF_ERROR(CheckKnownIndices(ctx, data, axis));
  }
  infer::SetOutput(ctx, 0, data.dtype, idx.dims);
  return Status::Ok();
}

// pads (input 1; our opsets start at 11, where it stopped being an attribute)
// hold all begins then all ends, for every axis or for the axes of input 3
// (opset 18). Negative pads crop.
Status InferPad(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const std::string mode = ctx.node().GetString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return ctx.Error("mode '" + mode + "' is not one of constant, reflect, edge, wrap");
  GE_ASSIGN_OR_RETURN(IntList pads, infer::ReadIntList(ctx, "pads", 1, 11));
  if (pads.state == IntList::kAbsent) return ctx.Error("needs pads (input 1)");
  GE_RETURN_IF_ERROR(infer::CommonDtype(ctx, {0, 2}).status());
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  Dims axes(x.dims.size());
  std::iota(axes.begin(), axes.end(), 0);
  if (ctx.has_input(3)) {
    auto given = infer::InputInts(ctx, 3);
    if (!given) {
      infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(x.dims.size()));
      return Status::Ok();
    }
    GE_ASSIGN_OR_RETURN(axes, infer::NormalizeAxes(ctx, *given, x.rank()));
  }
  Dims out = x.dims;
  if (pads.state == IntList::kUnknown) {
    for (int64_t a : axes) out[a] = kUnknownDim;
    infer::SetOutput(ctx, 0, x.dtype, std::move(out));
    return Status::Ok();
  }
  const Dims& p = pads.values;
  const size_t n = axes.size();
  if (p.size() != 2 * n)
    return ctx.Error("pads " + infer::ValuesToString(p) + " must have " + std::to_string(2 * n) + " values for " +
                     x.ToString());
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = axes[k];
    if (x.dims[a] < 0) continue;
    const auto padded = CheckedAdd(x.dims[a], p[k]);
    const auto total = padded ? CheckedAdd(*padded, p[k + n]) : std::nullopt;
    if (!total)
      return ctx.Error("pads " + infer::ValuesToString(p) + " overflow axis " + std::to_string(a) + " of " + x.ToString());
    out[a] = *total;
    if (out[a] < 0)
      return ctx.Error("pads " + infer::ValuesToString(p) + " crop axis " + std::to_string(a) + " of " + x.ToString() +
                       " below zero");
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// The matrices are the last two dims; k (input 1, optional) is a scalar
// diagonal offset. The output is the input's shape whatever k is.
Status InferTrilu(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (!x.unknown_rank() && x.rank() < 2)
    return ctx.Error("input must have rank >= 2 (a matrix or a batch of them), but is " + x.ToString());
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int32 or int64"));
  const TensorDesc& k = ctx.input(1);
  if (ctx.has_input(1) && !k.unknown_rank() && k.NumElements() > 1)
    return ctx.Error("k must be a scalar, but is " + k.ToString());
  infer::SetOutputLike(ctx, 0, 0);
  return Status::Ok();
}

}  // namespace

void RegisterMovementOps(OpRegistry& r) {
  r.Register(OpBuilder("Transpose").Inputs(1, 1).Infer(InferTranspose));
  // Inputs laid out back to back make the output without a copy.
  r.Register(OpBuilder("Concat").Inputs(1, -1).Infer(InferConcat).ContinuousInput());
  // Outputs laid out back to back are views of the input.
  r.Register(OpBuilder("Split").Inputs(1, 2).Outputs(1, -1).Defaults({{"axis", int64_t{0}}}).Infer(InferSplit)
                 .ContinuousOutput().ValueInputs({1}));
  r.Register(OpBuilder("Gather").Inputs(2, 2).Defaults({{"axis", int64_t{0}}}).Infer(InferGather));
  r.Register(OpBuilder("GatherElements").Inputs(2, 2).Defaults({{"axis", int64_t{0}}}).Infer(InferGatherElements));
  r.Register(OpBuilder("Pad").Inputs(2, 4).Defaults({{"mode", std::string("constant")}}).Infer(InferPad)
                 .ValueInputs({1, 3}));
  r.Register(OpBuilder("Trilu").Inputs(1, 2).Defaults({{"upper", int64_t{1}}}).Infer(InferTrilu));
}

}  // namespace ge
