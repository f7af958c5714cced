// Ops whose output shapes only the computation knows (OpDef::computed_shape):
// NonZero, NonMaxSuppression, Unique and Compress. Inference keeps what is
// known without the data (the output ranks, the dims that do not depend on
// values, zero when an input is empty) and leaves the rest unknown; the
// kernel answers them per call (hal::Kernel::OutputDims), and the compiler's
// evaluator does so at compile time when the inputs are constants.
#include <algorithm>
#include <tuple>

#include "infer_util.h"
#include "op_families.h"

namespace ge {
namespace {

using infer::Dims;

// A count that is 0 when `n` elements are 0 and unknown otherwise (or 1 of 1,
// for Unique): what is known of a data-dependent dim without the data.
int64_t CountOf(int64_t n, int64_t known_up_to) { return n >= 0 && n <= known_up_to ? n : kUnknownDim; }

// The number of elements of x, or -1; 0 when a known dim is 0 whatever the unknowns.
int64_t Elements(const TensorDesc& x) {
  if (x.unknown_rank()) return kUnknownDim;
  return infer::DimProduct(x.dims).value_or(kUnknownDim);
}

// ONNX NonZero: int64 [rank, nnz], the coordinates of the non-zero elements.
// A scalar reads as one element (numpy's nonzero of a 0-d array): [1, nnz].
Status InferNonZero(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  const int64_t rank = x.unknown_rank() ? kUnknownDim : std::max<int64_t>(x.rank(), 1);
  infer::SetOutput(ctx, 0, DataType::kInt64, {rank, CountOf(Elements(x), 0)});
  return Status::Ok();
}

// A scalar operand given as a scalar or as [1] (the ONNX tests use both).
Status CheckOneValue(const InferContext& ctx, size_t i, const char* what) {
  if (!ctx.has_input(i)) return Status::Ok();
  const TensorDesc& d = ctx.input(i);
  if (d.unknown_rank()) return Status::Ok();
  if (d.rank() > 1 || (d.rank() == 1 && d.dims[0] > 1))
    return ctx.Error(std::string(what) + " (input " + std::to_string(i) + ") must hold one value, but is " +
                     d.ToString());
  return Status::Ok();
}

bool IsF32(DataType t) { return t == DataType::kFloat32; }
bool IsI64(DataType t) { return t == DataType::kInt64; }

// ONNX NonMaxSuppression (opset 10/11): boxes [N, S, 4], scores [N, C, S];
// int64 [selected, 3] rows of (batch, class, box). Without
// max_output_boxes_per_class nothing is selected.
Status InferNonMaxSuppression(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 0, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 2, IsI64, "int64"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 3, IsF32, "float32"));
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 4, IsF32, "float32"));
  GE_RETURN_IF_ERROR(CheckOneValue(ctx, 2, "max_output_boxes_per_class"));
  GE_RETURN_IF_ERROR(CheckOneValue(ctx, 3, "iou_threshold"));
  GE_RETURN_IF_ERROR(CheckOneValue(ctx, 4, "score_threshold"));
  const int64_t center = ctx.node().GetInt("center_point_box", 0);
  if (center != 0 && center != 1) return ctx.Error("center_point_box must be 0 or 1, not " + std::to_string(center));
  const TensorDesc& boxes = ctx.input(0);
  const TensorDesc& scores = ctx.input(1);
  if (!boxes.unknown_rank() && (boxes.rank() != 3 || (boxes.dims[2] >= 0 && boxes.dims[2] != 4)))
    return ctx.Error("boxes must be [batches, boxes, 4], but are " + boxes.ToString());
  if (!scores.unknown_rank() && scores.rank() != 3)
    return ctx.Error("scores must be [batches, classes, boxes], but are " + scores.ToString());
  if (!boxes.unknown_rank() && !scores.unknown_rank())
    for (auto [b, s, what] : {std::tuple{0, 0, "batches"}, std::tuple{1, 2, "boxes"}})
      if (boxes.dims[b] >= 0 && scores.dims[s] >= 0 && boxes.dims[b] != scores.dims[s])
        return ctx.Error(std::string("boxes ") + boxes.ToString() + " and scores " + scores.ToString() +
                         " disagree on the number of " + what);
  const bool none = !ctx.has_input(2) || Elements(ctx.input(2)) == 0 || Elements(scores) == 0;
  infer::SetOutput(ctx, 0, DataType::kInt64, {none ? 0 : kUnknownDim, 3});
  return Status::Ok();
}

