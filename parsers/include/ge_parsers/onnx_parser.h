// ONNX → IR, through the installed onnx library: checker, version converter
// (when the model's opset is outside what we support natively), shape
// inference. Initializers and Constant nodes become Const nodes; graph inputs
// become Data nodes (attr "index"); graph outputs feed one NetOutput (attr
// "output_names"). Op types keep their ONNX names.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/ir/graph.h"

namespace ge {

struct ParseOptions {
  // --input_shape overrides, by graph input name.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // --out_nodes: graph outputs to keep (empty: the model's own outputs).
  std::vector<std::string> out_nodes;
};

// Opsets of the default domain that ge handles natively; others are converted.
constexpr int64_t kMinNativeOnnxOpset = 11;
constexpr int64_t kMaxNativeOnnxOpset = 17;

// Errors name the file: "model.onnx: not an ONNX model (...)".
Result<std::unique_ptr<Graph>> ParseOnnxFile(const std::string& path, const ParseOptions& options);
// `origin` names the bytes in messages (a file name, or "<memory>").
Result<std::unique_ptr<Graph>> ParseOnnxBytes(const std::string& bytes, const ParseOptions& options,
                                              const std::string& origin);

}  // namespace ge
