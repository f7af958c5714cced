#include "ge/ir/verifier.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace ge {

namespace {
Status Fail(const Graph& g, const std::string& msg) { return Internal("verifier: graph " + g.name() + ": " + msg); }
}  // namespace

Status VerifyGraph(const Graph& g) {
  std::set<std::string> names;
  std::set<int64_t> data_indices;
  int netoutputs = 0;
  size_t data_count = 0;
  // Every consumer entry once, so that an input finds its own in O(log E):
  // a search of the producer's consumer list made a tensor read by k nodes
  // cost k^2.
  std::set<std::tuple<const Node*, int, const Node*, int>> consumed;
  for (Node* n : g.nodes())
    for (size_t o = 0; o < n->num_outputs(); ++o)
      for (const Endpoint& c : n->OutputConsumers(o)) consumed.insert({n, static_cast<int>(o), c.node, c.index});
  for (Node* n : g.nodes()) {
    if (n->owner() != &g) return Fail(g, n->Label() + " has a wrong owner");
    if (!names.insert(n->name()).second) return Fail(g, "duplicate node name " + n->name());
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      Endpoint src = n->InputSource(i);
      if (!src.valid()) continue;
      if (src.node->owner() != &g) return Fail(g, n->Label() + " input " + std::to_string(i) + " comes from another graph");
      if (src.index < 0 || static_cast<size_t>(src.index) >= src.node->num_outputs())
        return Fail(g, n->Label() + " input " + std::to_string(i) + " names a missing output");
      if (!consumed.count({src.node, src.index, n, static_cast<int>(i)}))
        return Fail(g, "edge " + src.node->name() + " -> " + n->name() + " is one-sided");
    }
    for (size_t o = 0; o < n->num_outputs(); ++o) {
      for (const Endpoint& c : n->OutputConsumers(o)) {
        if (!c.node || c.node->InputSource(c.index) != Endpoint{n, static_cast<int>(o)})
          return Fail(g, "edge from " + n->name() + " output " + std::to_string(o) + " is one-sided");
      }
    }
    for (Node* c : n->control_outputs()) {
      const auto& back = c->control_inputs();
      if (std::find(back.begin(), back.end(), n) == back.end())
        return Fail(g, "control edge " + n->name() + " -> " + c->name() + " is one-sided");
    }
    if (n->type() == op::kData) {
      ++data_count;
      if (!data_indices.insert(n->GetInt("index", -1)).second)
        return Fail(g, "Data node " + n->name() + " repeats index " + std::to_string(n->GetInt("index", -1)));
    }
    if (n->type() == op::kNetOutput) {
      ++netoutputs;
      if (n->num_outputs() != 0 && !n->OutNodes().empty()) return Fail(g, "NetOutput has consumers");
    }
    if (n->type() == op::kConst) {
      const Tensor* t = n->GetTensor("value");
      if (!t) return Fail(g, n->Label() + " has no value tensor");
      if (n->num_outputs() != 1) return Fail(g, n->Label() + " must have one output");
      if (t->desc().Bytes() != static_cast<int64_t>(t->size()))
        return Fail(g, n->Label() + " value holds " + std::to_string(t->size()) + " bytes, its desc says " +
                           std::to_string(t->desc().Bytes()));
    }
    for (const auto& [k, sg] : n->subgraphs()) {
      if (!sg) return Fail(g, n->Label() + " subgraph " + k + " is null");
      GE_RETURN_IF_ERROR(VerifyGraph(*sg));
    }
  }
  for (size_t i = 0; i < data_count; ++i)
    if (!data_indices.count(static_cast<int64_t>(i))) return Fail(g, "Data indices are not 0.." + std::to_string(data_count - 1));
  if (netoutputs != 1) return Fail(g, "expected one NetOutput, found " + std::to_string(netoutputs));
  auto order = g.TopologicalOrder();
  if (!order.ok()) return Fail(g, order.status().message());
  return Status::Ok();
}

}  // namespace ge
