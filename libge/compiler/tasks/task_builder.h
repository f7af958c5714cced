// Task lists (compiler stage 8): per stream, the kernel tasks in execution
// order with their (segment, offset) argument tables, taken from the plan.
#pragma once

#include <vector>

#include "ge/ir/graph.h"
#include "ge/plan.h"

namespace ge::tasks {

// True when every output of `n` shares an input's memory in the plan, so
// running it would copy a buffer onto itself (Reshape, Identity ...).
bool IsAliasOnly(const Node& n, const MemoryPlan& plan);

// One stream today (stream 0); event tasks come with the streams stage.
Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan);

}  // namespace ge::tasks
