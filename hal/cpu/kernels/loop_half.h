// float16 through float32 for the own-loop kernels: an op written for float
// runs on the uint16_t bits of f16 tensors, converted per element. Right
// for ops whose f32 result rounds to the f16 one (Max, Min pick an operand;
// fmod is exact).
#pragma once

#include <cstdint>

#include "ge_base/float16.h"

namespace ge::hal::loop {

template <typename Op>
struct OnHalf {
  uint16_t operator()(uint16_t a, uint16_t b) const { return FloatToHalf(Op{}(HalfToFloat(a), HalfToFloat(b))); }
};

}  // namespace ge::hal::loop
