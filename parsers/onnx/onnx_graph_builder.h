// A checked, opset-converted, shape-inferred ONNX GraphProto → ge::Graph.
//   graph inputs (not initializers) → Data (attr "index", in order)
//   initializers and Constant nodes  → Const (attr "value")
//   every other node                 → a Node of type op_type, attributes
//                                      converted, subgraphs built recursively
//   graph outputs (or out_nodes)     → one NetOutput (attr "output_names")
// Nodes are inserted in that order, following the ONNX node order, so the
// same file always gives the same graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// `opset` (the default domain's, after conversion) becomes attr "_opset" of
// every node made from an ONNX node. `out_nodes` are tensor names, node names
// (all their outputs) or "node:k"; empty means the graph's own outputs.
Result<std::unique_ptr<Graph>> BuildGraph(const onnx::GraphProto& proto, int64_t opset,
                                          const std::vector<std::string>& out_nodes);

}  // namespace ge::onnx_parser
