#include "v2/topological_executor.h"

#include "v2/ready_heap.h"

namespace ge::v2 {

long TopologicalExecute(const TopologicalExecutionData* data, TopologicalScratch* scratch) {
  scratch->Reserve(data->node_num);
  uint32_t* pending = scratch->pending.data();
  ReadyHeap ready(scratch->ready.data(), data->priority);
  ready.Start(*data, pending);
  while (!ready.empty()) {
    const uint32_t n = ready.Pop();
    const ExecNode& node = data->nodes[n];
    if (node.func(node.context) != 0) return static_cast<long>(n);
    ready.Release(*data, n, pending);
  }
  return -1;
}

}  // namespace ge::v2
