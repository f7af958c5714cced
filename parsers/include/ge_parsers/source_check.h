// ATC's pre-check (--mode 3) of a source model, for either framework: every
// node whose op ge cannot convert, found without converting anything.
#pragma once

#include <string>
#include <vector>

#include "ge_parsers/tf_parser.h"

namespace ge {

struct SourceCheck {
  std::string framework;  // "onnx" | "tensorflow"
  size_t num_nodes = 0;   // nodes checked
  std::vector<TfUnsupportedNode> unsupported;
  // "N unsupported nodes: a (Foo); b (Bar)": the one line a failed check
  // prints (empty when every node is supported).
  std::string summary;
};

// framework: 5 ONNX, 3 TensorFlow. An error only when the file cannot be read
// as a model of that framework (or the framework number is neither).
Result<SourceCheck> CheckSourceFile(const std::string& path, int framework, const ParseOptions& options);

}  // namespace ge
