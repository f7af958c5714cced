// y = f(x) for the exp-based activations a conv or matmul ends with
// (Sigmoid; Swish/SiLU, x * sigmoid(x)), over a dense f32 buffer.
//
// Why not oneDNN's post-op: in oneDNN 2.x the eltwise_swish and
// eltwise_logistic post-ops cost far more than the convolution they follow
// (a 1x1 16->96 conv at 112x112, 2 threads: 109 us plain, 715 us with the
// swish post-op), while this loop does the same in one more pass over the
// output (105 us for those 1.2 M values). (oneDNN's erf GELU post-op is
// not slow: a 128x768x3072 matmul ran 1-2 % faster with an own GELU pass,
// within noise, so GELU stays a post-op.) So the kernels run their primitive
// without such a post-op and call Run on its output (RunsAfterPrimitive in
// dnnl_context.h says which activations).
//
// Compiled for AVX-512 and AVX2+FMA with intrinsics (kernels/isa.h; exp as
// 2^n * p(r), the Cephes degree-6 polynomial) and plain std::exp for the
// baseline; the best copy is picked at run time. Relative error within
// 1e-6 of the <cmath> formula.
#pragma once

#include <cstdint>

#include "kernels/isa.h"

namespace ge::hal::act {

enum class Fn { kSigmoid, kSwish };

// y[i] = f(x[i]) for i < n; y may be x. Large buffers are split over the
// OpenMP threads.
void Run(Fn f, const float* x, float* y, int64_t n, Isa isa);
// As Run, with the best ISA of this CPU.
void Run(Fn f, const float* x, float* y, int64_t n);

}  // namespace ge::hal::act
