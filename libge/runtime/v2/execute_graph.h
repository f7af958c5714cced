// The v2 ExecuteGraph: what lowering produces. Init and DeInit are lists of
// steps run once (allocations, constants, kernel creation / release); Main is
// a flat, pre-sorted array of (function pointer, context) pairs, the only
// thing that runs per inference.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "ge_base/status.h"

namespace ge::v2 {

// One Main-graph node: a plain C function over its context. Returns 0 on
// success; on failure it leaves a Status where its context says.
typedef int (*ExecFunc)(void* context);
struct ExecNode {
  ExecFunc func;
  void* context;
};

struct SequentialExecutionData {
  size_t node_num;
  const ExecNode* nodes;
};

// The executor: a loop, nothing else. Returns the index of the failing node,
// or -1 when every node succeeded.
long SequentialExecute(const SequentialExecutionData* data);

struct ExecuteGraph {
  std::vector<std::function<Status()>> init;
  std::vector<ExecNode> main;
  std::vector<std::function<void()>> deinit;
};

}  // namespace ge::v2
