// Which output anchors share one piece of memory by the graph's semantics
// (GE's SymbolToAnchors / AnchorToSymbol): a reference output (Reshape,
// Identity, Assign ...) is its input's memory, transitively. Computed once
// per graph and read by the memory planner (which adds in-place merges of
// its own on top), the layout-conflict checks and GraphLint.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "ge/ir/graph.h"

namespace ge::analysis {

using OutAnchor = std::pair<const Node*, int>;  // node, output index

class MemorySymbols {
 public:
  // Every output of every node of `g` (not of its subgraphs) gets a symbol.
  // Fails on a cyclic graph.
  static Result<MemorySymbols> Build(const Graph& g);

  // The symbol of an output, -1 for an anchor of another graph.
  int64_t SymbolOf(const Node* n, int out) const;
  // The anchors of a symbol, the producer of the memory first.
  const std::vector<OutAnchor>& Anchors(int64_t symbol) const { return anchors_.at(static_cast<size_t>(symbol)); }
  // The anchor that produces the memory output `out` of `n` lives in (itself
  // when it has memory of its own).
  OutAnchor Root(const Node* n, int out) const;
  size_t size() const { return anchors_.size(); }

 private:
  std::map<OutAnchor, int64_t> symbol_of_;
  std::vector<std::vector<OutAnchor>> anchors_;
};

}  // namespace ge::analysis
