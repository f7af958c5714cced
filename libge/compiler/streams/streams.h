// The streams stage (compiler stage 6): which stream runs each kernel, and
// the event record/wait tasks that order cross-stream edges. See
// docs/streams.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge/ops/memory_alias.h"  // RunsKernel: which nodes get a task
#include "ge/plan.h"

namespace ge::streams {

// The kernel nodes a kernel node depends on: its data and control inputs,
// looking through nodes that run no kernel (a Reshape between two convs).
// Indexed like `kernels`; each list sorted, without duplicates.
std::vector<std::vector<int32_t>> KernelDeps(const std::vector<Node*>& order, const std::vector<Node*>& kernels);

// Estimated work of a kernel node (multiply-adds count 2): convolutions and
// matrix products by their FLOPs, everything else by the elements it moves.
double EstimateCost(const Node& n);

// The schedule: each stream's kernel tasks (node set, no arguments yet) in
// `order`, with event record tasks after producers and wait tasks before
// consumers of cross-stream edges, redundant waits removed. stream_num 1:
// one stream holding every kernel node in `order`, no events.
Result<std::vector<StreamTasks>> BuildSchedule(const std::vector<Node*>& order, int32_t stream_num);

// Drops waits that stream order and earlier waits already imply, then
// records nobody waits for, and renumbers the events 0..E-1 in the order of
// their old ids. Returns the number of waits removed; fails like
// CheckEventGraph on a bad event graph.
Result<int> RemoveRedundantWaits(std::vector<StreamTasks>& streams);

// Counts over a schedule, for logs and reports.
struct ScheduleStats {
  int32_t streams = 0;
  int32_t events = 0;
  int32_t kernels = 0;
};
ScheduleStats Stats(const std::vector<StreamTasks>& streams);

}  // namespace ge::streams
