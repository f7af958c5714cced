// ONNX node attributes → ge attribute values, and the value of a `Constant`
// node. GRAPH attributes are subgraphs: the graph builder handles those.
#pragma once

#include <string>

#include "ge/ir/attr_value.h"
#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// The attribute's type; old files leave `type` unset, then the filled field says.
onnx::AttributeProto::AttributeType AttrType(const onnx::AttributeProto& a);

// INT → int64_t, FLOAT → float, STRING → string, INTS/FLOATS/STRINGS → vectors,
// TENSOR → Tensor. Other kinds (GRAPH, TENSORS, GRAPHS, sparse, type protos)
// are Unsupported. `node` ("conv1 (Conv)") prefixes errors.
Result<AttrValue> AttrFromOnnx(const onnx::AttributeProto& a, const std::string& node);

// A Constant node's single value attribute (value, value_float, value_floats,
// value_int, value_ints) as a tensor; scalars get dims {}.
Result<Tensor> ConstantNodeValue(const onnx::NodeProto& n, const std::string& node);

}  // namespace ge::onnx_parser
