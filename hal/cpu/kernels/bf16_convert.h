// float32 <-> bfloat16 over dense buffers: the Cast a mixed-precision model
// has where a float32 region meets a bf16 one (ResNet-50's kept stem and
// layer1 end in one over 800 K values). Bit-exact with ge_base/bfloat16.h:
// narrowing rounds to nearest even (or truncates), NaN stays a quiet NaN
// with its sign. The per-value conversion with its NaN branch did not
// vectorise (138 us for those 800 K values on 2 AVX-512 cores); these are
// intrinsics per ISA (kernels/isa.h), picked at run time.
#pragma once

#include <cstdint>

#include "kernels/isa.h"

namespace ge::hal::bf16 {

// y[i] = bfloat16(x[i]) for i < n.
void FromFloat(const float* x, uint16_t* y, int64_t n, bool truncate, Isa isa);
void FromFloat(const float* x, uint16_t* y, int64_t n, bool truncate);
// y[i] = float(x[i]) for i < n (exact).
void ToFloat(const uint16_t* x, float* y, int64_t n, Isa isa);
void ToFloat(const uint16_t* x, float* y, int64_t n);

}  // namespace ge::hal::bf16
