// The element count of a constant read from a model file, shared by the ONNX
// and TF tensor readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::parser_common {

// Element count of `dims`, refusing negative dims and products (times
// elem_size) that overflow: a hostile file must not make us allocate or index
// past a buffer. Errors are Corrupt and start with `what`.
Result<int64_t> CheckedNumElements(const std::vector<int64_t>& dims, size_t elem_size, const std::string& what);

}  // namespace ge::parser_common
