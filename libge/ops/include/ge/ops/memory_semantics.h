// A node's memory semantics as the conflict passes, the memory analyses and
// GraphLint read them: the op registry's MemorySemantics plus the node-level
// attributes of GE (reference section 5). One place answers, so the passes
// and the lint agree (docs/memory-conflicts.md "Attributes").
#pragma once

#include <cstddef>

#include "ge/ir/graph.h"
#include "ge/ops/op_registry.h"

namespace ge {

// Node attributes (GE's names where GE has a string).
inline constexpr const char* kAttrInputMutable = "_input_mutable";        // bool: every input scope-writeable
inline constexpr const char* kAttrSkipRwConflict = "_skip_rw_conflict";   // bool: the RW pass leaves the node
inline constexpr const char* kAttrInplaceSupportInputIndex = "_inplace_support_input_index";  // ints
inline constexpr const char* kAttrCannotBeDeleted = "_cannot_be_deleted";  // bool: never removed or merged
inline constexpr const char* kAttrNoConstantFolding = "_no_need_constant_folding";  // bool: never folded
inline constexpr const char* kAttrRefVarSrcVarName = "ref_var_src_var_name";  // string: the variable written
// Ours: an Identity inserted to separate memory copies; it never aliases its
// input (without it the alias rule would give it the input's address again).
inline constexpr const char* kAttrMemoryIsolation = "_memory_isolation";

// How `n` treats input i: the registry's entry, raised to scope-writeable
// for every input by a true `_input_mutable`.
InputMutability InputMutabilityOf(const Node& n, size_t i);

// Whether output i of `n` is accumulated atomically (must be zeroed first).
bool IsAtomicOutput(const Node& n, size_t out);
bool HasAtomicOutput(const Node& n);

// Variable (or an op the registry marks as owning a variable's memory).
bool IsVariable(const Node& n);

// Writes an input or holds state: folding, merging or removing it would
// change what the model computes.
bool HasMemoryEffects(const Node& n);

// The Variable whose memory output `out` of `n` is, following reference
// outputs (Assign, AssignAdd, Identity ...) upstream; nullptr if none. What
// GE records as ref_var_src_var_name.
const Node* ReferencedVariable(const Node& n, size_t out);

// The registry's MemorySemantics of `n` (an empty one for unknown ops).
const MemorySemantics& SemanticsOf(const Node& n);

// Marks a node a conflict pass inserted: cannot be deleted, no constant
// folding, a real copy.
void MarkIsolation(Node& n);

// Adds an isolating Identity on the edge into dst's input `in` (named from
// `base`), marked with MarkIsolation; returns it.
Result<Node*> InsertIsolation(Graph& g, Node* dst, int in, const std::string& type = "Identity");

}  // namespace ge
