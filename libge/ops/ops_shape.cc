// Ops about shapes: Shape and Size read one, ConstantOfShape, Range, Expand
// and Tile make tensors whose shape is given by (known or unknown) values.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "ge_base/range_length.h"
#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// Opset 15's start/end select a sub-range of the dims, clamped to [0, rank].
Status InferShape(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  if (x.unknown_rank()) {
    infer::SetOutput(ctx, 0, DataType::kInt64, {kUnknownDim});
    return Status::Ok();
  }
  const int64_t r = x.rank();
  auto clamp = [r](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t{0}, r); };
  const int64_t start = clamp(ctx.node().GetInt("start", 0));
  const int64_t end = clamp(ctx.node().GetInt("end", r));
  infer::SetOutput(ctx, 0, DataType::kInt64, {std::max<int64_t>(0, end - start)});
  return Status::Ok();
}

Status InferSize(InferContext& ctx) {
  infer::SetOutput(ctx, 0, DataType::kInt64, {});
  return Status::Ok();
}

// Dims given by the values of input i, which must not be negative; when the
// values are unknown, as many unknown dims as the operand has elements.
Result<Dims> DimsFromInput(InferContext& ctx, size_t i, const char* what) {
  if (auto v = infer::InputInts(ctx, i)) {
    for (int64_t d : *v)
      if (d < 0) return ctx.Error(std::string(what) + " " + infer::ValuesToString(*v) + " has a negative dim");
    return std::move(*v);
  }
  const int64_t n = infer::OperandLength(ctx.input(i));
  return infer::UnknownDimsOrRank(n);
}

Status InferConstantOfShape(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, infer::IsIndex, "int64"));
  DataType t = DataType::kFloat32;  // the default value is a float 0
  if (const Tensor* v = ctx.node().GetTensor("value")) {
    if (v->desc().NumElements() != 1)
      return ctx.Error("value must hold one element, but is " + v->desc().ToString());
    t = v->desc().dtype;
  }
  GE_ASSIGN_OR_RETURN(Dims dims, DimsFromInput(ctx, 0, "shape"));
  infer::SetOutput(ctx, 0, t, std::move(dims));
  return Status::Ok();
}

// Number of elements of Range(start, limit, delta): max(ceil((limit-start)/delta), 0).
Result<int64_t> RangeLength(InferContext& ctx, DataType t) {
  const Tensor* s = ctx.input_value(0);
  const Tensor* l = ctx.input_value(1);
  const Tensor* d = ctx.input_value(2);
  if (!s || !l || !d || s->ToDouble().empty() || l->ToDouble().empty() || d->ToDouble().empty()) return kUnknownDim;
  if (infer::IsInteger(t)) {
    const int64_t start = s->ToInt64()[0], limit = l->ToInt64()[0], delta = d->ToInt64()[0];
    if (delta == 0) return ctx.Error("delta must not be 0");
    const std::optional<int64_t> n = IntegerRangeLength(start, limit, delta);
    if (!n) return ctx.Error("range has too many elements");
    return *n;
  }
  const double start = s->ToDouble()[0], limit = l->ToDouble()[0], delta = d->ToDouble()[0];
  if (delta == 0) return ctx.Error("delta must not be 0");
  const double n = std::ceil((limit - start) / delta);
  if (std::isnan(n) || n > 9.2e18) return ctx.Error("range has too many elements");
  return n <= 0 ? int64_t{0} : static_cast<int64_t>(n);
}

Status InferRange(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(DataType t, infer::CommonDtype(ctx, {0, 1, 2}));
  const char* names[] = {"start", "limit", "delta"};
  for (size_t i = 0; i < 3; ++i) {
    const int64_t n = ctx.input(i).NumElements();
    if (n > 1) return ctx.Error(std::string(names[i]) + " must be a scalar, but is " + ctx.input(i).ToString());
  }
  GE_ASSIGN_OR_RETURN(int64_t n, RangeLength(ctx, t));
  infer::SetOutput(ctx, 0, t, {n});
  return Status::Ok();
}

// Broadcast of the input with the shape operand (whose 1s keep input dims).
Status InferExpand(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int64"));
  GE_ASSIGN_OR_RETURN(Dims shape, DimsFromInput(ctx, 1, "shape"));
  GE_ASSIGN_OR_RETURN(Dims out, infer::Broadcast(ctx, ctx.input(0).dims, shape));
  infer::SetOutput(ctx, 0, ctx.input(0).dtype, std::move(out));
  return Status::Ok();
}

Status InferTile(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsIndex, "int64"));
  const TensorDesc& x = ctx.input(0);
  auto repeats = infer::InputInts(ctx, 1);
  Dims out;
  if (x.unknown_rank()) {
    const int64_t n = repeats ? static_cast<int64_t>(repeats->size()) : infer::OperandLength(ctx.input(1));
    out = infer::UnknownDimsOrRank(n);
  } else if (!repeats) {
    out = infer::UnknownDims(x.dims.size());
  } else {
    if (repeats->size() != x.dims.size())
      return ctx.Error("repeats " + infer::ValuesToString(*repeats) + " must have one value per dim of " + x.ToString());
    for (size_t i = 0; i < x.dims.size(); ++i) {
      const int64_t r = (*repeats)[i];
      if (r < 0) return ctx.Error("repeats " + infer::ValuesToString(*repeats) + " has a negative value");
      out.push_back(r == 0 ? 0 : x.dims[i] < 0 ? kUnknownDim : x.dims[i] * r);
    }
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterShapeOps(OpRegistry& r) {
  r.Register(OpBuilder("Shape").Inputs(1, 1).Defaults({{"start", int64_t{0}}}).Infer(InferShape));
  r.Register(OpBuilder("Size").Inputs(1, 1).Infer(InferSize));
  r.Register(OpBuilder("ConstantOfShape")
                 .Inputs(1, 1)
                 .Defaults({{"value", Tensor::FromVector(DataType::kFloat32, {1}, std::vector<float>{0.f})}})
                 .Infer(InferConstantOfShape)
                 .ValueInputs({0}));
  r.Register(OpBuilder("Range").Inputs(3, 3).Infer(InferRange).ValueInputs({0, 1, 2}));
  r.Register(OpBuilder("Expand").Inputs(2, 2).Infer(InferExpand).ValueInputs({1}));
  r.Register(OpBuilder("Tile").Inputs(2, 2).Infer(InferTile).ValueInputs({1}));
}

}  // namespace ge
