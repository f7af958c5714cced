#include "ge/analysis/reachability.h"

#include <unordered_set>

namespace ge::analysis {

Result<Reachability> Reachability::Build(const Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  Reachability r;
  r.index_.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) r.index_[order[i]] = i;
  return r;
}

bool Reachability::Reaches(const Node* a, const Node* b) const {
  auto ia = index_.find(a), ib = index_.find(b);
  if (ia == index_.end() || ib == index_.end() || ia->second >= ib->second) return false;
  // Every edge goes forward in the order: a node after b cannot lead to b.
  const size_t target = ib->second;
  std::vector<const Node*> todo{a};
  std::unordered_set<const Node*> seen{a};
  auto visit = [&](const Node* s) {
    if (s == b) return true;
    auto is = index_.find(s);
    if (is != index_.end() && is->second < target && seen.insert(s).second) todo.push_back(s);
    return false;
  };
  while (!todo.empty()) {
    const Node* n = todo.back();
    todo.pop_back();
    for (const Node* s : n->OutNodes())
      if (visit(s)) return true;
    for (const Node* s : n->control_outputs())
      if (visit(s)) return true;
  }
  return false;
}

}  // namespace ge::analysis
