#include "ge_base/tensor_bytes.h"

#include "ge_base/checked_math.h"

namespace ge {
namespace {

std::string CheckedShapeText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

// The element count, or why there is none, with the tensor named by
// `name()`: called only on failure, as v2 sizes every node's output per call.
template <typename NameFn>
Result<int64_t> ElementCountOf(const std::vector<int64_t>& dims, NameFn name) {
  for (int64_t d : dims)
    if (d < 0) return InvalidArgument(name() + " has a negative dim");
  // Any 0 makes the tensor empty, whatever the other dims multiply to.
  for (int64_t d : dims)
    if (d == 0) return int64_t{0};
  const auto n = CheckedProduct(dims);
  if (!n) return InvalidArgument(name() + " is too large: its element count overflows int64");
  return *n;
}

}  // namespace

Result<int64_t> CheckedElementCount(const std::vector<int64_t>& dims) {
  return ElementCountOf(dims, [&] { return "shape " + CheckedShapeText(dims); });
}

Result<size_t> TensorBytes(const std::vector<int64_t>& dims, DataType dtype) {
  auto what = [&] { return std::string(DataTypeName(dtype)) + CheckedShapeText(dims); };
  GE_ASSIGN_OR_RETURN(const int64_t n, ElementCountOf(dims, what));
  const auto bytes = CheckedMul(n, static_cast<int64_t>(DataTypeSize(dtype)));
  if (!bytes) return InvalidArgument(what() + " is too large: its byte count overflows int64");
  if (*bytes > kMaxTensorBytes)
    return InvalidArgument(what() + " is too large: " + std::to_string(*bytes) +
                           " bytes, above the limit of 2^46 bytes (64 TiB) per tensor");
  return static_cast<size_t>(*bytes);
}

}  // namespace ge
