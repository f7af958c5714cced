// The stable text form of a graph: what ge-dump prints and diffs. Nodes in
// topological order, one per line, attributes sorted by name:
//   %conv1 = Conv[group=1, pads=[1,1,1,1]](%input:0, %w:0) -> (f32[1,64,112,112])
#pragma once

#include <string>

#include "ge/ir/graph.h"

namespace ge {

std::string GraphToText(const Graph& g);
// One node's line (without trailing newline).
std::string NodeToText(const Node& n);

}  // namespace ge
