// The layout stage (DESIGN.md "Compiler", stage 3): choose a memory layout
// per tensor and insert TransData only where layouts meet.
#pragma once

#include "pass.h"

namespace ge {

Pass MixedPrecisionPass();  // mixed_precision (--precision_mode)
Pass ConvWinogradPass();    // conv_winograd: the 3x3 convs where Winograd pays
Pass BlockedLayoutPass();   // blocked_layout
Pass WeightPrepackPass();   // weight_prepack: weights in the kernels' layouts, in the .om

}  // namespace ge
