// The classification of reference 3.3.2: always-compatible pairs,
// always-conflicting pairs, the registry of conditional checkers (their
// bodies are in layout_checkers.cc), and the walk over a symbol's anchors.
#include "ge/analysis/layout_conflicts.h"

#include <algorithm>
#include <map>
#include <set>

#include "ge/ops/memory_alias.h"

namespace ge::analysis {

void RegisterBuiltinLayoutCheckers();  // layout_checkers.cc

namespace {

using A = AnchorAttribute;

struct Registered {
  std::string name;
  LayoutChecker fn = nullptr;
  AnchorAttribute first{};
};

using Key = std::pair<uint32_t, uint32_t>;  // ordered: smaller bit first

Key KeyOf(AnchorAttribute x, AnchorAttribute y) {
  const uint32_t a = static_cast<uint32_t>(x), b = static_cast<uint32_t>(y);
  return a < b ? Key{a, b} : Key{b, a};
}

std::map<Key, Registered>& RawRegistry() {
  static std::map<Key, Registered> r;
  return r;
}

bool registering_builtins = false;

// The built-in checkers are registered on first use, before anything else
// (a later registration of one of their pairs is then refused, not theirs).
const std::map<Key, Registered>& Checkers() {
  static const bool once = [] {
    registering_builtins = true;
    RegisterBuiltinLayoutCheckers();
    registering_builtins = false;
    return true;
  }();
  (void)once;
  return RawRegistry();
}

// Reference 3.3.2, "absolutely no conflict". REFERENCE_OUTPUT is handled
// before any table: a variable's memory is the variable's, whatever shares it.
const std::set<Key>& Compatible() {
  static const std::set<Key> s{
      KeyOf(A::kRtsSpecialTypeInput, A::kNormalOutput),
      KeyOf(A::kUserMemoryOutput, A::kUserMemoryOutput),
      KeyOf(A::kUserMemoryInput, A::kUserMemoryOutput),
  };
  return s;
}

struct AlwaysConflict {
  AnchorAttribute first, second;
  IsolateSide isolate;  // kA: the anchor carrying `first`
};

// Reference 3.3.2, "absolutely conflicting", in the reference's order. The
// side: the one whose edge can take a copy without moving user memory or a
// constant (user outputs are NetOutput inputs; user inputs and immutable
// outputs own their memory and cannot be moved).
const std::vector<AlwaysConflict>& Conflicting() {
  static const std::vector<AlwaysConflict> v{
      {A::kUserMemoryInput, A::kUnsupportedAddressRefreshOperatorInput, IsolateSide::kB},
      {A::kUserMemoryInput, A::kRtsSpecialTypeInput, IsolateSide::kB},
      {A::kUserMemoryOutput, A::kRtsSpecialTypeInput, IsolateSide::kA},
      {A::kUserMemoryOutput, A::kRtsSpecialTypeOutput, IsolateSide::kA},
      {A::kUserMemoryOutput, A::kContinuousOutput, IsolateSide::kA},
      {A::kUserMemoryOutput, A::kNoPaddingContinuousOutput, IsolateSide::kA},
      {A::kImmutableAddressOutput, A::kRtsSpecialTypeInput, IsolateSide::kB},
      {A::kImmutableAddressOutput, A::kContinuousInput, IsolateSide::kB},
      {A::kContinuousInput, A::kNoPaddingContinuousOutput, IsolateSide::kA},
      {A::kContinuousOutput, A::kNoPaddingContinuousInput, IsolateSide::kB},
  };
  return v;
}

// A copy can go on this anchor's side: an input (on its edge) or an output
// that is a view of an input (on that input's edge). An output that owns
// its memory cannot be separated from what reads it from its own side.
bool Cuttable(const SymbolAnchor& x) { return x.input || AliasedInput(*x.node, static_cast<size_t>(x.index)) >= 0; }

// NORMAL_* and REFERENCE_OUTPUT: no table lists them but as compatible, so
// an anchor with only these attributes conflicts with nothing.
constexpr AnchorAttributes kPlain = static_cast<AnchorAttributes>(A::kNormalInput) |
                                    static_cast<AnchorAttributes>(A::kNormalOutput) |
                                    static_cast<AnchorAttributes>(A::kReferenceOutput);
bool Plain(const SymbolAnchor& x) { return (x.attributes & ~kPlain) == 0; }

std::vector<AnchorAttribute> Bits(AnchorAttributes set) {
  std::vector<AnchorAttribute> v;
  for (int b = 0; b < kNumAnchorAttributes; ++b)
    if (set & (1u << b)) v.push_back(static_cast<AnchorAttribute>(1u << b));
  return v;
}

}  // namespace

bool RegisterLayoutChecker(AnchorAttribute a, AnchorAttribute b, const char* name, LayoutChecker fn) {
  if (!registering_builtins) (void)Checkers();
  auto [it, inserted] = RawRegistry().emplace(KeyOf(a, b), Registered{name, fn, a});
  return inserted;
}

std::vector<std::string> RegisteredCheckerNames() {
  std::set<std::string> names;
  for (const auto& [k, r] : Checkers()) names.insert(r.name);
  return {names.begin(), names.end()};
}

PairRule RuleFor(AnchorAttribute x, AnchorAttribute y) {
  PairRule r;
  r.first = x;
  if (x == A::kReferenceOutput || y == A::kReferenceOutput || Compatible().count(KeyOf(x, y))) {
    r.kind = PairClass::kCompatible;
    r.name = "always_compatible";
    return r;
  }
  for (const AlwaysConflict& c : Conflicting())
    if (KeyOf(c.first, c.second) == KeyOf(x, y)) {
      r.kind = PairClass::kConflict;
      r.name = "always_conflict";
      r.first = c.first;
      r.isolate = c.isolate;
      return r;
    }
  const auto& checkers = Checkers();
  if (auto it = checkers.find(KeyOf(x, y)); it != checkers.end()) {
    r.kind = PairClass::kChecker;
    r.name = it->second.name.c_str();
    r.checker = it->second.fn;
    r.first = it->second.first;
    return r;
  }
  r.name = "unlisted";
  return r;
}

std::string AnchorName(const SymbolAnchor& a) {
  return a.node->name() + (a.input ? ".in" : ":") + std::to_string(a.index);
}

bool InvolvesContinuous(const LayoutConflict& c) {
  for (A x : {c.attr_a, c.attr_b})
    if (x == A::kContinuousInput || x == A::kContinuousOutput || x == A::kNoPaddingContinuousInput ||
        x == A::kNoPaddingContinuousOutput)
      return true;
  return false;
}

std::string LayoutConflict::Describe() const {
  return AnchorName(a) + " (" + AnchorAttributeName(attr_a) + ") and " + AnchorName(b) + " (" +
         AnchorAttributeName(attr_b) + ") share memory: " + checker + "; isolate " + AnchorName(isolate);
}

std::vector<SymbolAnchor> SymbolAnchors(const std::vector<OutAnchor>& outputs, bool root) {
  std::vector<SymbolAnchor> v;
  for (const auto& [n, o] : outputs)
    v.push_back(SymbolAnchor{n, o, false, OutputAttributes(*n, static_cast<size_t>(o), root)});
  for (const auto& [n, o] : outputs)
    for (const Endpoint& c : n->OutputConsumers(static_cast<size_t>(o)))
      v.push_back(SymbolAnchor{c.node, c.index, true, InputAttributes(*c.node, static_cast<size_t>(c.index), root)});
  return v;
}

namespace {

// The conflict of one pair of anchors of a symbol (the first conflicting
// pair of their attributes), if any.
bool PairConflict(const SymbolAnchor& x, const SymbolAnchor& y, const std::vector<SymbolAnchor>& anchors,
                  int64_t symbol, bool root, LayoutConflict* out) {
  if (x == y || Plain(x) || Plain(y)) return false;
  for (AnchorAttribute p : Bits(x.attributes))
    for (AnchorAttribute q : Bits(y.attributes)) {
      const PairRule rule = RuleFor(p, q);
      if (rule.kind != PairClass::kConflict && rule.kind != PairClass::kChecker) continue;
      // Orient the pair as the rule names it: `a` carries rule.first.
      const bool swap = rule.first != p;
      const SymbolAnchor& a = swap ? y : x;
      const SymbolAnchor& b = swap ? x : y;
      CheckerVerdict v{rule.kind == PairClass::kConflict, rule.isolate};
      if (rule.kind == PairClass::kChecker) v = rule.checker(LayoutCheckContext{a, b, anchors, root});
      if (!v.conflict) continue;
      LayoutConflict& c = *out;
      c.symbol = symbol;
      c.a = a;
      c.b = b;
      c.attr_a = swap ? q : p;
      c.attr_b = swap ? p : q;
      c.checker = rule.name;
      c.isolate = v.isolate == IsolateSide::kA ? a : b;
      const SymbolAnchor& other = v.isolate == IsolateSide::kA ? b : a;
      if (!Cuttable(c.isolate) && Cuttable(other)) c.isolate = other;
      return true;
    }
  return false;
}

// The indices of the anchors that carry more than plain
// attributes: the only ones PairConflict can find in conflict.
std::vector<size_t> MarkedAnchors(const std::vector<SymbolAnchor>& anchors) {
  std::vector<size_t> marked;
  for (size_t i = 0; i < anchors.size(); ++i)
    if (!Plain(anchors[i])) marked.push_back(i);
  return marked;
}

}  // namespace

std::vector<LayoutConflict> ConflictsInSymbol(const std::vector<SymbolAnchor>& anchors, int64_t symbol, bool root) {
  std::vector<LayoutConflict> out;
  // Plain anchors conflict with nothing: pairs of the others only, so a
  // tensor with 100k plain readers costs 100k, not their 5e9 pairs.
  const std::vector<size_t> marked = MarkedAnchors(anchors);
  // One conflict per pair of anchors: one copy resolves it.
  for (size_t i = 0; i < marked.size(); ++i)
    for (size_t j = i + 1; j < marked.size(); ++j) {
      LayoutConflict c;
      if (PairConflict(anchors[marked[i]], anchors[marked[j]], anchors, symbol, root, &c)) out.push_back(std::move(c));
    }
  return out;
}

std::vector<LayoutConflict> FindLayoutConflicts(const MemorySymbols& symbols, bool root) {
  std::vector<LayoutConflict> out;
  for (size_t s = 0; s < symbols.size(); ++s) {
    const std::vector<SymbolAnchor> anchors = SymbolAnchors(symbols.Anchors(static_cast<int64_t>(s)), root);
    if (anchors.size() < 2) continue;
    std::vector<LayoutConflict> found = ConflictsInSymbol(anchors, static_cast<int64_t>(s), root);
    out.insert(out.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  return out;
}

bool MergeWouldConflict(const std::vector<OutAnchor>& symbol, const std::vector<OutAnchor>& added, bool root) {
  std::vector<SymbolAnchor> fresh = SymbolAnchors(added, root);
  // Plain anchors conflict with nothing (no table lists NORMAL_* but as
  // compatible): the common case costs the new anchors only.
  bool plain = true;
  for (const SymbolAnchor& a : fresh) plain = plain && Plain(a);
  if (plain) return false;
  std::vector<SymbolAnchor> anchors = SymbolAnchors(symbol, root);
  const size_t old_size = anchors.size();
  for (SymbolAnchor& a : fresh) anchors.push_back(std::move(a));
  // Only pairs with a new anchor: what the symbol had before, it keeps
  // either way (and the planner runs after the pass that removes it).
  const std::vector<size_t> marked = MarkedAnchors(anchors);
  for (size_t j : marked) {
    if (j < old_size) continue;
    for (size_t i : marked) {
      if (i >= j) break;
      LayoutConflict c;
      if (PairConflict(anchors[i], anchors[j], anchors, -1, root, &c)) return true;
    }
  }
  return false;
}

}  // namespace ge::analysis
