// GraphLint's checks on a graph (docs/memory-conflicts.md, docs/lint.md):
// each appends its findings and never changes the graph.
#pragma once

#include "ge/ir/graph.h"
#include "ge/lint/diagnostic.h"

namespace ge::lint {

// W18888 (reference 3.5): an output read and written by several nodes whose
// order no data or control path fixes. Checks subgraphs too.
void CheckReadWriteOrder(const Graph& g, Diagnostics* out);

}  // namespace ge::lint
