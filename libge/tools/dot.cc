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

// Node ids by position, prefixed per (sub)graph: model names may hold
// anything.
class DotWriter {
 public:
  std::string Write(const Graph& g) {
    std::string s = "digraph ";
    s += Quote(g.name());
    s += " {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n"
         "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    Nodes(g, "  ", s);
    Edges(g, s);
    return s + "}\n";
  }

 private:
  static std::vector<Node*> Ordered(const Graph& g) {
    auto order = g.TopologicalOrder();
    return order.ok() ? order.value() : g.nodes();
  }

  // A dynamic model's root graph: unknown-shape nodes orange; each
  // PartitionedCall drawn as a green cluster of its subgraph's nodes.
  void Nodes(const Graph& g, const std::string& indent, std::string& s) {
    for (const Node* n : Ordered(g)) {
      id_[n] = "n" + std::to_string(next_++);
      auto sub = n->subgraphs().find("f");
      if (n->type() == op::kPartitionedCall && sub != n->subgraphs().end() && sub->second) {
        s += indent + "subgraph cluster_" + id_[n] + " {\n" + indent + "  label=" +
             Quote(n->name() + " (known shape: one sink model)") + ";\n" + indent +
             "  style=filled; color=darkseagreen; fillcolor=honeydew;\n";
        Nodes(*sub->second, indent + "  ", s);
        s += indent + "}\n";
        calls_[n] = sub->second.get();
        continue;
      }
      const char* fill = FillFor(n->type());
      if (std::string(fill) == "white" && Dynamic(*n)) fill = "orange";
      s += indent + id_[n] + " [label=" + Quote(n->type() + "\n" + n->name()) + ", fillcolor=" + fill + "];\n";
    }
  }

  static bool Dynamic(const Node& n) {
    for (size_t j = 0; j < n.num_outputs(); ++j)
      if (!n.output_desc(j).is_static()) return true;
    return false;
  }

  // Where an edge from output `index` of `n` starts: inside a partition, at
  // its NetOutput's producer.
  const Node* Source(const Node* n, int index) const {
    auto it = calls_.find(n);
    if (it == calls_.end()) return n;
    const Node* out = it->second->OutputNode();
    if (!out || !out->InputSource(static_cast<size_t>(index)).valid()) return nullptr;
    const Endpoint e = out->InputSource(static_cast<size_t>(index));
    return Source(e.node, e.index);
  }

  void Edges(const Graph& g, std::string& s) {
    for (const Node* n : Ordered(g)) {
      auto call = calls_.find(n);
      if (call != calls_.end()) Edges(*call->second, s);
      for (size_t i = 0; i < n->num_inputs(); ++i) {
        Endpoint e = n->InputSource(i);
        if (!e.valid() || !id_.count(e.node)) continue;
        const std::string shape = e.index >= 0 && static_cast<size_t>(e.index) < e.node->num_outputs()
                                      ? e.node->output_desc(static_cast<size_t>(e.index)).ToString()
                                      : "?";
        const Node* src = Source(e.node, e.index);
        if (!src) continue;
        // Into a partition: to the subgraph's Data node of that input.
        std::string dst = id_[n];
        if (call != calls_.end()) {
          const Node* data = nullptr;
          for (const Node* d : call->second->InputNodes())
            if (d->GetInt("index", -1) == static_cast<int64_t>(i)) data = d;
          if (!data || !id_.count(data)) continue;
          dst = id_[data];
        }
        s += "  " + id_[src] + " -> " + dst + " [label=" + Quote(shape) + "];\n";
      }
      for (const Node* c : n->control_inputs())
        if (id_.count(c) && !calls_.count(c) && !calls_.count(n)) s += "  " + id_[c] + " -> " + id_[n] + " [style=dashed, color=grey];\n";
    }
  }

  std::map<const Node*, std::string> id_;
  std::map<const Node*, const Graph*> calls_;
  int next_ = 0;
};

}  // namespace

std::string GraphToDot(const Graph& g) { return DotWriter().Write(g); }

}  // namespace ge::tools
