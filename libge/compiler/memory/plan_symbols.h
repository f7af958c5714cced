// The memory planner's symbols (tensors sharing one buffer) and what the
// planning steps of PlanMemory hand each other.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ge/plan/happens_before.h"
#include "memory/memory_planner.h"

namespace ge::memory {

using TensorKey = std::pair<const Node*, int>;

struct PlanSymbol {
  std::vector<TensorKey> members;  // the tensors sharing it
  int64_t size = 0;
  int32_t first = 0, last = 0;
  Node* root = nullptr;  // the node that produces the memory
  bool graph_output = false;
  // A member is a view of a variable. Kept as members join, so asking it
  // per in-place merge costs O(1), not a walk over a chain's every member.
  bool views_variable = false;
  Segment segment = Segment::kFeatureMap;
  int64_t offset = 0;
};

struct PlanSymbols {
  std::vector<Node*> order;  // the execution order
  std::unordered_map<const Node*, int32_t> step;
  // Several streams: happens-before decides what may share memory.
  std::optional<streams::HappensBefore> hb;
  std::vector<PlanSymbol> syms;
  std::map<TensorKey, int64_t> sym_of;
  int64_t SymbolOf(const Node* n, int out) const { return sym_of.at({n, out}); }
};

// The kernel tasks of hb that touch output `out` of `n`: its producer and
// its readers (nodes without a task, like a Reshape, pass it on instead).
void TaskAccesses(const streams::HappensBefore& hb, const Node* n, int out, std::vector<streams::TaskPos>& into);

// Fills s.syms and s.sym_of over s.order: a reference output joins its
// input's symbol; an in-place output joins a feature-map symbol whose every
// member dies at its node.
Status BuildPlanSymbols(const Graph& g, const PlanOptions& options, PlanSymbols& s);

}  // namespace ge::memory
