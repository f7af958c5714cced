// The verifier checks the IR invariants; the pass manager runs it after every
// pass in tests and under --log debug.
#pragma once

#include "ge/ir/graph.h"

namespace ge {

// Checks: unique node names; every edge consistent on both ends; input and
// output desc counts match anchors; Data nodes have distinct indices 0..n-1;
// exactly one NetOutput with no consumers; no cycle; Const nodes carry a
// tensor whose size matches its desc; subgraphs verify too.
Status VerifyGraph(const Graph& g);

}  // namespace ge
