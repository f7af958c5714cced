// W18888, after GE's GraphLint (reference 3.5): per node input a read/write
// type (read-only, writable, can-ignore), the reachability matrix, and for
// every output with two or more consumers: two writers, or a writer and a
// reader, that no path orders may run in either order, so what the reader
// sees (or which write survives) depends on the schedule.
#include <string>
#include <vector>

#include "ge/analysis/reachability.h"
#include "ge/lint/graph_checks.h"
#include "ge/ops/memory_alias.h"
#include "ge/ops/memory_semantics.h"

namespace ge::lint {
namespace {

enum class Access { kRead, kWrite, kIgnore };

// What consumer input `in` of `c` does to the memory it is given.
Access AccessOf(const Node& c, size_t in) {
  // Only the metadata is read.
  if (c.type() == "Shape" || c.type() == "Size" || c.type() == "Rank") return Access::kIgnore;
  // The runtimes copy a model's outputs after every task has run.
  if (c.type() == op::kNetOutput) return Access::kIgnore;
  return InputMutabilityOf(c, in) == InputMutability::kReadOnly ? Access::kRead : Access::kWrite;
}

struct Accessor {
  const Node* node;
  Access access;
};

// The nodes that touch output `e`'s memory: its consumers and, through
// views (Identity, Reshape ... that pass the memory on without writing it),
// theirs. A view is no accessor itself.
std::vector<Accessor> AccessorsOf(Endpoint e) {
  std::vector<Accessor> out;
  std::vector<Endpoint> todo{e};
  while (!todo.empty() && out.size() < 100000) {
    const Endpoint cur = todo.back();
    todo.pop_back();
    for (const Endpoint& c : cur.node->OutputConsumers(static_cast<size_t>(cur.index))) {
      const Access a = AccessOf(*c.node, static_cast<size_t>(c.index));
      bool view = false;
      if (a == Access::kRead)
        for (size_t o = 0; o < c.node->num_outputs(); ++o)
          if (AliasedInput(*c.node, o) == c.index) {
            view = true;
            todo.push_back(Endpoint{c.node, static_cast<int>(o)});
          }
      if (!view && a != Access::kIgnore) out.push_back({c.node, a});
    }
  }
  return out;
}

void CheckGraph(const Graph& g, const std::string& path, Diagnostics* out) {
  for (const Node* n : g.nodes())
    for (const auto& [name, sub] : n->subgraphs())
      if (sub) CheckGraph(*sub, (path.empty() ? "" : path + "/") + n->name() + "/" + name, out);
  auto reach = analysis::Reachability::Build(g);
  if (!reach.ok()) return;  // a cyclic graph: the verifier reports it
  for (const Node* n : g.nodes())
    for (size_t o = 0; o < n->num_outputs(); ++o) {
      // An output that is a view of another is checked with that one.
      if (AliasedInput(*n, o) >= 0 && InputMutabilityOf(*n, static_cast<size_t>(AliasedInput(*n, o))) ==
                                          InputMutability::kReadOnly)
        continue;
      const std::vector<Accessor> acc = AccessorsOf(Endpoint{const_cast<Node*>(n), static_cast<int>(o)});
      if (acc.size() < 2) continue;
      const std::string tensor = n->name() + ":" + std::to_string(o) + " (" + n->type() + ")";
      for (size_t i = 0; i < acc.size(); ++i)
        // Writers are rare: asked first, a tensor with k readers costs k, not k^2.
        for (size_t j = 0; acc[i].access == Access::kWrite && j < acc.size(); ++j) {
          const Accessor &w = acc[i], &r = acc[j];
          if (i == j || w.node == r.node) continue;
          // Two writers are reported once.
          if (r.access == Access::kWrite && j < i) continue;
          if (reach->Ordered(w.node, r.node)) continue;
          Diagnostic d;
          d.code = "W18888";
          d.severity = Severity::kWarning;
          d.graph = path;
          d.nodes = {w.node->name(), r.node->name(), n->name()};
          d.message = w.node->Label() + " writes the memory of " + tensor + " and " + r.node->Label() +
                      (r.access == Access::kWrite ? " writes" : " reads") +
                      " it, with no data or control path between them: the result depends on the order they run; "
                      "add a control edge";
          out->push_back(std::move(d));
        }
    }
}

}  // namespace

void CheckReadWriteOrder(const Graph& g, Diagnostics* out) { CheckGraph(g, "", out); }

}  // namespace ge::lint
