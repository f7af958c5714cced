// TF 1.x control flow → TF 2's functional ops, on the GraphDef, before any
// IR is built (as TensorFlow's own functionalize_control_flow does):
//   a tf.while_loop frame (Enter/Merge/Switch/LoopCond/NextIteration/Exit
//   sharing a frame_name) becomes a While node with a cond and a body
//   function; its variables are the non-constant Enters, then the constant
//   Enters (loop invariants) and any outer value the frame reads directly,
//   which the body returns unchanged;
//   a tf.cond (Switches on one predicate, two branches, Merges) becomes an If
//   node whose branches take every Switch and outer value they read.
// Innermost first, so a cond in a loop body, a loop in a branch and nested
// loops all convert. A frame or cond that does not have this structure is
// one error naming the node.
#pragma once

#include <string>
#include <vector>

#include "tf_function.h"

namespace ge::tf_parser {

// Rewrites `g` in place (its nodes must index: TfGraphIndex::Build), keeping
// only what `outputs` depend on, and adds the functions to `library`.
// `outputs` follow the rewrite (an Exit's "while/Exit" becomes
// "while/While:0").
Status FunctionalizeControlFlow(tf::GraphDef& g, std::vector<TfInputRef>& outputs, TfLibrary& library);

}  // namespace ge::tf_parser
