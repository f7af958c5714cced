// TensorFlow frozen GraphDef (.pb) → IR, through our own subset of TF's wire
// format (schemas/tf_graph.proto). Placeholder becomes Data (attr "index"),
// Const becomes Const, every other supported TF op is mapped onto the IR's
// ONNX-style ops (docs/tensorflow.md lists them). NHWC graphs are converted
// to NCHW once, at the boundaries: a Transpose after each NHWC input and
// before each consumer that needs TF's own layout (docs/tensorflow.md,
// "Layout"). Graph outputs are --out_nodes ("name" or "name:k"), or else
// every node nothing consumes (Const, Placeholder and NoOp excepted).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ge/ir/graph.h"
#include "ge_parsers/onnx_parser.h"  // ParseOptions, shared by both parsers

namespace ge {

// Errors name the file and the node: "m.pb: node conv1 (Conv2D): ...". A graph
// with ops the parser cannot map fails with all of them in one message.
Result<std::unique_ptr<Graph>> ParseTfFile(const std::string& path, const ParseOptions& options);
// `origin` names the bytes in messages (a file name, or "<memory>").
Result<std::unique_ptr<Graph>> ParseTfBytes(const std::string& bytes, const ParseOptions& options,
                                            const std::string& origin);

// One node the parser cannot convert.
struct TfUnsupportedNode {
  std::string name;
  std::string op;
  std::string reason;
};

// ATC's pre-check (--mode 3) over the nodes the outputs depend on: every node
// whose op has no mapping, in GraphDef order. An error only when the bytes are
// not a GraphDef or the graph itself is broken (missing inputs, bad out_nodes).
struct TfCheckReport {
  size_t num_nodes = 0;  // nodes checked (those the outputs depend on)
  std::vector<TfUnsupportedNode> unsupported;
};
Result<TfCheckReport> CheckTfFile(const std::string& path, const ParseOptions& options);
Result<TfCheckReport> CheckTfBytes(const std::string& bytes, const ParseOptions& options, const std::string& origin);

// "N unsupported TensorFlow nodes: a (Foo); b (Bar)", the one line a failed
// conversion and a failed pre-check both print.
std::string DescribeUnsupported(const std::vector<TfUnsupportedNode>& nodes);

// The TF op types the parser maps, sorted.
std::vector<std::string> SupportedTfOps();

}  // namespace ge
