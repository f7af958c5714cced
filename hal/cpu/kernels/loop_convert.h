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
  auto call = [&f]<typename T>(std::type_identity<T>) {
    f.template operator()<T>();
    return true;
  };
  switch (dt) {
    case DataType::kFloat32: return call(std::type_identity<float>{});
    case DataType::kFloat64: return call(std::type_identity<double>{});
    case DataType::kInt8: return call(std::type_identity<int8_t>{});
    case DataType::kInt16: return call(std::type_identity<int16_t>{});
    case DataType::kInt32: return call(std::type_identity<int32_t>{});
    case DataType::kInt64: return call(std::type_identity<int64_t>{});
    case DataType::kUInt8: return call(std::type_identity<uint8_t>{});
    case DataType::kUInt16: return call(std::type_identity<uint16_t>{});
    case DataType::kUInt32: return call(std::type_identity<uint32_t>{});
    case DataType::kUInt64: return call(std::type_identity<uint64_t>{});
    case DataType::kBool: return call(std::type_identity<bool>{});
    default: return false;
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
