// A schema registry for onnx shape inference whose sliding-window ops check
// ranks first. onnx 1.12's convPoolShapeInference sizes its dilations and
// strides by X's rank but, without a kernel_shape attribute, loops over W's
// spatial dims: a W of higher rank than X reads past those vectors (SEGV).
// Ranks are only known as inference reaches each node (X may be produced
// upstream), so the check wraps the schema's inference function instead of
// pre-scanning the graph.
#pragma once

#include "onnx/defs/schema.h"

namespace ge::onnx_parser {

// Delegates to onnx's OpSchemaRegistry; for Conv, ConvTranspose, ConvInteger,
// QLinearConv and the pools it returns a copy of the schema whose inference
// fails cleanly (fail_shape_inference) when X has a known rank below 3 or,
// with no kernel_shape attribute, W's known rank differs from X's.
const onnx::ISchemaRegistry* GuardedSchemaRegistry();

}  // namespace ge::onnx_parser
