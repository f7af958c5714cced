// Task lists (compiler stage 8): per stream, the kernel tasks in execution
// order with their (segment, offset) argument tables, taken from the plan.
#pragma once

#include <vector>

#include "ge/ir/graph.h"
#include "ge/plan.h"

namespace ge::tasks {

// One stream (stream 0): every compute node's kernel task in plan.order.
Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan);

// The streams stage's schedule with arguments: each kernel task gets its
// kernel id (numbered over stream 0, then stream 1 ...) and its (segment,
// offset) argument table from the plan; event tasks are kept as they are.
// The schedule must list exactly the nodes that compute in the plan.
Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan, std::vector<StreamTasks> schedule);

}  // namespace ge::tasks
