// The semantic model verifier: does the plan and the task lists of a model
// mean what its graph says? Every runtime runs it at load before any kernel
// is created, ge-atc after it compiles (a self-check), ge-lint on request.
// The .om reader checks that the bytes decode and lie in range; this checks
// that they are right (in the spirit of TFLite's flatbuffer verifier and
// TensorRT's engine checks). docs/om-format.md lists the rules.
#pragma once

#include <string>
#include <vector>

#include "ge/model.h"

namespace ge {

// Checks, deriving every fact from the graph and the schedule (never from
// the plan's own symbols or lifetimes, which a damaged file could make agree
// with anything):
//  - the graph verifies, every node's output descs are what its op infers
//    from its inputs, and the model's IO descs are its Data / NetOutput ones;
//  - every tensor has one buffer of its bytes, aligned, inside its segment,
//    in the segment its producer implies (constants in weights, inputs in
//    input, aliases at their input's address, kernel outputs writable);
//  - every node that needs a kernel has exactly one task and no other node
//    has one; each task's arguments are its tensors' buffers, one per input
//    and output of its node;
//  - task order respects every data and control dependency (stream order
//    and events), and the plan's execution order is one the streams allow;
//  - no two tensors share memory unless every access of one happens before
//    the other is written (in-place writes included), and nothing the model
//    returns is overwritten before the end;
//  - IO bindings are the model's inputs and outputs, disjoint, and every
//    IO buffer lies inside its binding.
// Fails with Corrupt naming the first violation.
Status VerifyModel(const Model& model);

// Two tensors a memory plan puts in overlapping memory while both may be in
// use (VerifyModel's sharing rule, which stops at the first): ge-lint E18003.
struct MemoryOverlap {
  std::string graph;           // "" for the model's graph, else the partition's name
  std::string a, b;            // "node:output", the first tensors of the two pieces of memory
  std::string a_node, b_node;
  std::string message;         // as VerifyModel words it
};
// Every such overlap (up to 1000 per graph). Fails, as VerifyModel would,
// when the plan is broken before that rule can be checked (a buffer outside
// its segment, a missing task, an event graph that deadlocks ...).
Result<std::vector<MemoryOverlap>> FindMemoryOverlaps(const Model& model);

}  // namespace ge