// ONNX Unique (opset 11): without `axis` the elements of the flattened input,
// with it the slices along the axis. Y has as many as are distinct; indices
// and counts one per distinct one, inverse_indices one per input one.
Status InferUnique(InferContext& ctx) {
  const TensorDesc& x = ctx.input(0);
  Dims y;
  int64_t n = kUnknownDim;
  if (!ctx.node().HasAttr("axis")) {
    n = Elements(x);
    y = {CountOf(n, 1)};  // 0 or 1 elements are all distinct
  } else if (x.unknown_rank()) {
    y = infer::UnknownRank();
  } else {
    GE_ASSIGN_OR_RETURN(int64_t axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), x.rank()));
    n = x.dims[axis];
    y = x.dims;
    y[axis] = CountOf(n, 1);
  }
  const int64_t unique = infer::IsUnknownRank(y) ? kUnknownDim : CountOf(n, 1);
  infer::SetOutput(ctx, 0, x.dtype, std::move(y));
  if (ctx.num_outputs() > 1) infer::SetOutput(ctx, 1, DataType::kInt64, {unique});
  if (ctx.num_outputs() > 2) infer::SetOutput(ctx, 2, DataType::kInt64, {n});
  if (ctx.num_outputs() > 3) infer::SetOutput(ctx, 3, DataType::kInt64, {unique});
  return Status::Ok();
}

// ONNX Compress: the elements of the flattened input (no `axis`) or the
// slices along the axis whose condition is true. A condition shorter than
// that drops the rest. Its values decide the output's length: known when
// the condition is a constant (value input 1), else the kernel's answer.
Status InferCompress(InferContext& ctx) {
  GE_RETURN_IF_ERROR(infer::CheckDtype(ctx, 1, infer::IsBool, "bool"));
  const TensorDesc& x = ctx.input(0);
  const TensorDesc& cond = ctx.input(1);
  if (!cond.unknown_rank() && cond.rank() != 1) return ctx.Error("condition must be 1-D, but is " + cond.ToString());
  const bool has_axis = ctx.node().HasAttr("axis");
  if (has_axis && x.unknown_rank()) {
    infer::SetOutput(ctx, 0, x.dtype, infer::UnknownRank());
    return Status::Ok();
  }
  int64_t axis = 0;
  if (has_axis) {
    GE_ASSIGN_OR_RETURN(axis, infer::NormalizeAxis(ctx, ctx.node().GetInt("axis", 0), x.rank()));
  }
  const int64_t n = has_axis ? x.dims[axis] : Elements(x);
  int64_t count = n == 0 || infer::OperandLength(cond) == 0 ? 0 : kUnknownDim;
  if (const Tensor* c = ctx.input_value(1); c && n >= 0) {
    const std::vector<int64_t> v = c->ToInt64();
    count = 0;
    for (size_t k = 0; k < v.size() && static_cast<int64_t>(k) < n; ++k) count += v[k] != 0;
  }
  Dims out = {count};
  if (has_axis) {
    out = x.dims;
    out[axis] = count;
  }
  infer::SetOutput(ctx, 0, x.dtype, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterDynamicOps(OpRegistry& r) {
  r.Register(OpBuilder("NonZero").Inputs(1, 1).Infer(InferNonZero).ComputedShape());
  r.Register(OpBuilder("NonMaxSuppression").Inputs(2, 5).Defaults({{"center_point_box", int64_t{0}}})
                 .Infer(InferNonMaxSuppression).ComputedShape());
  r.Register(OpBuilder("Unique").Inputs(1, 1).Outputs(1, 4).Defaults({{"sorted", int64_t{1}}})
                 .Infer(InferUnique).ComputedShape());
  r.Register(OpBuilder("Compress").Inputs(2, 2).Infer(InferCompress).ValueInputs({1}).ComputedShape());
}

}  // namespace ge
