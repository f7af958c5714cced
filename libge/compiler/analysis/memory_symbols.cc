#include "ge/analysis/memory_symbols.h"

#include "ge/ops/memory_alias.h"

namespace ge::analysis {

Result<MemorySymbols> MemorySymbols::Build(const Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  MemorySymbols s;
  // Topological order: a reference output's input already has its symbol.
  for (const Node* n : order)
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const OutAnchor a{n, static_cast<int>(i)};
      int64_t sym = -1;
      // The same rule the planner, the task builder and the runtimes use.
      if (const int k = AliasedInput(*n, i); k >= 0) {
        const Endpoint src = n->InputSource(static_cast<size_t>(k));
        sym = s.symbol_of_.at({src.node, src.index});
      } else {
        sym = static_cast<int64_t>(s.anchors_.size());
        s.anchors_.emplace_back();
      }
      s.symbol_of_[a] = sym;
      s.anchors_[static_cast<size_t>(sym)].push_back(a);
    }
  return s;
}

int64_t MemorySymbols::SymbolOf(const Node* n, int out) const {
  auto it = symbol_of_.find({n, out});
  return it == symbol_of_.end() ? -1 : it->second;
}

OutAnchor MemorySymbols::Root(const Node* n, int out) const {
  const int64_t s = SymbolOf(n, out);
  return s < 0 ? OutAnchor{n, out} : anchors_[static_cast<size_t>(s)].front();
}

}  // namespace ge::analysis
