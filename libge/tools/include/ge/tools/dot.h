// The graph for Graphviz (ge-dump --dot FILE): one box per node labelled
// with its op type and name, data edges labelled with the tensor's
// description, control edges dashed.
#pragma once

#include <string>

#include "ge/ir/graph.h"

namespace ge::tools {

std::string GraphToDot(const Graph& g);

}  // namespace ge::tools
