// The steps on the ModelProto before the IR is built: each wraps one call of
// the onnx library (which throws) and turns its failure into a Status. The
// messages carry no file name; the parser's flow prefixes it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ge_base/status.h"
#include "onnx/onnx_pb.h"

namespace ge::onnx_parser {

// Visits every graph nested in node attributes, depth first, in file order.
void ForEachSubgraph(const onnx::GraphProto& g, const std::function<void(const onnx::GraphProto&)>& fn);

// How a node is named in messages before the IR gives it a name: its name,
// else its first output, else OP_INDEX.
std::string NodeDisplayName(const onnx::NodeProto& n, int index);

// The opset of the default domain ("" or "ai.onnx"); -1 when not imported.
int64_t DefaultDomainOpset(const onnx::ModelProto& model);

bool IsDefaultDomain(const std::string& domain);

// Vets every initializer and tensor attribute (subgraphs included) before the
// checker, whose messages do not name the tensor: external data and dtypes ge
// cannot hold are Unsupported, lengths that do not match the dims Corrupt.
Status CheckTensors(const onnx::GraphProto& graph);

// Unsupported listing every node (subgraphs included) of a non-default domain
// as "name (domain:op_type)", all in one message.
Status RejectForeignDomains(const onnx::GraphProto& graph);

// onnx::checker::check_model; InvalidArgument "invalid ONNX model: ...".
Status CheckModel(const onnx::ModelProto& model);

// Converts the default-domain opset into [kMinNativeOnnxOpset,
// kMaxNativeOnnxOpset] with the onnx version converter when it lies outside:
// older models go to 13 (clamped into the range), newer ones to the maximum.
// `opset` is the opset after the step.
Status ConvertOpsetIfNeeded(onnx::ModelProto* model, int64_t* opset);

// Replaces the shapes of the named graph inputs (a rank change is fine; -1 is
// an unknown dim). Unknown names are InvalidArgument listing the real inputs.
// Stale intermediate and output shapes are dropped so inference recomputes them.
Status ApplyInputShapes(onnx::ModelProto* model, const std::map<std::string, std::vector<int64_t>>& shapes);

// onnx::shape_inference::InferShapes in strict mode with data propagation,
// filling graph.value_info; failures are InvalidArgument.
Status InferShapes(onnx::ModelProto* model);

// onnx messages span lines ("\n\n==> Context: ..."); ge reports one line.
std::string OneLine(const std::string& s);

}  // namespace ge::onnx_parser
