#include "ge_parsers/source_check.h"

#include "ge/ops/op_registry.h"
#include "ge_parsers/onnx_parser.h"

namespace ge {

Result<SourceCheck> CheckSourceFile(const std::string& path, int framework, const ParseOptions& options) {
  SourceCheck c;
  if (framework == 3) {
    c.framework = "tensorflow";
    GE_ASSIGN_OR_RETURN(TfCheckReport tf, CheckTfFile(path, options));
    c.num_nodes = tf.num_nodes;
    c.unsupported = std::move(tf.unsupported);
    if (!c.unsupported.empty()) c.summary = DescribeUnsupported(c.unsupported);
    return c;
  }
  if (framework != 5)
    return InvalidArgument("--framework " + std::to_string(framework) + " is not one of 3 (TensorFlow), 5 (ONNX)");
  c.framework = "onnx";
  // The ONNX parser keeps op types it does not know; the registry decides.
  GE_ASSIGN_OR_RETURN(auto graph, ParseOnnxFile(path, options));
  for (Node* n : graph->nodes()) {
    ++c.num_nodes;
    if (!OpRegistry::Global().Find(n->type())) c.unsupported.push_back({n->name(), n->type(), "op type not supported by ge"});
  }
  if (!c.unsupported.empty()) {
    c.summary = std::to_string(c.unsupported.size()) + " unsupported node" + (c.unsupported.size() == 1 ? "" : "s") + ": ";
    for (size_t i = 0; i < c.unsupported.size(); ++i)
      c.summary += (i ? "; " : "") + c.unsupported[i].name + " (" + c.unsupported[i].op + ")";
  }
  return c;
}

}  // namespace ge
