// The partition stage: a graph with unknown shapes is split into known- and
// unknown-shape clusters (dynamic_shape_partitioner.h); a static graph is
// left alone, it compiles to one plan.
#include <spdlog/spdlog.h>

#include "pass.h"
#include "partition/dynamic_shape_partitioner.h"
#include "partition/static_control_flow.h"

namespace ge {

std::function<bool(const Node&)> StaticControlFlowTest(const PassContext& ctx) {
  if (!ctx.options->sink_control_flow) return nullptr;
  hal::Device* device = ctx.device;
  return [device](const Node& n) { return partition::SinksControlFlow(n, *device); };
}

Pass DynamicShapePartitionPass() {
  return Pass{"dynamic_shape_partition", "partition", [](Graph& g, const PassContext& ctx) -> Status {
                if (partition::IsStaticGraph(g, StaticControlFlowTest(ctx))) return Status::Ok();
                GE_ASSIGN_OR_RETURN(int count, partition::PartitionDynamicShapes(g));
                spdlog::info("partition: dynamic model, {} known-shape subgraph(s)", count);
                return Status::Ok();
              }};
}

}  // namespace ge
