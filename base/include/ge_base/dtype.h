// Element types shared by the HAL, the IR and the .om format. The numeric
// values are stored in .om files: append, never renumber.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ge {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat32 = 1,
  kFloat16 = 2,
  kBFloat16 = 3,
  kFloat64 = 4,
  kInt8 = 5,
  kInt16 = 6,
  kInt32 = 7,
  kInt64 = 8,
  kUInt8 = 9,
  kUInt16 = 10,
  kUInt32 = 11,
  kUInt64 = 12,
  kBool = 13,
};

// Bytes per element; 0 for kUndefined.
size_t DataTypeSize(DataType t);
// Short name used in text forms and messages: "f32", "i64", "bool", ...
const char* DataTypeName(DataType t);
// Parses DataTypeName() output; kUndefined when unknown.
DataType DataTypeFromName(const std::string& name);
bool IsFloatingPoint(DataType t);

// Product of dims; -1 when any dim is negative (unknown) or the product does
// not fit in int64 (TensorDesc::too_large tells the two apart). 0 when a dim
// is 0, whatever the others. Sizes that allocate use TensorBytes
// (ge_base/tensor_bytes.h), which says why a shape is refused.
int64_t NumElements(const std::vector<int64_t>& dims);

}  // namespace ge
