// ATC's gears (--dynamic_batch_size, --dynamic_image_size, --dynamic_dims):
// the graph compiled once per gear as a static model, the gears joined under
// one GearCase node (docs/dynamic-shapes.md#gears).
#pragma once

#include <memory>

#include "ge/compiler.h"

namespace ge::gears {

// Compiles `graph` once per gear of options.gears (each a whole static
// model: passes, streams, memory, tasks) and returns the gear model: root
// graph Data -> GearCase -> NetOutput, every gear a subgraph of the GearCase
// with its plan in Model::partitions. A gear that leaves a shape unknown is
// an error naming the gear and the node.
Result<Model> CompileGears(std::unique_ptr<Graph> graph, const CompileOptions& options);

}  // namespace ge::gears
