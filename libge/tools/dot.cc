#include "ge/tools/dot.h"

#include <map>

namespace ge::tools {
namespace {

// DOT string literal: quotes and backslashes escaped (names come from models).
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

const char* FillFor(const std::string& type) {
  if (type == op::kData || type == op::kNetOutput) return "lightblue";
  if (type == op::kConst) return "lightgrey";
  return "white";
}

}  // namespace

std::string GraphToDot(const Graph& g) {
  auto order = g.TopologicalOrder();
  const std::vector<Node*> nodes = order.ok() ? order.value() : g.nodes();
  // Ids by position, not by name: model names may hold anything.
  std::map<const Node*, std::string> id;
  for (size_t i = 0; i < nodes.size(); ++i) id[nodes[i]] = std::string("n").append(std::to_string(i));
  std::string s = "digraph ";
  s += Quote(g.name());
  s += " {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n"
       "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (const Node* n : nodes)
    s += "  " + id[n] + " [label=" + Quote(n->type() + "\n" + n->name()) + ", fillcolor=" + FillFor(n->type()) + "];\n";
  for (const Node* n : nodes) {
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      Endpoint e = n->InputSource(i);
      if (!e.valid() || !id.count(e.node)) continue;
      const std::string shape = e.index >= 0 && static_cast<size_t>(e.index) < e.node->num_outputs()
                                    ? e.node->output_desc(static_cast<size_t>(e.index)).ToString()
                                    : "?";
      s += "  " + id[e.node] + " -> " + id[n] + " [label=" + Quote(shape) + "];\n";
    }
    for (const Node* c : n->control_inputs())
      if (id.count(c)) s += "  " + id[c] + " -> " + id[n] + " [style=dashed, color=grey];\n";
  }
  return s + "}\n";
}

}  // namespace ge::tools
