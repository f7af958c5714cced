// y = act(x * scale[c] + shift[c]): one pass over a 4-D (or any rank >= 3)
// f32 tensor in any of the layouts the compiler's layout stage uses (plain
// NCHW, channel-blocked nChw8c / nChw16c, channels-last), so a per-channel
// multiply (the squeeze-excitation gate), a per-channel add and an
// inference BatchNorm (+ReLU) run in the conv's layout instead of between
// two reorders.
//
// The loops are compiled for AVX-512, AVX2+FMA and the baseline x86-64 and
// the best one the CPU has is chosen at run time (kernels/isa.h). Large
// tensors are split over the OpenMP threads.
#pragma once

#include <cstdint>

#include "kernels/isa.h"

namespace ge::hal::affine {

struct Geometry {
  int64_t n = 1, c = 1, spatial = 1;  // logical N, C and the product of the spatial dims
  int32_t block = 0;                  // hal::TensorInfo::channel_block of x and y
  // Elements between the scale (shift) vectors of consecutive images: 0 when
  // every image uses the same C values, c when each has its own ([N,C,1,1]).
  int64_t scale_stride = 0, shift_stride = 0;
  bool relu = false;
  // Where x and y sit inside larger tensors (a part of a channel Concat):
  // elements between images, and, channels last, between pixels. 0 means
  // dense (c * spatial, c).
  int64_t x_image = 0, y_image = 0, x_pixel = 0, y_pixel = 0;
};

// Whether the loops handle this geometry (block 0, 8, 16 or channels last).
bool Handles(const Geometry& g);

// Runs y = act(x * scale + shift) over the whole tensor; scale and shift
// always point to C values (per image when the strides say so). y may be x
// when both are dense.
void Run(const Geometry& g, const float* x, const float* scale, const float* shift, float* y,
         Isa isa);
// The same work cut up by the caller (ConcatAffine spreads its parts' units
// over the threads itself): Units() counts g's work units, RunUnits does
// units [u0, u1) on the calling thread.
int64_t Units(const Geometry& g);
void RunUnits(const Geometry& g, const float* x, const float* scale, const float* shift, float* y, int64_t u0,
              int64_t u1);
// As Run, with the best ISA of this CPU.
void Run(const Geometry& g, const float* x, const float* scale, const float* shift, float* y);

}  // namespace ge::hal::affine
