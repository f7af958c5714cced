// The alias rule, written once: which outputs share an input's memory
// without computing anything, and so which nodes run no kernel. The streams
// stage (which nodes get a task), the memory planner (which tensors share a
// symbol) and the task builder (which nodes it skips) all ask here, so the
// schedule, the plan and the task lists agree by construction.
#pragma once

#include <cstddef>

#include "ge/ir/graph.h"

namespace ge {

// The input whose memory output `out` of `n` is: a reference output of its
// op (OpDef::memory.reference_outputs: Reshape, Identity, Squeeze ...) fed by
// a tensor of the same size. -1 when the output has memory of its own.
int AliasedInput(const Node& n, size_t out);

// True when `n` runs a kernel: it is not Data/Const/NetOutput and not a node
// whose every output aliases an input (running it would copy a buffer onto
// itself).
bool RunsKernel(const Node& n);

}  // namespace ge
