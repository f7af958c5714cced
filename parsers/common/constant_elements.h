// The element count of a constant read from a model file, shared by the ONNX
// and TF tensor readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge_base/dtype.h"
#include "ge_base/status.h"

namespace ge::parser_common {

// Element count of a `dtype` constant of `dims`, sized by ge_base's
// TensorBytes: negative dims, products that overflow and tensors above its
// cap are refused, so a hostile file cannot make us allocate or index past a
// buffer. Errors are Corrupt and start with `what`.
Result<int64_t> CheckedNumElements(const std::vector<int64_t>& dims, DataType dtype, const std::string& what);

}  // namespace ge::parser_common
