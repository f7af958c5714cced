// A Conv that is a matrix-vector product: every spatial dim of X, W and Y
// is 1 (the squeeze-excitation FCs after a GlobalAveragePool, written as
// 1x1 convs), small enough that oneDNN's fixed cost per call (about 5 us
// on 2 AVX-512 cores, measured for 96->4 up to 1152->48) is most of the
// time. This kernel computes y = act(W x + b) with its own loop in about a
// tenth of that: W transposed once at load to [C, M], so each input value
// adds a row (vectorised over the M outputs, compiled per ISA).
#pragma once

#include <memory>

#include "hal/kernel.h"

namespace ge::hal {

// The most multiply-adds (M x C) the own loop takes: one thread streams the
// weights (256 KiB at the limit) from cache.
inline constexpr int64_t kConvGemvMaxMacs = int64_t{1} << 16;

// Whether `spec` (a Conv the conv kernel accepts) runs on this loop: f32,
// group 1, all spatial dims 1, no fused_sum or input scale, at most
// kConvGemvMaxMacs, constant W.
bool ConvIsGemv(const KernelSpec& spec);
Result<std::unique_ptr<Kernel>> CreateConvGemv(const KernelSpec& spec);

}  // namespace ge::hal
