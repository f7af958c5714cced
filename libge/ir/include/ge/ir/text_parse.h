// Reads the text form GraphToText prints (ge/ir/text_form.h) back into a
// Graph: nodes, types, attributes of every kind, data and control edges,
// subgraphs and output descs. It is how lint repro cases (tests/lint/*.ge)
// and hand-written test graphs are written. Beyond what the printer emits it
// accepts comment lines (# ... and // ..., except "// subgraph K of N", which
// is structure) and blank lines anywhere.
//
// What the text does not hold: constant values of more than 8 elements
// (they parse as zeros of the printed desc), input descs (each is its
// producer's output desc, as when the edge was made), symbolic dim names
// (they parse as unknown dims).
#pragma once

#include <memory>
#include <string>

#include "ge/ir/graph.h"

namespace ge {

// Errors are kInvalidArgument "SOURCE:LINE: what was expected, what was found".
Result<std::unique_ptr<Graph>> ParseGraphText(const std::string& text, const std::string& source_name);
// The same on a file (a .ge); errors name the path.
Result<std::unique_ptr<Graph>> ReadGraphTextFile(const std::string& path);

}  // namespace ge
