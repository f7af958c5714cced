// Every value a node reads and every graph output must be defined: by a graph
// input, an initializer or a node output of the graph or (in a subgraph) of an
// enclosing graph. The onnx version converter dereferences a missing one (a
// crash, found by fuzzing), so this runs before it; the graph builder would
// give the same message later.
#pragma once

#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// InvalidArgument naming the first node input or graph output that nothing
// defines; subgraphs included, with their enclosing graphs' names in scope.
Status CheckNamesDefined(const onnx::GraphProto& graph);

}  // namespace ge::onnx_parser
