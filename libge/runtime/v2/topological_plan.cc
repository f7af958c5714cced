// BuildTopologicalPlan: successors in CSR form, in-degrees, and priorities
// from a topological order (Kahn's), which also finds cycles.
#include <algorithm>
#include <limits>
#include <string>

#include "ge_base/checked_math.h"
#include "v2/topological_executor.h"

namespace ge::v2 {
namespace {

// Nodes Kahn's order left out each have a predecessor left out too, so
// walking back from one must come round a cycle; the error names it.
Status CycleError(size_t node_num, const std::vector<ExecEdge>& edges, const std::vector<bool>& ordered) {
  std::vector<uint32_t> pred(node_num, 0);
  uint32_t start = 0;
  for (const ExecEdge& e : edges)
    if (!ordered[e.from] && !ordered[e.to]) pred[e.to] = start = e.from;
  std::vector<bool> seen(node_num, false);
  uint32_t n = start;
  for (; !seen[n]; n = pred[n]) seen[n] = true;
  // n is on the cycle; walking back from it lists the cycle backwards.
  std::vector<uint32_t> cycle{n};
  for (uint32_t m = pred[n]; m != n; m = pred[m]) cycle.push_back(m);
  std::reverse(cycle.begin(), cycle.end());
  constexpr size_t kShown = 8;
  std::string path;
  for (size_t i = 0; i < cycle.size() && i < kShown; ++i) path += std::to_string(cycle[i]) + " -> ";
  path += cycle.size() > kShown ? "... -> " + std::to_string(cycle[0]) : std::to_string(cycle[0]);
  return InvalidArgument("topological plan: node " + std::to_string(cycle[0]) + " is on a cycle (" + path + ", " +
                         std::to_string(cycle.size()) + " nodes)");
}

Status CheckInputs(size_t node_num, const std::vector<ExecEdge>& edges, const std::vector<int64_t>& costs) {
  constexpr size_t kMaxIndex = std::numeric_limits<uint32_t>::max();
  if (node_num >= kMaxIndex || edges.size() >= kMaxIndex)
    return InvalidArgument("topological plan: " + std::to_string(node_num) + " nodes and " +
                           std::to_string(edges.size()) + " edges do not fit 32-bit indices");
  if (costs.size() != node_num)
    return InvalidArgument("topological plan: " + std::to_string(costs.size()) + " costs for " +
                           std::to_string(node_num) + " nodes");
  for (size_t i = 0; i < node_num; ++i)
    if (costs[i] < 0) return InvalidArgument("topological plan: node " + std::to_string(i) + " has a negative cost");
  for (size_t i = 0; i < edges.size(); ++i)
    if (edges[i].from >= node_num || edges[i].to >= node_num)
      return InvalidArgument("topological plan: edge " + std::to_string(i) + " (" + std::to_string(edges[i].from) +
                             " -> " + std::to_string(edges[i].to) + ") names a node beyond " +
                             std::to_string(node_num));
  return Status::Ok();
}

}  // namespace

Result<TopologicalPlan> BuildTopologicalPlan(size_t node_num, const std::vector<ExecEdge>& edges,
                                             const std::vector<int64_t>& costs) {
  GE_RETURN_IF_ERROR(CheckInputs(node_num, edges, costs));
  TopologicalPlan plan;
  plan.succ_begin.assign(node_num + 1, 0);
  plan.in_degree.assign(node_num, 0);
  for (const ExecEdge& e : edges) {
    ++plan.succ_begin[e.from + 1];
    ++plan.in_degree[e.to];
  }
  for (size_t i = 0; i < node_num; ++i) plan.succ_begin[i + 1] += plan.succ_begin[i];
  plan.succ.resize(edges.size());
  std::vector<uint32_t> cursor(plan.succ_begin.begin(), plan.succ_begin.end() - 1);
  for (const ExecEdge& e : edges) plan.succ[cursor[e.from]++] = e.to;

  // Kahn's order: a node joins once all its predecessors have.
  std::vector<uint32_t> order;
  order.reserve(node_num);
  std::vector<uint32_t> pending = plan.in_degree;
  for (uint32_t i = 0; i < node_num; ++i)
    if (pending[i] == 0) order.push_back(i);
  for (size_t k = 0; k < order.size(); ++k)
    for (uint32_t e = plan.succ_begin[order[k]]; e < plan.succ_begin[order[k] + 1]; ++e)
      if (--pending[plan.succ[e]] == 0) order.push_back(plan.succ[e]);
  if (order.size() < node_num) {
    std::vector<bool> ordered(node_num, false);
    for (uint32_t n : order) ordered[n] = true;
    return CycleError(node_num, edges, ordered);
  }

  // Priorities, sinks first: a node's cost plus its most expensive successor's.
  plan.priority.assign(node_num, 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    int64_t below = 0;
    for (uint32_t e = plan.succ_begin[*it]; e < plan.succ_begin[*it + 1]; ++e)
      below = std::max(below, plan.priority[plan.succ[e]]);
    const auto priority = CheckedAdd(costs[*it], below);
    if (!priority) return InvalidArgument("topological plan: node " + std::to_string(*it) + "'s path cost overflows");
    plan.priority[*it] = *priority;
  }
  return plan;
}

}  // namespace ge::v2
