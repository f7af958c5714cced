// Control flow in a static plan: which If / Loop nodes are planned with
// their subgraphs (and linked into label tasks at load, ge/plan/link.h)
// rather than left to the v2 runtime.
#pragma once

#include "ge/ir/graph.h"

namespace ge::hal {
class Device;
}

namespace ge::partition {

// `n` (If or Loop) and everything nested in it are static, supported by
// `device` at their shapes, and its subgraphs keep the node's shapes at
// their boundary (a loop body gives back what it was given; no scan
// outputs).
bool SinksControlFlow(const Node& n, hal::Device& device);

// `g` has If or Loop nodes at its own level.
bool HasControlFlow(const Graph& g);

}  // namespace ge::partition
