// The 22 conditional checkers of reference 3.3.3, each registered for its
// attribute pairs with GE_REGISTER_LAYOUT_CHECKER. A symbol is one address
// in ge's plans (the planner gives every anchor of a symbol the same
// offset), so "the two anchors share an address" always holds here; what a
// checker decides is whether that shared address can satisfy both anchors,
// and which side takes the copy when it cannot. The conditions, and where
// the reference gives none the ones chosen, are in docs/memory-conflicts.md
// "Layout conflicts".
#include <vector>

#include "ge/analysis/layout_conflicts.h"
#include "ge/ops/memory_alias.h"

namespace ge::analysis {
namespace {

using A = AnchorAttribute;

CheckerVerdict Conflict(IsolateSide side) { return CheckerVerdict{true, side}; }
CheckerVerdict NoConflict() { return CheckerVerdict{false, IsolateSide::kB}; }

// The anchor that owns the memory an endpoint's tensor lives in: views
// (reference outputs) are followed upstream.
Endpoint MemoryRoot(Endpoint e) {
  for (int guard = 0; e.valid() && guard < 100000; ++guard) {
    const int k = AliasedInput(*e.node, static_cast<size_t>(e.index));
    if (k < 0) break;
    const Endpoint up = e.node->InputSource(static_cast<size_t>(k));
    if (!up.valid()) break;
    e = up;
  }
  return e;
}

// The memory each member of a continuous block lives in: a node's inputs
// (for a continuous input anchor) or its outputs (continuous output).
std::vector<Endpoint> Block(const SymbolAnchor& x) {
  std::vector<Endpoint> v;
  Node* n = const_cast<Node*>(x.node);
  if (x.input)
    for (size_t i = 0; i < n->num_inputs(); ++i) v.push_back(MemoryRoot(n->InputSource(i)));
  else
    for (size_t o = 0; o < n->num_outputs(); ++o) v.push_back(MemoryRoot(Endpoint{n, static_cast<int>(o)}));
  return v;
}

// Two continuous blocks over one symbol fit one layout only when they are
// the same block: the same tensors in the same order, this symbol at the
// same position. One node reading one tensor twice in its block can never.
bool SameBlock(const SymbolAnchor& x, const SymbolAnchor& y) {
  if (x.node == y.node && x.input == y.input) return false;
  if (x.index != y.index) return false;
  const std::vector<Endpoint> bx = Block(x), by = Block(y);
  return bx == by;
}

// A block of one tensor is continuous wherever it is.
bool MultiTensorBlock(const SymbolAnchor& x) { return Block(x).size() >= 2; }

// The memory type (0: ordinary, non-zero: an RTS special type such as P2P)
// a node declares for one of its anchors.
int64_t MemoryTypeOf(const SymbolAnchor& x) {
  const std::vector<int64_t> t = x.node->GetInts(x.input ? kAttrInputMemoryType : kAttrOutputMemoryType);
  return static_cast<size_t>(x.index) < t.size() ? t[static_cast<size_t>(x.index)] : 0;
}

// Every member of x's continuous block in the memory type `type`: a block is
// one allocation, in one kind of memory.
bool BlockInType(const SymbolAnchor& x, int64_t type) {
  const std::vector<int64_t> t = x.node->GetInts(x.input ? kAttrInputMemoryType : kAttrOutputMemoryType);
  const size_t n = x.input ? x.node->num_inputs() : x.node->num_outputs();
  for (size_t i = 0; i < n; ++i)
    if ((i < t.size() ? t[i] : 0) != type) return false;
  return true;
}

// The symbol's address changes from run to run: it is the user's input or
// output buffer, bound per Execute (zero copy).
bool HoldsUserMemory(const std::vector<SymbolAnchor>& symbol) {
  for (const SymbolAnchor& s : symbol)
    if (Has(s.attributes, A::kUserMemoryInput) || Has(s.attributes, A::kUserMemoryOutput)) return true;
  return false;
}

// 1. CONTINUOUS_INPUT vs CONTINUOUS_INPUT: two blocks that must both contain
// the tensor fit only if they are one block.
CheckerVerdict ContinuousInputAndContinuousInput(const LayoutCheckContext& c) {
  return SameBlock(c.a, c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 2. CONTINUOUS_OUTPUT vs CONTINUOUS_INPUT: the producer's output block and
// the consumer's input block overlap at this tensor; they are compatible
// only when the ranges coincide (the consumer reads exactly the producer's
// outputs, in order), else the ranges overlap incompatibly.
CheckerVerdict ContinuousOutputAndContinuousInput(const LayoutCheckContext& c) {
  return SameBlock(c.a, c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 3. CONTINUOUS_OUTPUT vs CONTINUOUS_OUTPUT: a view node's output block must
// be the producer's block, position for position.
CheckerVerdict ContinuousOutAndContinuousOut(const LayoutCheckContext& c) {
  return SameBlock(c.a, c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 4. CONTINUOUS* vs RTS_SPECIAL_TYPE*: a continuous block is one allocation,
// so every member must be in the special anchor's memory type.
CheckerVerdict ContinuousAndRtsSpecial(const LayoutCheckContext& c) {
  return BlockInType(c.a, MemoryTypeOf(c.b)) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 5. USER_MEMORY_INPUT vs CONTINUOUS*: the user's buffer is not laid out by
// us; it cannot be one member of a block of two or more.
CheckerVerdict UserInAndContinuous(const LayoutCheckContext& c) {
  return MultiTensorBlock(c.b) ? Conflict(IsolateSide::kB) : NoConflict();
}
// 6. USER_MEMORY_INPUT vs UNSUPPORTED_ADDRESS_REFRESH_OUTPUT: the user's
// address changes per run and the op keeps the address it was loaded with:
// sharing is a conflict; the copy goes on the unrefresh node's side.
CheckerVerdict UserInAndUnrefreshOut(const LayoutCheckContext&) { return Conflict(IsolateSide::kB); }
// 7. USER_MEMORY_INPUT vs RTS_SPECIAL_TYPE_OUTPUT: conflict unless the user
// input is itself declared in that memory type.
CheckerVerdict UserInAndRtsSpecialOut(const LayoutCheckContext& c) {
  return MemoryTypeOf(c.a) == MemoryTypeOf(c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 8./9. USER_MEMORY_OUTPUT vs UNSUPPORTED_ADDRESS_REFRESH_*: the user's output
// buffer is bound per run; the op would keep writing the old one. The copy
// goes before NetOutput.
CheckerVerdict UserOutAndUnrefresh(const LayoutCheckContext&) { return Conflict(IsolateSide::kA); }
// 10. USER_MEMORY_OUTPUT vs IMMUTABLE_ADDRESS_OUTPUT: the user may write the
// buffer it is given; a constant or variable must not be that buffer.
CheckerVerdict UserOutAndImmutableOut(const LayoutCheckContext&) { return Conflict(IsolateSide::kA); }
// 11. USER_MEMORY_OUTPUT vs CONTINUOUS_INPUT / NOPADDING_CONTINUOUS_INPUT:
// the user's buffer cannot be one member of a block of two or more.
CheckerVerdict UserOutAndContinuousInput(const LayoutCheckContext& c) {
  return MultiTensorBlock(c.b) ? Conflict(IsolateSide::kA) : NoConflict();
}
// 12. IMMUTABLE_ADDRESS_OUTPUT vs RTS_SPECIAL_TYPE_OUTPUT: constants and
// variables live in their own segment; conflict unless declared in the
// special anchor's memory type.
CheckerVerdict ImmutableOutAndRtsSpecialOut(const LayoutCheckContext& c) {
  return MemoryTypeOf(c.a) == MemoryTypeOf(c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 13./14. IMMUTABLE_ADDRESS_OUTPUT vs NOPADDING_CONTINUOUS_INPUT / CONTINUOUS*
// OUTPUT: a weight is placed alone; it can be a block of one, never one
// member of a larger block.
CheckerVerdict ImmutableOutAndContinuous(const LayoutCheckContext& c) {
  return MultiTensorBlock(c.b) ? Conflict(IsolateSide::kB) : NoConflict();
}
// 15.-17. The no-padding blocks: as 1.-3.
CheckerVerdict NoPaddingBlocks(const LayoutCheckContext& c) {
  return SameBlock(c.a, c.b) ? NoConflict() : Conflict(IsolateSide::kB);
}
// 18.-20. RTS special vs RTS special: one address, one memory type.
CheckerVerdict RtsSpecialPair(const LayoutCheckContext& c) {
  if (MemoryTypeOf(c.a) == MemoryTypeOf(c.b)) return NoConflict();
  // The side that can take a copy: an input before an output.
  return Conflict(c.b.input || !c.a.input ? IsolateSide::kB : IsolateSide::kA);
}
// 21./22. UNSUPPORTED_ADDRESS_REFRESH_* vs the other special attributes: the
// op keeps the address it was loaded with, which is right for every segment
// ge places at load (weights, feature map, variables) and wrong only when
// the symbol is the user's memory, rebound per run.
CheckerVerdict UnrefreshIn(const LayoutCheckContext& c) {
  return HoldsUserMemory(c.symbol) ? Conflict(IsolateSide::kA) : NoConflict();
}
CheckerVerdict UnrefreshOut(const LayoutCheckContext& c) {
  return HoldsUserMemory(c.symbol) ? Conflict(IsolateSide::kA) : NoConflict();
}

}  // namespace

// Called once, from the registry's first use (layout_conflicts.cc), so the
// registrations are linked in with it; the macro's static flags make the
// registration run once.
void RegisterBuiltinLayoutCheckers() {
  constexpr A CI = A::kContinuousInput, CO = A::kContinuousOutput, NPCI = A::kNoPaddingContinuousInput,
              NPCO = A::kNoPaddingContinuousOutput, RTSI = A::kRtsSpecialTypeInput, RTSO = A::kRtsSpecialTypeOutput,
              UI = A::kUserMemoryInput, UO = A::kUserMemoryOutput, IMM = A::kImmutableAddressOutput,
              UARI = A::kUnsupportedAddressRefreshOperatorInput, UARO = A::kUnsupportedAddressRefreshOperatorOutput;
  GE_REGISTER_LAYOUT_CHECKER(CI, CI, "continuous_input_and_continuous_input", ContinuousInputAndContinuousInput);
  GE_REGISTER_LAYOUT_CHECKER(CO, CI, "continuous_output_and_continuous_input", ContinuousOutputAndContinuousInput);
  GE_REGISTER_LAYOUT_CHECKER(CO, CO, "continuous_out_and_continuous_out", ContinuousOutAndContinuousOut);
  // 8 pairs: the continuous family (4) with the RTS special types (2).
  GE_REGISTER_LAYOUT_CHECKER(CI, RTSI, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(CI, RTSO, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(CO, RTSI, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(CO, RTSO, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(NPCI, RTSI, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(NPCI, RTSO, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(NPCO, RTSI, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  GE_REGISTER_LAYOUT_CHECKER(NPCO, RTSO, "continuous_in_out_and_rts_special_mem_in_out", ContinuousAndRtsSpecial);
  // 4 pairs.
  GE_REGISTER_LAYOUT_CHECKER(UI, CI, "user_in_and_continuous_in_out_checker", UserInAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(UI, CO, "user_in_and_continuous_in_out_checker", UserInAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(UI, NPCI, "user_in_and_continuous_in_out_checker", UserInAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(UI, NPCO, "user_in_and_continuous_in_out_checker", UserInAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(UI, UARO, "user_in_and_unrefresh_out_checker", UserInAndUnrefreshOut);
  GE_REGISTER_LAYOUT_CHECKER(UI, RTSO, "user_in_and_rts_special_out_checker", UserInAndRtsSpecialOut);
  GE_REGISTER_LAYOUT_CHECKER(UO, UARO, "user_out_and_unrefresh_out_checker", UserOutAndUnrefresh);
  GE_REGISTER_LAYOUT_CHECKER(UO, UARI, "user_out_and_unrefresh_in_checker", UserOutAndUnrefresh);
  GE_REGISTER_LAYOUT_CHECKER(UO, IMM, "user_out_and_immutable_out_checker", UserOutAndImmutableOut);
  // 2 pairs.
  GE_REGISTER_LAYOUT_CHECKER(UO, CI, "user_out_and_continuous_input", UserOutAndContinuousInput);
  GE_REGISTER_LAYOUT_CHECKER(UO, NPCI, "user_out_and_continuous_input", UserOutAndContinuousInput);
  GE_REGISTER_LAYOUT_CHECKER(IMM, RTSO, "immutable_out_and_rts_specail_out_checker", ImmutableOutAndRtsSpecialOut);
  GE_REGISTER_LAYOUT_CHECKER(IMM, NPCI, "immutable_out_and_nopadding_continuous_in_checker", ImmutableOutAndContinuous);
  // 2 pairs.
  GE_REGISTER_LAYOUT_CHECKER(IMM, CO, "immutable_out_and_continuous_out_checker", ImmutableOutAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(IMM, NPCO, "immutable_out_and_continuous_out_checker", ImmutableOutAndContinuous);
  GE_REGISTER_LAYOUT_CHECKER(NPCI, NPCI, "nopadding_continuous_input_and_nopadding_continuous_input", NoPaddingBlocks);
  GE_REGISTER_LAYOUT_CHECKER(NPCO, NPCI, "nopadding_continuous_input_and_nopadding_continuous_out", NoPaddingBlocks);
  GE_REGISTER_LAYOUT_CHECKER(NPCO, NPCO, "nopadding_continuous_out_and_nopadding_continuous_out", NoPaddingBlocks);
  GE_REGISTER_LAYOUT_CHECKER(RTSI, RTSI, "rts_special_in_and_rts_special_in_checker", RtsSpecialPair);
  GE_REGISTER_LAYOUT_CHECKER(RTSI, RTSO, "rts_special_in_and_rts_special_out_checker", RtsSpecialPair);
  GE_REGISTER_LAYOUT_CHECKER(RTSO, RTSO, "rts_special_out_and_rts_special_out_checker", RtsSpecialPair);
  // The unrefresh attributes with the special ones the pairs above leave.
  for (A other : {UARI, UARO, IMM, CI, CO, NPCI, NPCO, RTSI, RTSO})
    RegisterLayoutChecker(UARI, other, "unrefresh_in_checker", UnrefreshIn);
  for (A other : {UARO, IMM, CI, CO, NPCI, NPCO, RTSI, RTSO})
    RegisterLayoutChecker(UARO, other, "unrefresh_out_checker", UnrefreshOut);
}

}  // namespace ge::analysis
