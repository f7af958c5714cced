#include "onnx_name_check.h"

#include <string>
#include <unordered_set>
#include <vector>

#include "onnx_model_prep.h"

namespace ge::onnx_parser {
namespace {

// `scopes` holds the names of each enclosing graph, outermost first.
Status CheckGraph(const onnx::GraphProto& g, std::vector<std::unordered_set<std::string>>& scopes) {
  auto& here = scopes.emplace_back();
  for (const auto& v : g.input()) here.insert(v.name());
  for (const auto& t : g.initializer()) here.insert(t.name());
  for (const auto& t : g.sparse_initializer()) here.insert(t.values().name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) here.insert(o);
  auto defined = [&](const std::string& name) {
    for (const auto& s : scopes)
      if (s.count(name)) return true;
    return false;
  };
  const std::string in_graph = g.name().empty() ? "" : " in graph '" + g.name() + "'";
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    for (int k = 0; k < n.input_size(); ++k)
      if (!n.input(k).empty() && !defined(n.input(k)))
        return InvalidArgument("node " + NodeDisplayName(n, i) + " (" + n.op_type() + ")" + in_graph + ": input " +
                               std::to_string(k) + " '" + n.input(k) +
                               "' is not produced by any node, initializer or graph input");
  }
  for (const auto& o : g.output())
    if (!defined(o.name()))
      return InvalidArgument("graph output '" + o.name() + "'" + in_graph + " is not produced by any node");
  Status st;
  ForEachSubgraph(g, [&](const onnx::GraphProto& sg) {
    if (st.ok()) st = CheckGraph(sg, scopes);
  });
  scopes.pop_back();
  return st;
}

}  // namespace

Status CheckNamesDefined(const onnx::GraphProto& graph) {
  std::vector<std::unordered_set<std::string>> scopes;
  return CheckGraph(graph, scopes);
}

}  // namespace ge::onnx_parser
