// The graph for Graphviz (ge-dump --dot FILE): one box per node labelled
// with its op type and name, data edges labelled with the tensor's
// description, control edges dashed. In a dynamic model (after the
// partition stage) unknown-shape nodes are orange and each PartitionedCall
// is a green cluster holding its subgraph.
#pragma once

#include <string>

#include "ge/ir/graph.h"

namespace ge::tools {

std::string GraphToDot(const Graph& g);

}  // namespace ge::tools
