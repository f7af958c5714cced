// Ops that only reinterpret their input's dims: Reshape, Flatten, Squeeze,
// Unsqueeze. The data is unchanged, so output 0 may alias input 0.
#include <algorithm>
#include <set>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;
using infer::IntList;

// Shape value entries: 0 copies the input dim at the same index (unless
// allowzero=1, where 0 is a real 0), -1 is inferred from the element count.
Status InferReshape(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int64"));
  const TensorDesc& x = ctx.input(0);
  auto value = infer::InputInts(ctx, 1);
  if (!value) {
    const int64_t n = infer::OperandLength(ctx.input(1));
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDimsOrRank(n));
    return Status::Ok();
  }
  const Dims& shape = *value;
  const bool allowzero = ctx.node().GetInt("allowzero", 0) != 0;
  const bool in_known_rank = !x.unknown_rank();
  Dims out = shape;
  std::vector<bool> copied(out.size(), false);
  std::set<size_t> copied_in;
  int infer_at = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (shape[i] == -1) {
      if (infer_at >= 0) return ctx.Error("shape " + infer::ValuesToString(shape) + " has more than one -1");
      infer_at = static_cast<int>(i);
    } else if (shape[i] == 0 && !allowzero) {
      if (in_known_rank && i >= x.dims.size())
        return ctx.Error("shape " + infer::ValuesToString(shape) + " copies dim " + std::to_string(i) + " (0) of input " +
                         x.ToString() + ", which has no such dim");
      out[i] = in_known_rank ? x.dims[i] : kUnknownDim;
      copied[i] = true;
      copied_in.insert(i);
    } else if (shape[i] < -1) {
      return ctx.Error("shape " + infer::ValuesToString(shape) + " has invalid dim " + std::to_string(shape[i]));
    }
  }
  if (allowzero && infer_at >= 0 && std::count(shape.begin(), shape.end(), 0) > 0)
    return ctx.Error("with allowzero=1 shape " + infer::ValuesToString(shape) + " cannot hold both 0 and -1");
  if (in_known_rank) {
    // Copied dims appear on both sides and cancel, even when unknown.
    Dims in_rest, out_rest;
    for (size_t i = 0; i < x.dims.size(); ++i)
      if (!copied_in.count(i)) in_rest.push_back(x.dims[i]);
    for (size_t i = 0; i < out.size(); ++i)
      if (!copied[i] && static_cast<int>(i) != infer_at) out_rest.push_back(out[i]);
    const auto have_or = infer::DimProduct(in_rest), want_or = infer::DimProduct(out_rest);
    if (!have_or || !want_or)
      return ctx.Error("cannot reshape " + x.ToString() + " into " + infer::ValuesToString(shape) +
                       ": the element count does not fit in int64");
    const int64_t have = *have_or, want = *want_or;
    auto mismatch = [&] {
      return ctx.Error("cannot reshape " + x.ToString() + " into " + infer::ValuesToString(shape) + ": " +
                       std::to_string(have) + " elements do not make " +
                       (infer_at >= 0 ? "a whole number of " + std::to_string(want) : std::to_string(want)));
    };
    if (infer_at >= 0 && have >= 0 && want >= 0) {
      if (want == 0) {
        if (have != 0) return mismatch();  // 0 * n can never hold them; 0 of 0 leaves -1 open
      } else if (have % want != 0) {
        return mismatch();
      } else {
        out[infer_at] = have / want;
      }
    } else if (infer_at < 0 && have >= 0 && want >= 0 && have != want) {
      return mismatch();
    }
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// [prod(dims[:axis]), prod(dims[axis:])], axis in [-rank, rank].
Status InferFlatten(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(2));
    return Status::Ok();
  }
  const int64_t r = x.rank();
  int64_t axis = ctx.node().GetInt("axis", 1);
  if (axis < -r || axis > r)
    return ctx.Error("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r) + " (valid: " +
                     std::to_string(-r) + ".." + std::to_string(r) + ")");
  if (axis < 0) axis += r;
  const size_t a = static_cast<size_t>(axis);
  const auto rows = infer::DimProduct(x.dims, 0, a), cols = infer::DimProduct(x.dims, a, x.dims.size());
  if (!rows || !cols) return ctx.Error("input " + x.ToString() + " has more elements than int64 holds");
  infer::SetOutput(ctx, 0, x.dtype, {*rows, *cols});
  return Status::Ok();
}

// Axes: attribute before opset 13, optional input 1 since. Without axes every
// 1-dim goes, which needs every dim known.
Status InferSqueeze(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  GE_ASSIGN_OR_RETURN(IntList axes, infer::ReadIntList(ctx, "axes", 1, 13));
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  Dims out;
  if (axes.state == IntList::kUnknown) {
    const int64_t n = axes.length;
    out = n < 0 || n > x.rank() ? infer::UnknownRank() : infer::UnknownDims(x.dims.size() - n);
  } else if (axes.state == IntList::kAbsent || axes.values.empty()) {
    for (int64_t d : x.dims) {
      if (d < 0) {
        out = infer::UnknownRank();  // an unknown dim may or may not be 1
        break;
      }
      if (d != 1) out.push_back(d);
    }
  } else {
    GE_ASSIGN_OR_RETURN(Dims norm, infer::NormalizeAxes(ctx, axes.values, x.rank()));
    std::set<int64_t> drop(norm.begin(), norm.end());
    for (size_t i = 0; i < x.dims.size(); ++i) {
      if (!drop.count(static_cast<int64_t>(i))) {
        out.push_back(x.dims[i]);
      } else if (x.dims[i] >= 0 && x.dims[i] != 1) {
        return ctx.Error("cannot squeeze axis " + std::to_string(i) + " of " + x.ToString() + ": its size is " +
                         std::to_string(x.dims[i]) + ", not 1");
      }
    }
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

// Axes (required) index the output, whose rank is the input's plus their count.
Status InferUnsqueeze(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  GE_ASSIGN_OR_RETURN(IntList axes, infer::ReadIntList(ctx, "axes", 1, 13));
  if (axes.state == IntList::kAbsent) return ctx.Error("needs axes (attribute before opset 13, input 1 since)");
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  if (axes.state == IntList::kUnknown) {
    infer::SetOutput(ctx, 0, x.dtype,
                     infer::UnknownDimsOrRank(axes.length < 0 ? -1 : x.rank() + axes.length));
    return Status::Ok();
  }
  const int64_t out_rank = x.rank() + static_cast<int64_t>(axes.values.size());
  GE_ASSIGN_OR_RETURN(Dims norm, infer::NormalizeAxes(ctx, axes.values, out_rank));
  std::set<int64_t> ones(norm.begin(), norm.end());
  Dims out;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) out.push_back(ones.count(i) ? 1 : x.dims[next++]);
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterReshapeOps(OpRegistry& r) {
  r.Register(OpBuilder("Reshape").Inputs(2, 2).Defaults({{"allowzero", int64_t{0}}}).Infer(InferReshape).Reference()
                 .ValueInputs({1}));
  r.Register(OpBuilder("Flatten").Inputs(1, 1).Defaults({{"axis", int64_t{1}}}).Infer(InferFlatten).Reference());
  // Input 1 (axes) exists since opset 13; before, the attribute.
  r.Register(OpBuilder("Squeeze").Inputs(1, 2).Infer(InferSqueeze).Reference().ValueInputs({1}));
  r.Register(OpBuilder("Unsqueeze").Inputs(1, 2).Infer(InferUnsqueeze).Reference().ValueInputs({1}));
}

}  // namespace ge
