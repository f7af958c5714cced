// Numeric element types by DataType, and the value conversions Cast,
// ConstantOfShape and Pad share.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ge_base/dtype.h"

namespace ge::hal::loop {

// Calls f.template operator()<T>() with T the C++ type of dt; false for
// types without one here (f16, bf16, undefined).
template <typename F>
bool DispatchNumeric(DataType dt, F&& f) {
  switch (dt) {
    case DataType::kFloat32:
      f.template operator()<float>();
      return true;
    case DataType::kFloat64:
      f.template operator()<double>();
      return true;
    case DataType::kInt8:
      f.template operator()<int8_t>();
      return true;
    case DataType::kInt16:
      f.template operator()<int16_t>();
      return true;
    case DataType::kInt32:
      f.template operator()<int32_t>();
      return true;
    case DataType::kInt64:
      f.template operator()<int64_t>();
      return true;
    case DataType::kUInt8:
      f.template operator()<uint8_t>();
      return true;
    case DataType::kUInt16:
      f.template operator()<uint16_t>();
      return true;
    case DataType::kUInt32:
      f.template operator()<uint32_t>();
      return true;
    case DataType::kUInt64:
      f.template operator()<uint64_t>();
      return true;
    case DataType::kBool:
      f.template operator()<bool>();
      return true;
    default:
      return false;
  }
}

// Float to integer truncates towards zero; NaN gives 0 and values beyond
// the target range saturate (C leaves both undefined). To bool: != 0.
template <typename To, typename From>
inline To Convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (!(v == v)) return To(0);
    // Both bounds are powers of two (or 0) and so exact in From.
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From(2);  // max + 1
    if (v <= lo) return std::numeric_limits<To>::min();
    if (v >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace ge::hal::loop
