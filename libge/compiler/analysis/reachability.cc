#include "ge/analysis/reachability.h"

namespace ge::analysis {

Result<Reachability> Reachability::Build(const Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  Reachability r;
  for (size_t i = 0; i < order.size(); ++i) r.index_[order[i]] = i;
  r.words_ = (order.size() + 63) / 64;
  r.bits_.assign(order.size() * r.words_, 0);
  // Reverse topological order: every successor's row is complete first.
  for (size_t k = order.size(); k-- > 0;) {
    const Node* n = order[k];
    uint64_t* row = &r.bits_[k * r.words_];
    auto add = [&](const Node* s) {
      const size_t j = r.index_.at(s);
      row[j / 64] |= uint64_t{1} << (j % 64);
      const uint64_t* srow = &r.bits_[j * r.words_];
      for (size_t w = 0; w < r.words_; ++w) row[w] |= srow[w];
    };
    for (const Node* s : n->OutNodes()) add(s);
    for (const Node* s : n->control_outputs()) add(s);
  }
  return r;
}

bool Reachability::Reaches(const Node* a, const Node* b) const {
  auto ia = index_.find(a), ib = index_.find(b);
  if (ia == index_.end() || ib == index_.end()) return false;
  return (bits_[ia->second * words_ + ib->second / 64] >> (ib->second % 64)) & 1;
}

}  // namespace ge::analysis
