// Checks of a shaped execute's inputs against the model's descriptions, the
// same for every runtime.
#pragma once

#include <vector>

#include "ge/runtime.h"

namespace ge::rt {

// Count, dtype, rank and every known dim; a -1 dim takes any size, an
// unknown rank any dims. The error names the input.
Status CheckShapedInputs(const std::vector<IoDesc>& descs, const std::vector<TensorView>& inputs);

// atc's --input_shape ranges ("x:1~8,3,224,224"): per graph input, the Data
// node's attr "dim_range" (LO,HI per dim; -1 for none), empty without one.
std::vector<std::vector<int64_t>> DimRanges(const Graph& graph);
// A dim outside its range is an InvalidArgument naming the input.
Status CheckDimRanges(const std::vector<IoDesc>& descs, const std::vector<std::vector<int64_t>>& ranges,
                      const std::vector<TensorView>& inputs);

}  // namespace ge::rt
