#include "common/constant_elements.h"

#include "ge/ir/tensor_desc.h"
#include "ge_base/tensor_bytes.h"

namespace ge::parser_common {

Result<int64_t> CheckedNumElements(const std::vector<int64_t>& dims, DataType dtype, const std::string& what) {
  for (int64_t d : dims)
    if (d < 0) return Corrupt(what + ": a constant must have a known shape, not " + DimsToString(dims));
  Result<size_t> bytes = TensorBytes(dims, dtype);
  if (!bytes.ok()) return Corrupt(what + ": " + bytes.status().message());
  return CheckedElementCount(dims);
}

}  // namespace ge::parser_common
