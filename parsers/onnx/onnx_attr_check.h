// Attribute checks that must run before the onnx library sees the model: its
// shape inference divides by strides and block sizes and sizes windows by
// kernels, dilations and pads without checking them (a stride of 0 is a
// SIGFPE inside onnx::shape_inference).
#pragma once

#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// For the sliding-window ops (Conv, ConvTranspose, ConvInteger, QLinearConv,
// MaxPool, AveragePool, LpPool, MaxUnpool) and DepthToSpace/SpaceToDepth,
// subgraphs included: strides, dilations, kernel_shape, group and blocksize
// at least 1, pads and output_padding at least 0, every value at most
// kMaxWindowValue. InvalidArgument naming the node, its op and attribute.
Status CheckWindowAttributes(const onnx::GraphProto& graph);

}  // namespace ge::onnx_parser
