// bfloat16 (the top half of a float32) <-> float32. Widening is exact;
// narrowing rounds to nearest even, or truncates where a model's opset
// asks for it (the Cast reference before opset 19 truncated). NaN stays a
// quiet NaN either way (plain truncation could turn a NaN into infinity).
#pragma once

#include <cstdint>
#include <cstring>

namespace ge {

inline float BFloat16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t FloatToBFloat16(float f, bool truncate = false) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN, sign kept
  if (!truncate) x += 0x7fffu + ((x >> 16) & 1u);  // ties to even; may carry into the exponent (to inf): right
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace ge
