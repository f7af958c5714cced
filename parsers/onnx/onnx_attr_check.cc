#include "onnx_attr_check.h"

#include <map>
#include <string>
#include <vector>

#include "ge/ops/op_registry.h"
#include "onnx_model_prep.h"

namespace ge::onnx_parser {
namespace {

// The smallest value each checked attribute may take.
using Minimums = std::map<std::string, int64_t>;

const Minimums* MinimumsOf(const std::string& op) {
  static const Minimums kConv = {{"strides", 1}, {"dilations", 1}, {"kernel_shape", 1}, {"group", 1}, {"pads", 0}};
  static const Minimums kConvTranspose = {{"strides", 1}, {"dilations", 1}, {"kernel_shape", 1}, {"group", 1},
                                          {"pads", 0},    {"output_padding", 0}, {"output_shape", 0}};
  static const Minimums kPool = {{"strides", 1}, {"dilations", 1}, {"kernel_shape", 1}, {"pads", 0}};
  static const Minimums kBlock = {{"blocksize", 1}};
  static const std::map<std::string, const Minimums*> kOps = {
      {"Conv", &kConv},         {"ConvInteger", &kConv},  {"QLinearConv", &kConv},       {"ConvTranspose", &kConvTranspose},
      {"MaxPool", &kPool},      {"AveragePool", &kPool},  {"LpPool", &kPool},            {"MaxUnpool", &kPool},
      {"DepthToSpace", &kBlock}, {"SpaceToDepth", &kBlock}};
  auto it = kOps.find(op);
  return it == kOps.end() ? nullptr : it->second;
}

Status CheckNode(const onnx::NodeProto& n, int index) {
  const Minimums* mins = n.domain().empty() || n.domain() == "ai.onnx" ? MinimumsOf(n.op_type()) : nullptr;
  if (!mins) return Status::Ok();
  for (const auto& a : n.attribute()) {
    auto it = mins->find(a.name());
    if (it == mins->end()) continue;
    std::vector<int64_t> values(a.ints().begin(), a.ints().end());
    if (a.type() == onnx::AttributeProto::INT) values = {a.i()};
    for (int64_t v : values) {
      if (v >= it->second && v <= kMaxWindowValue) continue;
      const std::string bound = v < it->second ? "must be at least " + std::to_string(it->second)
                                               : "must be at most " + std::to_string(kMaxWindowValue);
      return InvalidArgument("node " + NodeDisplayName(n, index) + " (" + n.op_type() + "): attribute '" + a.name() +
                             "' has " + std::to_string(v) + ", which " + bound);
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckWindowAttributes(const onnx::GraphProto& graph) {
  for (int i = 0; i < graph.node_size(); ++i) GE_RETURN_IF_ERROR(CheckNode(graph.node(i), i));
  Status st;
  ForEachSubgraph(graph, [&](const onnx::GraphProto& sg) {
    if (st.ok()) st = CheckWindowAttributes(sg);
  });
  return st;
}

}  // namespace ge::onnx_parser
