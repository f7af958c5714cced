// Reference 3.3 (GE's HandleMemoryLayoutConflict): anchors that share one
// memory symbol with incompatible attributes (ge/analysis/layout_conflicts.h)
// are separated by an isolating Identity on the side the rule names, until
// no conflict remains. Subgraphs first, innermost first; a subgraph's Data
// and NetOutput are not the user's memory. The control-flow part (3.3.4) is
// not repeated here: sink mode's link time copies every subgraph boundary
// (docs/memory-conflicts.md "Subgraph isolation").
#include <spdlog/spdlog.h>

#include <vector>

#include "ge/analysis/layout_conflicts.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/memory_semantics.h"
#include "memory_conflict/memory_conflict_passes.h"

namespace ge {
namespace {

// The input edge whose copy separates anchor `x` from the rest of its
// symbol: an input's own edge, or for a view output the input it views.
std::pair<Node*, int> CutFor(const analysis::SymbolAnchor& x) {
  Node* n = const_cast<Node*>(x.node);
  if (x.input) return {n, x.index};
  return {n, AliasedInput(*n, static_cast<size_t>(x.index))};
}

Status ResolveGraph(Graph& g, bool root, bool continuous) {
  for (Node* n : g.nodes()) {
    // Gear and partition subgraphs are whole compiled models, as in the pass manager.
    if (n->subgraphs().empty() || n->type() == op::kPartitionedCall || n->type() == op::kGearCase) continue;
    for (auto& [name, sub] : n->subgraphs()) {
      if (!sub) continue;
      Status s = ResolveGraph(*sub, false, continuous);
      if (!s.ok()) return s.Annotated("node " + n->Label() + ", subgraph '" + name + "'");
    }
  }
  // Each round isolates the first conflict found and recomputes: one copy
  // changes the symbols (and may resolve other pairs of the same symbol).
  // A copy always leaves its side with memory of its own, so the number of
  // rounds is bounded by the edges of the graph.
  size_t edges = 0;
  for (const Node* n : g.nodes()) edges += n->num_inputs();
  for (size_t round = 0;; ++round) {
    GE_ASSIGN_OR_RETURN(const analysis::MemorySymbols symbols, analysis::MemorySymbols::Build(g));
    std::vector<analysis::LayoutConflict> conflicts = analysis::FindLayoutConflicts(symbols, root);
    if (!continuous)
      std::erase_if(conflicts, [](const analysis::LayoutConflict& c) { return analysis::InvolvesContinuous(c); });
    if (conflicts.empty()) return Status::Ok();
    if (round > edges)
      return Internal("memory_layout_conflict: no progress after " + std::to_string(round) +
                      " copies; left: " + conflicts.front().Describe());
    const analysis::LayoutConflict& c = conflicts.front();
    const auto [node, input] = CutFor(c.isolate);
    if (input < 0) return Internal("memory_layout_conflict: cannot separate " + c.Describe());
    GE_ASSIGN_OR_RETURN(Node* copy, InsertIsolation(g, node, input));
    spdlog::debug("memory_layout_conflict: {} before {} input {}: {}", copy->name(), node->Label(), input,
                  c.Describe());
  }
}

}  // namespace

Pass LayoutConflictPass(bool continuous) {
  return OptionalPass("memory_layout_conflict", "memory", [continuous](Graph& g, const PassContext&) {
    return ResolveGraph(g, true, continuous);
  });
}

}  // namespace ge
