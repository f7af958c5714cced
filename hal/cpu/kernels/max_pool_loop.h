// The plain-loop MaxPool for what oneDNN's pooling does not give: the
// Indices output (ONNX's flattened positions, row- or column-major by
// storage_order) and integer inputs (u8, i8). pool_kernels.cc routes there.
#pragma once

#include <memory>

#include "hal/kernel.h"

namespace ge::hal {

// True when MaxPool needs the loop: a second output or a non-f32 input.
bool NeedsMaxPoolLoop(const KernelSpec& spec);
Status CheckMaxPoolLoop(const KernelSpec& spec);
Result<std::unique_ptr<Kernel>> CreateMaxPoolLoop(const KernelSpec& spec);

}  // namespace ge::hal
