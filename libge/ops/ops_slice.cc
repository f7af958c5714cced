// Slice: starts/ends/axes/steps from inputs 1..4 (attributes before opset
// 10), with ONNX's clamping rules. Ends like INT64_MAX / INT64_MIN mean "to
// the end" in either direction.
#include <algorithm>
#include <numeric>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;
using infer::IntList;

// Number of elements Slice takes from an axis of size d (d >= 0, step != 0).
// Negative start/end count from the back; then for step > 0 both clamp to
// [0, d], for step < 0 start clamps to [0, d-1] and end to [-1, d-1].
int64_t SliceLength(int64_t d, int64_t start, int64_t end, int64_t step) {
  if (d == 0) return 0;
  if (start < 0) start += d;  // cannot overflow: d >= 0
  if (end < 0) end += d;
  // 128-bit so that steps like INT64_MIN cannot overflow.
  __int128 s, e, n;
  if (step > 0) {
    s = std::clamp<int64_t>(start, 0, d);
    e = std::clamp<int64_t>(end, 0, d);
    n = e > s ? (e - s - 1) / step + 1 : 0;
  } else {
    s = std::clamp<int64_t>(start, 0, d - 1);
    e = std::clamp<int64_t>(end, -1, d - 1);
    n = s > e ? (s - e - 1) / -static_cast<__int128>(step) + 1 : 0;
  }
  return static_cast<int64_t>(n);
}

Status InferSlice(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  GE_ASSIGN_OR_RETURN(IntList starts, infer::ReadIntList(ctx, "starts", 1, 10));
  GE_ASSIGN_OR_RETURN(IntList ends, infer::ReadIntList(ctx, "ends", 2, 10));
  GE_ASSIGN_OR_RETURN(IntList axes, infer::ReadIntList(ctx, "axes", 3, 10));
  GE_ASSIGN_OR_RETURN(IntList steps, infer::ReadIntList(ctx, "steps", 4, 10));
  if (starts.state == IntList::kAbsent || ends.state == IntList::kAbsent)
    return ctx.Error("needs starts and ends (inputs 1 and 2; attributes before opset 10)");
  for (size_t i = 1; i < ctx.num_inputs(); ++i)
    GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, i, infer::IsIndex, "int32 or int64"));
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  Dims out = x.dims;
  // Which axes are sliced: given, or the first len(starts).
  Dims ax;
  if (axes.state == IntList::kUnknown) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(x.dims.size()));
    return Status::Ok();
  }
  if (axes.state == IntList::kKnown) {
    GE_ASSIGN_OR_RETURN(ax, infer::NormalizeAxes(ctx, axes.values, x.rank()));
  } else {
    int64_t n = starts.state == IntList::kKnown ? static_cast<int64_t>(starts.values.size())
                : ends.state == IntList::kKnown  ? static_cast<int64_t>(ends.values.size())
                                                 : starts.length;
    if (n > x.rank())
      return ctx.Error("slices " + std::to_string(n) + " axes of " + x.ToString() + ", which has rank " +
                       std::to_string(x.rank()));
    if (n < 0) {
      infer::SetOutput(ctx, 0, x.dtype, infer::UnknownDims(x.dims.size()));
      return Status::Ok();
    }
    ax.resize(static_cast<size_t>(n));
    std::iota(ax.begin(), ax.end(), 0);
  }
  const size_t n = ax.size();
  auto check_len = [&](const IntList& l, const char* name) -> Status {
    if (l.state == IntList::kKnown && l.values.size() != n)
      return ctx.Error(std::string(name) + " " + infer::ValuesToString(l.values) + " has " + std::to_string(l.values.size()) +
                       " values for " + std::to_string(n) + " sliced axes");
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(check_len(starts, "starts"));
  GE_RETURN_IF_ERROR(check_len(ends, "ends"));
  GE_RETURN_IF_ERROR(check_len(steps, "steps"));
  const bool known = starts.state == IntList::kKnown && ends.state == IntList::kKnown &&
                     steps.state != IntList::kUnknown;
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = ax[k];
    const int64_t step = steps.state == IntList::kKnown ? steps.values[k] : 1;
    if (step == 0) return ctx.Error("steps " + infer::ValuesToString(steps.values) + " has a 0 step");
    if (!known || x.dims[a] < 0) {
      out[a] = kUnknownDim;
      continue;
    }
    out[a] = SliceLength(x.dims[a], starts.values[k], ends.values[k], step);
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterSliceOps(OpRegistry& r) {
  r.Register(OpBuilder("Slice").Inputs(3, 5).Infer(InferSlice).ValueInputs({1, 2, 3, 4}));
}

}  // namespace ge
