// GraphLint's checks on a graph (docs/memory-conflicts.md, docs/lint.md):
// each appends its findings and never changes the graph.
#pragma once

#include "ge/ir/graph.h"
#include "ge/lint/diagnostic.h"

namespace ge::lint {

// E18001: the IR verifier (ge::VerifyGraph) rejects the graph: names,
// edges, Data indices, the one NetOutput, cycles, constant sizes.
void CheckStructure(const Graph& g, Diagnostics* out);

// W18888 (reference 3.5): an output read and written by several nodes whose
// order no data or control path fixes. Checks subgraphs too.
void CheckReadWriteOrder(const Graph& g, Diagnostics* out);

}  // namespace ge::lint
