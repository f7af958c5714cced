// Checks of a shaped execute's inputs against the model's descriptions, the
// same for every runtime.
#pragma once

#include <vector>

#include "ge/runtime.h"

namespace ge::rt {

// Count, dtype, rank and every known dim; a -1 dim takes any size, an
// unknown rank any dims. The error names the input.
Status CheckShapedInputs(const std::vector<IoDesc>& descs, const std::vector<TensorView>& inputs);

}  // namespace ge::rt
