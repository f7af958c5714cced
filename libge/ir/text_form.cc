#include "ge/ir/text_form.h"

namespace ge {
namespace {

std::string DescText(const TensorDesc& d, const std::vector<std::string>* names) {
  if (!names || d.unknown_rank() || names->size() != d.dims.size()) return d.ToString();
  std::string s = std::string(DataTypeName(d.dtype)) + "[";
  for (size_t k = 0; k < d.dims.size(); ++k) {
    const std::string& n = (*names)[k];
    s += (k ? "," : "") + (d.dims[k] >= 0 ? std::to_string(d.dims[k]) : n.empty() ? std::string("?") : n);
  }
  s += "]";
  if (d.format != Format::kND) s += std::string("{") + FormatName(d.format) + "}";
  return s;
}

}  // namespace

std::string NodeToText(const Node& n, const DimNames* names) {
  std::string s = "%" + NameText(n.name()) + " = " + NameText(n.type());
  if (!n.attrs().empty()) {
    s += "[";
    bool first = true;
    for (const auto& [k, v] : n.attrs()) {
      if (!first) s += ", ";
      first = false;
      s += NameText(k) + "=" + AttrToString(v);
    }
    s += "]";
  }
  s += "(";
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    if (i) s += ", ";
    Endpoint e = n.InputSource(i);
    s += e.valid() ? "%" + NameText(e.node->name()) + ":" + std::to_string(e.index) : std::string("_");
  }
  s += ")";
  if (!n.control_inputs().empty()) {
    s += " ^(";
    for (size_t i = 0; i < n.control_inputs().size(); ++i) s += (i ? ", %" : "%") + NameText(n.control_inputs()[i]->name());
    s += ")";
  }
  s += " -> (";
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const std::vector<std::string>* dim_names = nullptr;
    if (names)
      if (auto it = names->find({&n, static_cast<int>(i)}); it != names->end()) dim_names = &it->second;
    s += (i ? ", " : "") + DescText(n.output_desc(i), dim_names);
  }
  s += ")";
  return s;
}

std::string GraphToText(const Graph& g, const DimNames* names) {
  std::string s = "graph " + NameText(g.name()) + " {\n";
  auto order = g.TopologicalOrder();
  std::vector<Node*> nodes = order.ok() ? order.value() : g.nodes();
  for (Node* n : nodes) {
    s += "  " + NodeToText(*n, names) + "\n";
    for (const auto& [k, sg] : n->subgraphs()) {
      if (!sg) continue;
      std::string sub = GraphToText(*sg);
      size_t pos = 0;
      s += "  // subgraph " + NameText(k) + " of " + NameText(n->name()) + "\n";
      while (pos < sub.size()) {
        size_t nl = sub.find('\n', pos);
        s += "    " + sub.substr(pos, nl - pos) + "\n";
        pos = nl == std::string::npos ? sub.size() : nl + 1;
      }
    }
  }
  return s + "}\n";
}

}  // namespace ge
