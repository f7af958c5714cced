// What the quantized kernels share: u8/i8 saturation after rounding half to
// even (ONNX's and onnxruntime's rounding), reading a zero point or scale
// that is one value or one per slice, and the element type of a u8/i8
// tensor.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/loop_common.h"

namespace ge::hal::quant {

inline bool IsQuantType(DataType t) { return t == DataType::kUInt8 || t == DataType::kInt8; }

// round-half-even(v) + zp, saturated to Q. nearbyint follows the current
// rounding mode, which is to-nearest-even unless someone changed it.
template <typename Q>
inline Q Saturate(float v, int32_t zp) {
  constexpr float lo = std::numeric_limits<Q>::min(), hi = std::numeric_limits<Q>::max();
  if (!(v == v)) return static_cast<Q>(std::clamp<float>(static_cast<float>(zp), lo, hi));  // NaN: the zero point
  const float r = std::nearbyint(v) + static_cast<float>(zp);
  return static_cast<Q>(std::clamp(r, lo, hi));
}

// Value i of a u8/i8 tensor as int32.
inline int32_t QuantAt(const void* p, DataType t, int64_t i) {
  return t == DataType::kInt8 ? static_cast<const int8_t*>(p)[i] : static_cast<const uint8_t*>(p)[i];
}

// A scale or zero point that holds one value (any shape of one element) or
// `n` values (1-D), checked against the spec; `what` names it in errors.
inline Status CheckPerTensorOr(const KernelSpec& spec, size_t i, int64_t n, const char* what) {
  if (!loop::HasInput(spec, i)) return Status::Ok();
  const TensorInfo& t = spec.inputs[i];
  if (t.NumElements() == 1 && t.dims.size() <= 1) return Status::Ok();
  if (t.dims.size() == 1 && t.dims[0] == n) return Status::Ok();
  return loop::Bad(spec,
                   std::string(what) + " " + loop::DimsStr(t.dims) + " must hold one value or " + std::to_string(n));
}

// Value j of a scale or zero point with `count` values (1: shared by all).
inline int64_t ParamAt(int64_t count, int64_t j) { return count == 1 ? 0 : j; }

// Calls f.template operator()<Q>() with Q the C++ type of a u8/i8 dtype.
template <typename F>
void DispatchQuant(DataType t, F&& f) {
  if (t == DataType::kInt8)
    f.template operator()<int8_t>();
  else
    f.template operator()<uint8_t>();
}

}  // namespace ge::hal::quant
