#include "tf_graph_index.h"

#include <queue>
#include <unordered_set>

#include "tf_attrs.h"

namespace ge::tf_parser {

Result<TfInputRef> ParseInputRef(const std::string& s) {
  TfInputRef r;
  std::string rest = s;
  if (!rest.empty() && rest[0] == '^') {
    r.control = true;
    rest = rest.substr(1);
  }
  const size_t colon = rest.rfind(':');
  if (colon != std::string::npos && !r.control) {
    const std::string k = rest.substr(colon + 1);
    if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos)
      return InvalidArgument("'" + s + "' is not an input reference (\"name\", \"name:k\" or \"^name\")");
    r.index = std::stoi(k);
    rest = rest.substr(0, colon);
  }
  if (rest.empty() || rest.find_first_of(":^") != std::string::npos)
    return InvalidArgument("'" + s + "' is not an input reference (\"name\", \"name:k\" or \"^name\")");
  r.node = rest;
  return r;
}

Result<TfGraphIndex> TfGraphIndex::Build(const tf::GraphDef& graph) {
  TfGraphIndex idx;
  idx.graph_ = &graph;
  for (int i = 0; i < graph.node_size(); ++i) {
    const tf::NodeDef& n = graph.node(i);
    if (n.name().empty()) return InvalidArgument("node " + std::to_string(i) + " (" + n.op() + ") has no name");
    if (n.op().empty()) return InvalidArgument("node '" + n.name() + "' has no op");
    if (!idx.by_name_.emplace(n.name(), i).second)
      return InvalidArgument("two nodes are named '" + n.name() + "'");
  }
  idx.inputs_.resize(graph.node_size());
  for (int i = 0; i < graph.node_size(); ++i) {
    const tf::NodeDef& n = graph.node(i);
    for (int k = 0; k < n.input_size(); ++k) {
      auto ref = ParseInputRef(n.input(k));
      if (!ref.ok()) return NodeError(n, "input " + std::to_string(k) + ": " + ref.status().message());
      if (!idx.by_name_.count(ref->node))
        return NodeError(n, "input " + std::to_string(k) + " '" + n.input(k) + "' names no node of the graph");
      if (!ref->control && !idx.inputs_[i].empty() && idx.inputs_[i].back().control)
        return NodeError(n, "data input '" + n.input(k) + "' follows a control input; control inputs come last");
      idx.inputs_[i].push_back(*ref);
    }
  }
  return idx;
}

const tf::NodeDef* TfGraphIndex::Find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &graph_->node(it->second);
}

const std::vector<TfInputRef>& TfGraphIndex::Inputs(const tf::NodeDef& n) const { return inputs_[Position(n)]; }

Result<std::vector<TfInputRef>> TfGraphIndex::Outputs(const std::vector<std::string>& out_nodes) const {
  std::vector<TfInputRef> outs;
  if (!out_nodes.empty()) {
    for (const std::string& s : out_nodes) {
      auto ref = ParseInputRef(s);
      if (!ref.ok() || ref->control)
        return InvalidArgument("--out_nodes: '" + s + "' is not \"name\" or \"name:k\"");
      if (!Find(ref->node)) return InvalidArgument("--out_nodes: '" + s + "' names no node of the graph");
      outs.push_back(*ref);
    }
    return outs;
  }
  std::unordered_set<std::string> consumed;
  for (const auto& ins : inputs_)
    for (const TfInputRef& r : ins) consumed.insert(r.node);
  for (const tf::NodeDef& n : graph_->node()) {
    if (consumed.count(n.name()) || n.op() == "Const" || n.op() == "Placeholder" || n.op() == "NoOp") continue;
    outs.push_back(TfInputRef{n.name(), 0, false});
  }
  if (outs.empty()) return InvalidArgument("the graph has no outputs (every node is consumed); name them with --out_nodes");
  return outs;
}

std::vector<const tf::NodeDef*> TfGraphIndex::DependenciesOf(const std::vector<TfInputRef>& outputs) const {
  std::vector<bool> seen(graph_->node_size(), false);
  std::vector<int> stack;
  for (const TfInputRef& o : outputs) stack.push_back(by_name_.at(o.node));
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (seen[i]) continue;
    seen[i] = true;
    for (const TfInputRef& r : inputs_[i]) stack.push_back(by_name_.at(r.node));
  }
  std::vector<const tf::NodeDef*> nodes;
  for (int i = 0; i < graph_->node_size(); ++i)
    if (seen[i]) nodes.push_back(&graph_->node(i));
  return nodes;
}

Result<std::vector<const tf::NodeDef*>> TfGraphIndex::TopologicalOrder(
    const std::vector<const tf::NodeDef*>& nodes) const {
  // Kahn's algorithm; the ready set is a min-heap of GraphDef positions.
  std::unordered_map<int, int> pending;  // position -> inputs not yet placed
  std::unordered_map<int, std::vector<int>> consumers;
  for (const tf::NodeDef* n : nodes) {
    const int i = Position(*n);
    std::unordered_set<int> srcs;
    for (const TfInputRef& r : inputs_[i]) srcs.insert(by_name_.at(r.node));
    pending[i] = static_cast<int>(srcs.size());
    for (int s : srcs) consumers[s].push_back(i);
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (const auto& [i, count] : pending)
    if (count == 0) ready.push(i);
  std::vector<const tf::NodeDef*> order;
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(&graph_->node(i));
    for (int c : consumers[i])
      if (--pending[c] == 0) ready.push(c);
  }
  if (order.size() != nodes.size()) {
    for (const tf::NodeDef* n : nodes)
      if (pending[Position(*n)] > 0)
        return NodeUnsupported(*n, "lies on a cycle; TensorFlow control flow (while loops) is not supported");
  }
  return order;
}

}  // namespace ge::tf_parser
