// GraphLint E18005 (reference 3.3): memory layout conflicts left in a
// compiled graph — two anchors sharing one memory symbol whose attributes
// the layout rules (ge/analysis/layout_conflicts.h) say cannot share it.
#pragma once

#include "ge/ir/graph.h"
#include "ge/lint/diagnostic.h"

namespace ge::lint {

// One error Diagnostic per conflicting pair of anchors, code "E18005",
// nodes = the two anchors' nodes (the one to isolate first), the message
// naming the anchors, their attribute pair and the checker. Checks
// control-flow subgraphs too (their Data / NetOutput are not user memory).
// Conflicts of the continuous family are reported once plans lay continuous
// blocks out (analysis::kPlansLayOutContinuousBlocks); until then they are
// not conflicts of the compiled model.
void CheckLayoutConflicts(const Graph& g, Diagnostics* out);

}  // namespace ge::lint
