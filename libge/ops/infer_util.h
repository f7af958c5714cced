// Helpers the op families share in their shape and dtype inference: dims
// arithmetic with unknowns, axis normalisation, int lists that come from an
// attribute or an input depending on the opset, dtype checks and the conv/pool
// window arithmetic. Private to libge/ops.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ge/ops/op_registry.h"

namespace ge::infer {

using Dims = std::vector<int64_t>;

inline Dims UnknownRank() { return {kUnknownRank}; }
inline Dims UnknownDims(size_t rank) { return Dims(rank, kUnknownDim); }
// Rank taken from an operand's length: unknown when the length is, or when it
// is beyond any real tensor's (a bogus [1e12] operand must not exhaust memory).
constexpr int64_t kMaxRank = 256;
inline Dims UnknownDimsOrRank(int64_t rank) {
  return rank < 0 || rank > kMaxRank ? UnknownRank() : UnknownDims(static_cast<size_t>(rank));
}
inline bool IsUnknownRank(const Dims& d) { return d.size() == 1 && d[0] == kUnknownRank; }
// "[0,-1]": an int list as values (DimsToString would print -1 as "?").
std::string ValuesToString(const Dims& v);

// Product of dims[begin, end): 0 if any known dim is 0 (whatever the unknowns),
// -1 if any is unknown, else the product; nullopt when it does not fit in
// int64 (dims from a hostile model's shape values).
std::optional<int64_t> DimProduct(const Dims& dims, size_t begin, size_t end);
inline std::optional<int64_t> DimProduct(const Dims& dims) { return DimProduct(dims, 0, dims.size()); }

// Writes dtype and dims of output j. The format is left as it is: ND for a
// fresh node, or whatever a layout pass chose, so re-inference keeps it.
void SetOutput(InferContext& ctx, size_t j, DataType dtype, Dims dims);
// Output j becomes input i's dtype and dims.
void SetOutputLike(InferContext& ctx, size_t j, size_t i);

// The model's default-domain opset the node came from (attr "_opset"), or -1
// when unknown (hand-built graphs, the TF parser): newest semantics then.
int64_t Opset(const Node& n);

// Maps axis from [-rank, rank) to [0, rank); `what` names the operand in the
// error ("axis", "axes[1]", ...).
Result<int64_t> NormalizeAxis(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what = "axis");
// Each axis normalised; repeated axes are an error.
Result<Dims> NormalizeAxes(const InferContext& ctx, const Dims& axes, int64_t rank, const std::string& what = "axes");

// Values of input i when it is known (a constant or an evaluated shape).
std::optional<Dims> InputInts(const InferContext& ctx, size_t i);
// Number of elements of a 1-D operand when its length is known, else -1.
int64_t OperandLength(const TensorDesc& d);

// An int-list operand (axes, split, pads, ...) that older opsets carry as
// attribute `attr` and opsets >= `input_since` as input `input`.
struct IntList {
  enum State { kAbsent, kKnown, kUnknown } state = kAbsent;
  Dims values;         // kKnown
  int64_t length = -1; // kUnknown: number of values when the operand's shape says so
};
Result<IntList> ReadIntList(InferContext& ctx, const std::string& attr, size_t input, int64_t input_since);

// All present inputs among `inputs` whose dtype is defined share one dtype;
// returns it (kUndefined when none is defined).
Result<DataType> CommonDtype(const InferContext& ctx, const std::vector<size_t>& inputs);
// Fails unless input i's dtype is undefined or accepted by `ok`.
Status CheckDtype(const InferContext& ctx, size_t i, bool (*ok)(DataType), const std::string& expected);
bool IsInteger(DataType t);
inline bool IsIndex(DataType t) { return t == DataType::kInt32 || t == DataType::kInt64; }
inline bool IsBool(DataType t) { return t == DataType::kBool; }

// BroadcastShapes with the error naming the node.
Result<Dims> Broadcast(const InferContext& ctx, const Dims& a, const Dims& b);

// ---- conv / pool windows ----

// The sliding-window attributes of Conv, ConvTranspose and the pools, read and
// checked against the number of spatial axes. kernel[i] is -1 when unknown.
struct Window {
  Dims kernel, strides, dilations, pads;  // pads: all begins, then all ends
  std::string auto_pad;                   // NOTSET, SAME_UPPER, SAME_LOWER, VALID
  bool ceil_mode = false;
};
// `kernel` is from kernel_shape or the weights; the rest from the node's attrs.
Result<Window> ReadWindow(InferContext& ctx, size_t spatial, Dims kernel);
// Output size of spatial axis `axis` of a conv/pool over `in` elements: -1 when
// unknown, an error when the window does not fit.
Result<int64_t> WindowOutDim(const InferContext& ctx, const Window& w, size_t axis, int64_t in);
// Output size of a transposed convolution along `axis`.
Result<int64_t> TransposedOutDim(const InferContext& ctx, const Window& w, size_t axis, int64_t in,
                                 int64_t output_padding);

}  // namespace ge::infer
