// GlobalAveragePool on f32 in any layout of the layout stage, read in place
// (plain NCHW, nChw8c / nChw16c, channels last) and split over the OpenMP
// threads by channels: oneDNN's jit pooling splits a global pool over
// images and output rows only, which at batch 1 is one thread, and the
// squeeze-excitation blocks of EfficientNet/MobileNetV3 run one per block.
// The result [N, C, 1, ...] has the same bytes in every layout.
#pragma once

#include <cstdint>
#include <memory>

#include "hal/kernel.h"
#include "kernels/isa.h"

namespace ge::hal {

struct GapGeometry {
  int64_t n = 1, c = 1, spatial = 1;
  int32_t block = 0;  // TensorInfo::channel_block of x and y
};

// The specs this kernel takes (f32, rank >= 3, input and output in one
// layout it reads); pool_kernels.cc sends the others to oneDNN.
bool OwnGlobalAvgPool(const KernelSpec& spec);
Result<std::unique_ptr<Kernel>> CreateOwnGlobalAvgPool(const KernelSpec& spec);

// y[n * C + c] = mean of x's (n, c) values.
void GlobalAvgPool(const GapGeometry& g, const float* x, float* y, Isa isa);

}  // namespace ge::hal
