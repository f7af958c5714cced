#include "common/constant_elements.h"

#include <algorithm>

#include "ge/ir/tensor_desc.h"
#include "ge_base/checked_math.h"

namespace ge::parser_common {

Result<int64_t> CheckedNumElements(const std::vector<int64_t>& dims, size_t elem_size, const std::string& what) {
  for (int64_t d : dims)
    if (d < 0) return Corrupt(what + ": a constant must have a known shape, not " + DimsToString(dims));
  const auto n = CheckedProduct(dims);
  if (!n || !CheckedMul(*n, static_cast<int64_t>(std::max<size_t>(1, elem_size))))
    return Corrupt(what + ": dims " + DimsToString(dims) + " overflow");
  return *n;
}

}  // namespace ge::parser_common
