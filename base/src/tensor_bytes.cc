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

}  // namespace

Result<int64_t> CheckedElementCount(const std::vector<int64_t>& dims) {
  for (int64_t d : dims)
    if (d < 0) return InvalidArgument("shape " + CheckedShapeText(dims) + " has a negative dim");
  // Any 0 makes the tensor empty, whatever the other dims multiply to.
  for (int64_t d : dims)
    if (d == 0) return int64_t{0};
  const auto n = CheckedProduct(dims);
  if (!n) return InvalidArgument("shape " + CheckedShapeText(dims) + " is too large: its element count overflows int64");
  return *n;
}

Result<size_t> TensorBytes(const std::vector<int64_t>& dims, DataType dtype) {
  const std::string what = std::string(DataTypeName(dtype)) + CheckedShapeText(dims);
  Result<int64_t> n = CheckedElementCount(dims);
  if (!n.ok()) {
    for (int64_t d : dims)
      if (d < 0) return InvalidArgument(what + " has a negative dim");
    return InvalidArgument(what + " is too large: its element count overflows int64");
  }
  const auto bytes = CheckedMul(*n, static_cast<int64_t>(DataTypeSize(dtype)));
  if (!bytes) return InvalidArgument(what + " is too large: its byte count overflows int64");
  if (*bytes > kMaxTensorBytes)
    return InvalidArgument(what + " is too large: " + std::to_string(*bytes) +
                           " bytes, above the limit of 2^46 bytes (64 TiB) per tensor");
  return static_cast<size_t>(*bytes);
}

}  // namespace ge
