// Every name and string the IR keeps must be valid UTF-8: the .om stores
// them in proto3 string fields, which protobuf refuses to parse otherwise (a
// .om that ge-atc wrote and ge-run could not read). ONNX's own fields are
// proto2 and accept any bytes, so the check is ours, before anything else.
#pragma once

#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// Graph, value, initializer, node, input/output and attribute names, op
// types, string attributes; subgraphs included. InvalidArgument naming the
// place by position (the bytes themselves would garble the error line).
Status CheckUtf8(const onnx::GraphProto& graph);

}  // namespace ge::onnx_parser
