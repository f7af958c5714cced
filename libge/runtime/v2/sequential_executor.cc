#include "v2/execute_graph.h"

namespace ge::v2 {

long SequentialExecute(const SequentialExecutionData* data) {
  for (size_t i = 0; i < data->node_num; ++i) {
    const ExecNode& node = data->nodes[i];
    if (node.func(node.context) != 0) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace ge::v2
