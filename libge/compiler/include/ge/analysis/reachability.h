// Which node reaches which over data and control edges: a bitset matrix over
// one graph (GE's ConnectionMatrix). Built once, O(n^2/64) words, and read by
// the read/write conflict pass and GraphLint W18888 to decide whether two
// accesses to shared memory are ordered.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ge/ir/graph.h"

namespace ge::analysis {

class Reachability {
 public:
  // Fails on a cyclic graph (its topological order does not exist).
  static Result<Reachability> Build(const Graph& g);
  // Whether a path of one or more edges leads from a to b. False for nodes
  // of another graph.
  bool Reaches(const Node* a, const Node* b) const;
  // a before b or b before a: the two can never run at the same time.
  bool Ordered(const Node* a, const Node* b) const { return a == b || Reaches(a, b) || Reaches(b, a); }

 private:
  std::map<const Node*, size_t> index_;
  size_t words_ = 0;
  std::vector<uint64_t> bits_;  // row i: the nodes i reaches
};

}  // namespace ge::analysis
