// ge-atc --mode 6: what atc's model information shows, for a .om: its
// name, source, target and compile options, inputs and outputs, node and
// task counts, and memory.
#pragma once

#include <string>

#include "ge/model.h"

namespace ge::atc {

std::string ModelInfo(const Model& model);

// The memory line of a compiled model; for a dynamic model, what runs by
// shape at run time and each known-shape partition with its memory, one
// line each.
std::string MemoryLines(const Model& model);

}  // namespace ge::atc
