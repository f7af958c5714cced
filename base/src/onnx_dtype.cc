#include "ge_base/onnx_dtype.h"

namespace ge {

DataType DataTypeFromOnnx(int64_t onnx_elem_type) {
  switch (onnx_elem_type) {
    case 1: return DataType::kFloat32;    // FLOAT
    case 2: return DataType::kUInt8;      // UINT8
    case 3: return DataType::kInt8;       // INT8
    case 4: return DataType::kUInt16;     // UINT16
    case 5: return DataType::kInt16;      // INT16
    case 6: return DataType::kInt32;      // INT32
    case 7: return DataType::kInt64;      // INT64
    case 9: return DataType::kBool;       // BOOL
    case 10: return DataType::kFloat16;   // FLOAT16
    case 11: return DataType::kFloat64;   // DOUBLE
    case 12: return DataType::kUInt32;    // UINT32
    case 13: return DataType::kUInt64;    // UINT64
    case 16: return DataType::kBFloat16;  // BFLOAT16
    default: return DataType::kUndefined;
  }
}

}  // namespace ge
