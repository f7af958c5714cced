#include "ge/tools/dot.h"

#include <algorithm>
#include <map>

#include "ge/ir/attr_value.h"

namespace ge::tools {
namespace {

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
    s += QuoteString(g.name());
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

  // The subgraphs drawn as clusters: a PartitionedCall's "f" (a known-shape
  // cluster), a GearCase's gears.
  static std::vector<std::pair<std::string, const Graph*>> Clusters(const Node& n) {
    std::vector<std::pair<std::string, const Graph*>> out;
    if (n.type() != op::kPartitionedCall && n.type() != op::kGearCase) return out;
    for (const auto& [name, g] : n.subgraphs())
      if (g) out.emplace_back(name, g.get());
    return out;
  }

  // A dynamic model's root graph: unknown-shape nodes orange; each
  // PartitionedCall drawn as a green cluster of its subgraph's nodes, each
  // gear of a GearCase as a blue one.
  void Nodes(const Graph& g, const std::string& indent, std::string& s) {
    for (const Node* n : Ordered(g)) {
      id_[n] = "n" + std::to_string(next_++);
      const auto clusters = Clusters(*n);
      if (!clusters.empty()) {
        const bool gear = n->type() == op::kGearCase;
        for (const auto& [name, sub] : clusters) {
          s += indent + "subgraph cluster_" + id_[n] + "_" + name + " {\n" + indent + "  label=" +
               QuoteString(gear ? n->name() + " " + name + " (static: one sink model)" : n->name() + " (known shape: one sink model)") +
               ";\n" + indent + (gear ? "  style=filled; color=steelblue; fillcolor=aliceblue;\n"
                                       : "  style=filled; color=darkseagreen; fillcolor=honeydew;\n");
          Nodes(*sub, indent + "  ", s);
          s += indent + "}\n";
          calls_[n].push_back(sub);
        }
        continue;
      }
      const char* fill = FillFor(n->type());
      if (std::string(fill) == "white" && Dynamic(*n)) fill = "orange";
      if (!n->subgraphs().empty()) fill = "khaki";  // control flow: the node, then its subgraphs
      s += indent + id_[n] + " [label=" + QuoteString(n->type() + "\n" + n->name()) + ", fillcolor=" + fill + "];\n";
      for (const auto& [name, sub] : n->subgraphs()) {
        if (!sub) continue;
        s += indent + "subgraph cluster_" + id_[n] + "_" + name + " {\n" + indent + "  label=" +
             QuoteString(n->name() + " " + name) + ";\n" + indent + "  style=dashed; color=goldenrod;\n";
        Nodes(*sub, indent + "  ", s);
        s += indent + "}\n";
        flow_.push_back(sub.get());
      }
    }
  }

  static bool Dynamic(const Node& n) {
    for (size_t j = 0; j < n.num_outputs(); ++j)
      if (!n.output_desc(j).is_static()) return true;
    return false;
  }

  // Where edges from output `index` of `n` start: inside a cluster, at its
  // NetOutput's producer (one per gear).
  void Sources(const Node* n, int index, std::vector<const Node*>& out) const {
    auto it = calls_.find(n);
    if (it == calls_.end()) {
      out.push_back(n);
      return;
    }
    for (const Graph* sub : it->second) {
      const Node* net = sub->OutputNode();
      if (!net || !net->InputSource(static_cast<size_t>(index)).valid()) continue;
      const Endpoint e = net->InputSource(static_cast<size_t>(index));
      Sources(e.node, e.index, out);
    }
  }

  void Edges(const Graph& g, std::string& s) {
    for (const Node* n : Ordered(g)) {
      for (const auto& [name, sub] : n->subgraphs())
        if (sub && std::find(flow_.begin(), flow_.end(), sub.get()) != flow_.end()) Edges(*sub, s);
      auto call = calls_.find(n);
      if (call != calls_.end())
        for (const Graph* sub : call->second) Edges(*sub, s);
      for (size_t i = 0; i < n->num_inputs(); ++i) {
        Endpoint e = n->InputSource(i);
        if (!e.valid() || !id_.count(e.node)) continue;
        const std::string shape = e.index >= 0 && static_cast<size_t>(e.index) < e.node->num_outputs()
                                      ? e.node->output_desc(static_cast<size_t>(e.index)).ToString()
                                      : "?";
        std::vector<const Node*> srcs;
        Sources(e.node, e.index, srcs);
        // Into a cluster: to each subgraph's Data node of that input.
        std::vector<std::string> dsts;
        if (call == calls_.end()) dsts.push_back(id_[n]);
        else
          for (const Graph* sub : call->second)
            for (const Node* d : sub->InputNodes())
              if (d->GetInt("index", -1) == static_cast<int64_t>(i) && id_.count(d)) dsts.push_back(id_[d]);
        for (const Node* src : srcs)
          for (const std::string& dst : dsts) s += "  " + id_[src] + " -> " + dst + " [label=" + QuoteString(shape) + "];\n";
      }
      for (const Node* c : n->control_inputs())
        if (id_.count(c) && !calls_.count(c) && !calls_.count(n)) s += "  " + id_[c] + " -> " + id_[n] + " [style=dashed, color=grey];\n";
    }
  }

  std::map<const Node*, std::string> id_;
  std::map<const Node*, std::vector<const Graph*>> calls_;
  std::vector<const Graph*> flow_;  // control-flow subgraphs, drawn beside their node
  int next_ = 0;
};

}  // namespace

std::string GraphToDot(const Graph& g) { return DotWriter().Write(g); }

}  // namespace ge::tools
