// The layout stage (DESIGN.md "Compiler", stage 3): choose a memory layout
// per tensor and insert TransData only where layouts meet.
#pragma once

#include "pass.h"

namespace ge {

// The activation layout (hal TensorInfo::channel_block) the compiled model
// is for: --soc_version's target when it names one, else the device's own.
// The passes that tune for this CPU (weight packing, Winograd) compare it
// with the device's and do nothing for another target.
int32_t TargetChannelBlock(const PassContext& ctx);

Pass MixedPrecisionPass();  // mixed_precision (--precision_mode)
Pass ConvWinogradPass();    // conv_winograd: the 3x3 convs where Winograd pays
Pass BlockedLayoutPass();   // blocked_layout
Pass WeightPrepackPass();   // weight_prepack: weights in the kernels' layouts, in the .om

}  // namespace ge
