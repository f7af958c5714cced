// The topological executors (the reference's TopologicalExecutor): Main
// nodes run when their predecessors have, the ready node on the longest
// remaining path first (CalculatePriority: the critical path first).
// Sequential execution needs a pre-sorted array and one thread; these take
// the dependencies themselves, so independent nodes can run on several
// threads, or in any order a lowering leaves them.
//
// A plan (successors in CSR form, static in-degrees, priorities) is built
// once at load; a run only counts down in-degrees in a scratch the caller
// owns, so running allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ge_base/status.h"
#include "v2/execute_graph.h"

namespace ge::v2 {

struct TopologicalExecutionData {
  size_t node_num;
  const ExecNode* nodes;
  const uint32_t* succ_begin;  // node_num + 1: node i's successors are succ[succ_begin[i] .. succ_begin[i+1])
  const uint32_t* succ;
  const uint32_t* in_degree;  // predecessors per node (an edge given twice counts twice)
  const int64_t* priority;    // the ready node with the highest runs first; ties: the lower index
};

// `to` runs after `from` has succeeded.
struct ExecEdge {
  uint32_t from;
  uint32_t to;
};

struct TopologicalPlan {
  std::vector<uint32_t> succ_begin;
  std::vector<uint32_t> succ;
  std::vector<uint32_t> in_degree;
  std::vector<int64_t> priority;

  size_t node_num() const { return in_degree.size(); }
  // The execution data over `nodes` (node_num() of them, numbered as the
  // plan's); valid while both live.
  TopologicalExecutionData Bind(const ExecNode* nodes) const {
    return {node_num(), nodes, succ_begin.data(), succ.data(), in_degree.data(), priority.data()};
  }
};

// The plan of `node_num` nodes with `edges` between them. A node's priority
// is its cost plus the largest priority among its successors: the cost of
// the longest path from it to a sink. Costs must be >= 0 (one per node).
// Errors: a node index out of range, a negative cost, a priority that
// overflows, a cycle (kInvalidArgument naming a node on it and the cycle).
Result<TopologicalPlan> BuildTopologicalPlan(size_t node_num, const std::vector<ExecEdge>& edges,
                                             const std::vector<int64_t>& costs);

// Per-run state: in-degrees left and the ready heap. Owned by the caller;
// sized on its first run (or here), later runs of plans no larger allocate
// nothing. One run at a time.
struct TopologicalScratch {
  TopologicalScratch() = default;
  explicit TopologicalScratch(size_t node_num) { Reserve(node_num); }
  void Reserve(size_t node_num) {
    if (pending.size() < node_num) pending.resize(node_num);
    if (ready.size() < node_num) ready.resize(node_num);
  }
  std::vector<uint32_t> pending;
  std::vector<uint32_t> ready;
};

// Runs every node on the calling thread, no locks (executor_thread_pool.h
// runs them on several). Returns the index of the
// failing node (a func returned non-zero; nothing starts after it), or -1
// when every node succeeded: SequentialExecute's convention.
long TopologicalExecute(const TopologicalExecutionData* data, TopologicalScratch* scratch);

}  // namespace ge::v2
