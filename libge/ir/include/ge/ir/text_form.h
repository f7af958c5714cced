// The stable text form of a graph: what ge-dump prints and diffs. Nodes in
// topological order, one per line, attributes sorted by name:
//   %conv1 = Conv[group=1, pads=[1,1,1,1]](%input:0, %w:0) -> (f32[1,64,112,112])
// Control inputs follow the data inputs as ^(%a, %b); a subgraph follows its
// node as "// subgraph KEY of NODE" and its indented graph block. Names with
// characters other than letters, digits and _ . - / @ $ print quoted
// (%"a b:c"). ParseGraphText (ge/ir/text_parse.h) reads it back.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ge/ir/graph.h"

namespace ge {

// Names of unknown dims (symbolic dims, docs/dynamic-shapes.md): per node
// output, one name per dim ("batch", "2*batch"; "?" or "" where none).
using DimNames = std::map<std::pair<const Node*, int>, std::vector<std::string>>;

// With `names`, an unknown dim prints as its name: f32[batch,128].
std::string GraphToText(const Graph& g, const DimNames* names = nullptr);
// One node's line (without trailing newline).
std::string NodeToText(const Node& n, const DimNames* names = nullptr);

}  // namespace ge
