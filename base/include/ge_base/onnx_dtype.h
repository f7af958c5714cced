// ONNX's TensorProto.DataType numbers, which reach ge from the ONNX parser
// and, after parsing, as attribute values (Cast's "to", ConstantOfShape's
// and the random ops' "dtype"): one mapping for the parser, shape inference
// and the kernels.
#pragma once

#include <cstdint>

#include "ge_base/dtype.h"

namespace ge {

// kUndefined for element types ge has no DataType for (string, complex,
// float8, ...).
DataType DataTypeFromOnnx(int64_t onnx_elem_type);

}  // namespace ge
