#include "ge/ir/json_form.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "ge_base/sha256.h"

namespace ge {
namespace {

using Json = nlohmann::ordered_json;

// JSON has no NaN/Inf; spell them so the value is not silently lost as null.
Json FloatJson(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

Json DescJson(const TensorDesc& d) {
  return Json{{"dtype", DataTypeName(d.dtype)}, {"shape", d.dims}, {"format", FormatName(d.format)}};
}

Json GraphJson(const Graph& g);

Json TensorJson(const Tensor& t) {
  Json j = DescJson(t.desc());
  j["bytes"] = t.size();
  j["sha256"] = Sha256Hex(t.data(), t.size());
  const int64_t n = t.desc().NumElements();
  if (n >= 0 && n <= kJsonMaxInlineElements && static_cast<int64_t>(t.size()) == t.desc().Bytes()) {
    Json values = Json::array();
    for (double v : t.ToDouble()) values.push_back(FloatJson(v));
    j["values"] = values;
  }
  return j;
}

Json AttrJson(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> Json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, int64_t>) return {{"int", x}};
        else if constexpr (std::is_same_v<T, float>) return {{"float", FloatJson(x)}};
        else if constexpr (std::is_same_v<T, std::string>) return {{"string", x}};
        else if constexpr (std::is_same_v<T, bool>) return {{"bool", x}};
        else if constexpr (std::is_same_v<T, std::vector<int64_t>>) return {{"ints", x}};
        else if constexpr (std::is_same_v<T, std::vector<float>>) {
          Json a = Json::array();
          for (float f : x) a.push_back(FloatJson(f));
          return {{"floats", a}};
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) return {{"strings", x}};
        else if constexpr (std::is_same_v<T, Tensor>) return {{"tensor", TensorJson(x)}};
        else return {{"graph", x ? GraphJson(*x) : Json(nullptr)}};
      },
      v);
}

Json NodeJson(const Node& n) {
  Json j;
  j["name"] = n.name();
  j["type"] = n.type();
  Json attrs = Json::object();
  for (const auto& [k, v] : n.attrs()) attrs[k] = AttrJson(v);  // std::map: sorted by name
  j["attrs"] = attrs;
  Json inputs = Json::array();
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    Endpoint e = n.InputSource(i);
    inputs.push_back(e.valid() ? Json{{"node", e.node->name()}, {"output", e.index}} : Json(nullptr));
  }
  j["inputs"] = inputs;
  Json control = Json::array();
  for (const Node* c : n.control_inputs()) control.push_back(c->name());
  j["control_inputs"] = control;
  Json outputs = Json::array();
  for (size_t i = 0; i < n.num_outputs(); ++i) outputs.push_back(DescJson(n.output_desc(i)));
  j["outputs"] = outputs;
  if (!n.subgraphs().empty()) {
    Json subs = Json::object();
    for (const auto& [k, sg] : n.subgraphs()) subs[k] = sg ? GraphJson(*sg) : Json(nullptr);
    j["subgraphs"] = subs;
  }
  return j;
}

Json GraphJson(const Graph& g) {
  // The text form's order, so both dumps list nodes alike; a cyclic graph
  // (only ever seen mid-bug) still dumps, in insertion order.
  auto order = g.TopologicalOrder();
  const std::vector<Node*> nodes = order.ok() ? order.value() : g.nodes();
  Json j;
  j["graph"] = g.name();
  Json arr = Json::array();
  for (const Node* n : nodes) arr.push_back(NodeJson(*n));
  j["nodes"] = arr;
  return j;
}

}  // namespace

std::string GraphToJson(const Graph& g) {
  // One node per line: still one JSON document, but `diff` between two
  // dumps shows whole nodes, and a resnet18 dump stays a few hundred lines.
  const Json j = GraphJson(g);
  std::string s = "{\"graph\": " + j["graph"].dump() + ", \"nodes\": [";
  const Json& nodes = j["nodes"];
  for (size_t i = 0; i < nodes.size(); ++i) s += (i ? ",\n  " : "\n  ") + nodes[i].dump();
  return s + (nodes.empty() ? "]}\n" : "\n]}\n");
}

}  // namespace ge
