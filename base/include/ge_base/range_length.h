// The element count of an integer Range(start, limit, delta), shared by the
// op's shape inference and its kernel so that both count alike.
#pragma once

#include <cstdint>
#include <optional>

namespace ge {

// Elements of an integer Range(start, limit, delta): max(ceil((limit - start)
// / delta), 0), computed in 128 bits so that extreme bounds cannot wrap
// (Range(INT64_MIN, INT64_MAX, INT64_MAX) has 3). nullopt when delta is 0 or
// the count does not fit in int64.
inline std::optional<int64_t> IntegerRangeLength(int64_t start, int64_t limit, int64_t delta) {
  if (delta == 0) return std::nullopt;
  const __int128 diff = static_cast<__int128>(limit) - start;
  __int128 n = diff / delta;
  if (diff % delta != 0 && ((diff > 0) == (delta > 0))) ++n;
  if (n > INT64_MAX) return std::nullopt;
  return n < 0 ? int64_t{0} : static_cast<int64_t>(n);
}

}  // namespace ge
