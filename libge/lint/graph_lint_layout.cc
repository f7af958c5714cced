// E18005: the layout-conflict analysis run over a compiled graph. What the
// memory_layout_conflict pass resolves should never be left; a pass switched
// off, a graph edited after compiling or a backend's attributes added later
// can leave one, and the plan would then give incompatible anchors one address.
#include <string>

#include "ge/analysis/layout_conflicts.h"
#include "ge/lint/layout_checks.h"

namespace ge::lint {
namespace {

void CheckGraph(const Graph& g, const std::string& path, bool root, Diagnostics* out) {
  for (const Node* n : g.nodes()) {
    if (n->type() == op::kPartitionedCall || n->type() == op::kGearCase) continue;
    for (const auto& [name, sub] : n->subgraphs())
      if (sub) CheckGraph(*sub, (path.empty() ? "" : path + "/") + n->name() + "/" + name, false, out);
  }
  auto symbols = analysis::MemorySymbols::Build(g);
  if (!symbols.ok()) return;  // a cyclic graph: the verifier reports it
  for (const analysis::LayoutConflict& c : analysis::FindLayoutConflicts(*symbols, root)) {
    // What the plans do not lay out is no conflict yet (kPlansLayOutContinuousBlocks).
    if (!analysis::kPlansLayOutContinuousBlocks && analysis::InvolvesContinuous(c)) continue;
    const analysis::SymbolAnchor& kept = c.isolate == c.a ? c.b : c.a;
    Diagnostic d;
    d.code = "E18005";
    d.severity = Severity::kError;
    d.graph = path;
    d.nodes = {c.isolate.node->name()};
    if (kept.node != c.isolate.node) d.nodes.push_back(kept.node->name());
    d.message = analysis::AnchorName(c.a) + " (" + analysis::AnchorAttributeName(c.attr_a) + ") and " +
                analysis::AnchorName(c.b) + " (" + analysis::AnchorAttributeName(c.attr_b) +
                ") share one memory symbol, a conflict by " + c.checker + "; a copy on " +
                analysis::AnchorName(c.isolate) + " separates them (what the memory_layout_conflict pass inserts)";
    out->push_back(std::move(d));
  }
}

}  // namespace

void CheckLayoutConflicts(const Graph& g, Diagnostics* out) { CheckGraph(g, "", true, out); }

}  // namespace ge::lint
