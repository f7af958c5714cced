// Symbol-level memory layout conflicts (reference 3.3.2 / 3.3.3): anchors
// that share one memory symbol must not carry incompatible anchor
// attributes. Every pair of attributes of two anchors of a symbol is
// classified as always compatible, always conflicting, or decided by a
// registered checker (GE_REGISTER_LAYOUT_CHECKER, 22 of them, named as the
// reference names them). Pairs no table names are compatible.
// docs/memory-conflicts.md "Layout conflicts" lists every rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/analysis/anchor_attributes.h"
#include "ge/analysis/memory_symbols.h"
#include "ge/ir/graph.h"

namespace ge::analysis {

// One anchor of a symbol: an output of `node` or, with `input` set, an
// input of `node` that reads the symbol's memory.
struct SymbolAnchor {
  const Node* node = nullptr;
  int index = 0;
  bool input = false;
  AnchorAttributes attributes = 0;
  bool operator==(const SymbolAnchor& o) const { return node == o.node && index == o.index && input == o.input; }
};

// "relu:0" for an output, "allreduce.in0" for an input.
std::string AnchorName(const SymbolAnchor& a);

// What a checker sees: the two anchors and every anchor of the symbol.
struct LayoutCheckContext {
  const SymbolAnchor& a;  // carries attribute `attr_a` of the pair being checked
  const SymbolAnchor& b;  // carries `attr_b`
  const std::vector<SymbolAnchor>& symbol;
  bool root = true;  // the graph is the model's root graph
};

// Which side of a conflicting pair gets the isolating copy.
enum class IsolateSide { kA, kB };

// A checker's answer: whether the pair conflicts, and if so which side to
// isolate (the side carrying attr_a or attr_b of the registration).
struct CheckerVerdict {
  bool conflict = false;
  IsolateSide isolate = IsolateSide::kB;
};

using LayoutChecker = CheckerVerdict (*)(const LayoutCheckContext& ctx);

enum class PairClass { kCompatible, kConflict, kChecker, kUnlisted };

// How the pair (x, y) is classified (symmetric), the checker's name for
// kChecker, the reason for kConflict.
struct PairRule {
  PairClass kind = PairClass::kUnlisted;
  const char* name = "";       // checker name, or "always_conflict" / "always_compatible" / "unlisted"
  LayoutChecker checker = nullptr;
  AnchorAttribute first{};     // the attribute the registration names first
  IsolateSide isolate = IsolateSide::kB;  // for kConflict: relative to `first`
};
PairRule RuleFor(AnchorAttribute x, AnchorAttribute y);

// The registry behind GE_REGISTER_LAYOUT_CHECKER. Registering a pair twice
// (in either order) is refused; the registration returns false then.
bool RegisterLayoutChecker(AnchorAttribute a, AnchorAttribute b, const char* name, LayoutChecker fn);
// Every registered checker name, once each, sorted.
std::vector<std::string> RegisteredCheckerNames();

#define GE_LAYOUT_CHECKER_CONCAT2(x, y) x##y
#define GE_LAYOUT_CHECKER_CONCAT(x, y) GE_LAYOUT_CHECKER_CONCAT2(x, y)
// Registers `fn` for the unordered pair (attr_a, attr_b) under `name`.
#define GE_REGISTER_LAYOUT_CHECKER(attr_a, attr_b, name, fn)                                                     \
  [[maybe_unused]] static const bool GE_LAYOUT_CHECKER_CONCAT(ge_layout_checker_registered_, __LINE__) = \
      ::ge::analysis::RegisterLayoutChecker(attr_a, attr_b, name, fn)

struct LayoutConflict {
  int64_t symbol = -1;
  SymbolAnchor a, b;
  AnchorAttribute attr_a{}, attr_b{};
  std::string checker;  // a checker's name or "always_conflict"
  // The anchor to isolate (a copy on its side), and the anchor kept.
  SymbolAnchor isolate;
  std::string Describe() const;
};

// Whether ge's memory plans lay continuous blocks out as one allocation.
// They do not yet (docs/memory-conflicts.md "Missing"): Concat and Split
// declare continuous input / output in the registry, as GE does, but their
// CPU kernels copy, and the planner places every tensor on its own. Until
// then the conflicts of the continuous family (CONTINUOUS_* and
// NOPADDING_CONTINUOUS_*) are classified and tested, but the pass and the
// lint act on them only when asked to.
inline constexpr bool kPlansLayOutContinuousBlocks = false;
// The conflict's attribute pair names a continuous attribute.
bool InvolvesContinuous(const LayoutConflict& c);

// The anchors of a symbol given its output anchors: the outputs, then the
// consumer inputs reading any of them, with their attributes.
std::vector<SymbolAnchor> SymbolAnchors(const std::vector<OutAnchor>& outputs, bool root);

// The conflicts among the anchors of one symbol (every pair of anchors,
// every pair of their attributes). `symbol` is only copied into the result.
std::vector<LayoutConflict> ConflictsInSymbol(const std::vector<SymbolAnchor>& anchors, int64_t symbol, bool root);

// Every conflict of one graph (not of its subgraphs): the symbols of
// `symbols` (MemorySymbols::Build(g)) shared by two or more anchors. `root`:
// g is the model's root graph (its Data / NetOutput are the user's memory).
std::vector<LayoutConflict> FindLayoutConflicts(const MemorySymbols& symbols, bool root);

// GE's MemLayoutConflictUtil::IsGraphExistMemConflictSymbol for a merge the
// memory planner considers: would joining the outputs `added` to the symbol
// of `symbol`'s outputs create a conflict? Only pairs with an anchor of
// `added` are checked (a new conflict), so a chain of k merges costs O(k^2)
// pair checks, not O(k^3).
bool MergeWouldConflict(const std::vector<OutAnchor>& symbol, const std::vector<OutAnchor>& added, bool root);

}  // namespace ge::analysis
