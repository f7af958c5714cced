// Per-channel affine kernels in the conv's layout (channel_affine_loop.h):
// ge's ChannelAffine op (what bn_relu_fusion makes of an inference
// BatchNormalization, + Relu) and Mul/Add of a laid-out tensor by a
// per-channel operand ([1 or N, C, 1, 1]: the squeeze-excitation gate);
// ConcatAffine, a channel Concat written through the same affine map.
// Declared here rather than in cpu_kernels.h, which every kernel includes.
#pragma once

#include <memory>

#include "hal/kernel.h"

namespace ge::hal {

void RegisterChannelAffineKernels(KernelRegistry& r);  // ChannelAffine
void RegisterConcatAffineKernels(KernelRegistry& r);   // ConcatAffine (concat_affine.cc)

// A Mul or Add whose output is laid out (channel_block != 0), one operand
// the output's shape and layout, the other one value per channel (and per
// image): the binary kernels hand such specs here.
bool IsChannelBroadcast(const KernelSpec& spec);

// What ChannelAffine and ConcatAffine both take after their data: inputs
// `first` and `first + 1`, scale and shift, `channels` plain f32 values
// each, and an "activation" that is empty or Relu.
Status CheckScaleShift(const KernelSpec& spec, size_t first, int64_t channels);
Result<std::unique_ptr<Kernel>> CreateChannelBroadcast(const KernelSpec& spec);

}  // namespace ge::hal
