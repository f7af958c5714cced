// The memory planner (compiler stage 7): execution order, lifetimes,
// symbols, segments and offsets. See docs/memory-planner.md.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/plan.h"

namespace ge::memory {

struct PlanOptions {
  int64_t alignment = 64;  // a power of two
  bool reuse = true;       // false: every feature-map buffer its own range
  bool inplace = true;     // let in-place capable ops write over a dying input
  // Reference 3.1.4 / 3.4 literally: merge in place only where the
  // inplace_support_check pass marked the input (`_inplace_support_input_index`).
  // Off: the planner's liveness rule alone, which takes every merge the mark
  // allows and more (docs/memory-conflicts.md "In-place").
  bool inplace_requires_mark = false;
  // The graph is the model's root graph: its Data / NetOutput are the user's
  // memory (the layout-conflict check of a merge reads it).
  bool root = true;
  // The streams stage's schedule. With more than one stream, two tensors
  // share memory only if every access of one happens before the write of
  // the other in every interleaving (stream order and events); null or one
  // stream: the execution order alone decides (the single-stream plan).
  const std::vector<StreamTasks>* schedule = nullptr;
};

// The order the runtimes execute nodes in (step = index): the graph's
// topological order. Every lifetime is measured over it.
Result<std::vector<Node*>> ExecutionOrder(const Graph& g);

// A buffer to place in the feature map: `size` bytes alive over the steps
// [first, last] (inclusive).
struct Interval {
  int64_t size = 0;
  int32_t first = 0;
  int32_t last = 0;
};

int64_t AlignUp(int64_t v, int64_t alignment);

// The largest total of (aligned) bytes alive at one step: no placement can
// use less.
int64_t LowerBound(const std::vector<Interval>& intervals, int64_t alignment);

struct Packing {
  std::vector<int64_t> offsets;  // per interval, aligned
  int64_t peak = 0;              // end of the highest buffer
};

// Best-fit placement: each interval, in a few candidate orders (largest
// first, longest lifetime first, earliest first), goes into the smallest gap
// between already-placed intervals whose lifetimes overlap it; the order
// with the lowest peak wins. reuse = false stacks every interval.
Packing PackIntervals(const std::vector<Interval>& intervals, int64_t alignment, bool reuse);

// Multi-stream packing: `conflict(i, j)` says intervals i and j may not
// share memory (it must hold whenever their lifetimes overlap). The same
// best-fit orders and search as PackIntervals; `bound` stops the search
// early when reached. With conflict = lifetime overlap it is PackIntervals.
using Conflict = std::function<bool(size_t, size_t)>;
Packing PackWithConflicts(const std::vector<Interval>& intervals, int64_t alignment, bool reuse, const Conflict& conflict,
                          int64_t bound);

// A lower bound under `conflict`: at each step, the bytes alive there (they
// conflict pairwise), extended greedily (largest first) by intervals that
// conflict with every one already in the set. Every such set is a clique of
// the conflict graph, whose buffers must all be disjoint. At least
// LowerBound().
int64_t LowerBoundWithConflicts(const std::vector<Interval>& intervals, int64_t alignment, const Conflict& conflict);

// The whole plan for a graph whose shapes are static.
Result<MemoryPlan> PlanMemory(const Graph& g, const PlanOptions& options);

}  // namespace ge::memory
