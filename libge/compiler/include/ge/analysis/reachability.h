// Which node reaches which over data and control edges (GE's
// ConnectionMatrix), read by the HCCL input handling and GraphLint W18888
// to decide whether two accesses to shared memory are ordered. GE keeps a
// bitset matrix: O(n^2) bits, 4.7 GB at 200k nodes. Here a query walks
// forward from a, pruned to the nodes that precede b in one topological
// order: O(n) memory, and a query costs the nodes between a and b.
#pragma once

#include <cstdint>
#include <unordered_map>
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
  std::unordered_map<const Node*, size_t> index_;  // position in the topological order
};

}  // namespace ge::analysis
