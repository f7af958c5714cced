// Size arithmetic that cannot wrap: every product of dims, sum of segment
// sizes and rounding up to an alignment goes through these, so a hostile
// shape becomes "too large" instead of a small or negative number.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ge {

inline bool MulOverflows(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r);
}
inline bool AddOverflows(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r);
}

inline std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// v rounded up to a multiple of `alignment` (> 0); nullopt for v < 0 or when
// the result does not fit.
inline std::optional<int64_t> CheckedAlignUp(int64_t v, int64_t alignment) {
  if (v < 0 || alignment <= 0) return std::nullopt;
  const auto up = CheckedAdd(v, alignment - 1);
  if (!up) return std::nullopt;
  return *up / alignment * alignment;
}

// Product of non-negative dims; nullopt when a dim is negative or the
// product does not fit. {} (a scalar) is 1.
inline std::optional<int64_t> CheckedProduct(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return std::nullopt;
  return n;
}

}  // namespace ge
