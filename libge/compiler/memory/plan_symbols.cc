// The memory planner's symbols: which tensors share one buffer (aliases
// and in-place merges) and over which steps of the execution order it lives.
#include "memory/plan_symbols.h"

#include <algorithm>

#include "ge/analysis/layout_conflicts.h"
#include "ge/analysis/memory_symbols.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/memory_semantics.h"
#include "ge/ops/op_registry.h"

namespace ge::memory {
namespace {

// The input output i of n may be computed over, or -1: the kernel can (the
// op registry's in-place outputs), and with inplace_requires_mark the
// inplace_support_check pass marked that input.
int InplaceCandidate(const Node& n, size_t i, const OpDef* def, const PlanOptions& options) {
  const int in = def ? def->memory.InplaceInput(static_cast<int>(i)) : -1;
  if (in < 0 || !options.inplace_requires_mark) return in;
  const std::vector<int64_t> marked = n.GetInts(kAttrInplaceSupportInputIndex);
  return std::find(marked.begin(), marked.end(), static_cast<int64_t>(in)) != marked.end() ? in : -1;
}

// Reference 3.4's read filter: memory of a model input, a constant or a
// variable (or a view of one) is never overwritten in place.
bool ReadOnlySource(const PlanSymbol& sym) {
  return sym.root->type() == op::kData || sym.root->type() == op::kConst || IsVariable(*sym.root) ||
         sym.views_variable;
}

// Reference 3.4's write filter: an output that must sit in a continuous
// block (its own op's, or a consumer's) or that is a variable's memory is
// laid out by those rules, not by an input's place.
bool NeedsOwnLayout(const Node& n, size_t out) {
  const MemorySemantics& m = SemanticsOf(n);
  if (m.continuous_output || m.nopadding_continuous_output || ReferencedVariable(n, out)) return true;
  for (const Endpoint& c : n.OutputConsumers(out)) {
    const MemorySemantics& cm = SemanticsOf(*c.node);
    if (cm.continuous_input || cm.nopadding_continuous_input) return true;
  }
  return false;
}

// The symbol of input `in` of n, or -1 (no such input, or not planned yet).
int64_t InputSymbol(const PlanSymbols& s, const Node& n, int in) {
  if (in < 0 || static_cast<size_t>(in) >= n.num_inputs() || !n.HasInput(in)) return -1;
  const Endpoint src = n.InputSource(in);
  auto it = s.sym_of.find({src.node, src.index});
  return it == s.sym_of.end() ? -1 : it->second;
}

// With several streams, "dies here" must hold in every interleaving: each
// other task touching the memory happens before n.
bool DiesBeforeOnEveryStream(const PlanSymbols& s, const PlanSymbol& sym, const Node& n) {
  const auto self = s.hb->Find(n.name());
  std::vector<streams::TaskPos> touch;
  for (const auto& [m, o] : sym.members) TaskAccesses(*s.hb, m, o, touch);
  for (const streams::TaskPos& t : touch)
    if (!self || (!(t.stream == self->stream && t.index == self->index) && !s.hb->Before(t, *self))) return false;
  return true;
}

// Whether output i of n (`bytes` bytes) may be computed over the memory of
// symbol `cand`, the symbol of its in-place input `over`.
bool InplaceMergeAllowed(const PlanSymbols& s, const Node& n, size_t i, int64_t bytes, int over, int64_t cand,
                         bool root) {
  if (cand < 0) return false;
  const PlanSymbol& sym = s.syms[static_cast<size_t>(cand)];
  // Size, liveness (every member dies here) and the read filter: not the
  // memory of a source the model must keep (Data, Const, Variable).
  if (sym.size != bytes || sym.last != s.step.at(&n) || sym.graph_output || ReadOnlySource(sym) ||
      NeedsOwnLayout(n, i))
    return false;
  // Another input reading the same memory would see it half-overwritten.
  for (size_t k = 0; k < n.num_inputs(); ++k)
    if (k != static_cast<size_t>(over) && InputSymbol(s, n, static_cast<int>(k)) == cand) return false;
  if (s.hb && !DiesBeforeOnEveryStream(s, sym, n)) return false;
  // Reference 3.4 IsGraphExistMemConflictSymbol: the merged symbol must not
  // carry incompatible anchor attributes.
  return !analysis::MergeWouldConflict(sym.members, {TensorKey{&n, static_cast<int>(i)}}, root);
}

// The last step that reads output i of n (its own step if none does), and
// whether NetOutput is one of the readers.
std::pair<int32_t, bool> LastRead(const PlanSymbols& s, const Node& n, size_t i) {
  int32_t last = s.step.at(&n);
  bool to_output = false;
  for (const Endpoint& c : n.OutputConsumers(i)) {
    last = std::max(last, s.step.at(c.node));
    to_output = to_output || c.node->type() == op::kNetOutput;
  }
  return {last, to_output};
}

// The symbol output i of n joins, or -1 for a new one: its reference root's
// (the alias rule, transitively), else its in-place input's when allowed.
int64_t JoinedSymbol(const PlanSymbols& s, const analysis::MemorySymbols& aliases, const Node& n, size_t i,
                     int64_t bytes, const OpDef* def, const PlanOptions& options) {
  const TensorKey key{&n, static_cast<int>(i)};
  if (const analysis::OutAnchor root = aliases.Root(&n, static_cast<int>(i)); root != key)
    return s.sym_of.at({root.first, root.second});
  const int over = options.inplace ? InplaceCandidate(n, i, def, options) : -1;
  if (over < 0) return -1;
  const int64_t cand = InputSymbol(s, n, over);
  return InplaceMergeAllowed(s, n, i, bytes, over, cand, options.root) ? cand : -1;
}

}  // namespace

void TaskAccesses(const streams::HappensBefore& hb, const Node* n, int out, std::vector<streams::TaskPos>& into) {
  if (auto p = hb.Find(n->name())) into.push_back(*p);
  for (const Endpoint& c : n->OutputConsumers(static_cast<size_t>(out)))
    if (auto p = hb.Find(c.node->name())) into.push_back(*p);
}

Status BuildPlanSymbols(const Graph& g, const PlanOptions& options, PlanSymbols& s) {
  GE_ASSIGN_OR_RETURN(const analysis::MemorySymbols aliases, analysis::MemorySymbols::Build(g));
  const OpRegistry& registry = OpRegistry::Global();
  for (Node* n : s.order) {
    const OpDef* def = registry.Find(n->type());
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const int64_t bytes = n->output_desc(i).Bytes();
      if (bytes < 0)
        return Unsupported("memory plan: node " + n->Label() + " output " + std::to_string(i) + " has the " +
                           (n->output_desc(i).too_large() ? "too large" : "dynamic") + " shape " +
                           n->output_desc(i).ToString());
      int64_t joined = JoinedSymbol(s, aliases, *n, i, bytes, def, options);
      if (joined < 0) {
        PlanSymbol sym;
        sym.size = bytes;
        sym.first = sym.last = s.step.at(n);
        sym.root = n;
        joined = static_cast<int64_t>(s.syms.size());
        s.syms.push_back(sym);
      }
      PlanSymbol& sym = s.syms[static_cast<size_t>(joined)];
      const auto [last, to_output] = LastRead(s, *n, i);
      sym.members.push_back({n, static_cast<int>(i)});
      sym.last = std::max(sym.last, last);
      sym.graph_output = sym.graph_output || to_output;
      sym.views_variable = sym.views_variable || ReferencedVariable(*n, i);
      s.sym_of[{n, static_cast<int>(i)}] = joined;
    }
  }
  return Status::Ok();
}

}  // namespace ge::memory
