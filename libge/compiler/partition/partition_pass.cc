// The partition stage: a graph with unknown shapes is split into known- and
// unknown-shape clusters (dynamic_shape_partitioner.h); a static graph is
// left alone, it compiles to one plan.
#include <spdlog/spdlog.h>

#include "pass.h"
#include "partition/dynamic_shape_partitioner.h"

namespace ge {

Pass DynamicShapePartitionPass() {
  return Pass{"dynamic_shape_partition", "partition", [](Graph& g, const PassContext&) -> Status {
                if (partition::IsStaticGraph(g)) return Status::Ok();
                GE_ASSIGN_OR_RETURN(int count, partition::PartitionDynamicShapes(g));
                spdlog::info("partition: dynamic model, {} known-shape subgraph(s)", count);
                return Status::Ok();
              }};
}

}  // namespace ge
