// The generic optimize-stage passes (DESIGN.md "Compiler", docs/passes.md).
// Each is switchable: the graph stays correct with any of them off.
#pragma once

#include "pass.h"

namespace ge {

Pass ShapeFoldingPass();          // "shape_folding"
Pass ConstantFoldingPass();       // "constant_folding"
Pass FoldConstantIfPass();        // "fold_constant_if"
Pass HoistLoopInvariantsPass();   // "hoist_loop_invariants"
Pass AlgebraicSimplifyPass();     // "algebraic_simplify"
Pass CsePass();                   // "cse"
Pass DeadCodeEliminationPass();   // "dead_code_elimination"

}  // namespace ge
