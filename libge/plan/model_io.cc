#include "ge/model.h"

namespace ge {

void DescribeGraphIo(const Graph& graph, std::vector<IoDesc>& inputs, std::vector<IoDesc>& outputs) {
  inputs.clear();
  outputs.clear();
  for (Node* d : graph.InputNodes()) inputs.push_back({d->name(), d->output_desc(0)});
  Node* out = graph.OutputNode();
  if (!out) return;
  auto names = out->GetStrings("output_names");
  for (size_t i = 0; i < out->num_inputs(); ++i) {
    Endpoint src = out->InputSource(i);
    std::string name = i < names.size() ? names[i] : (src.valid() ? src.node->name() : "output" + std::to_string(i));
    outputs.push_back({name, src.valid() ? src.node->output_desc(src.index) : TensorDesc()});
  }
}

Model CopyModelInfo(const Model& m) {
  Model c;
  c.name = m.name;
  c.producer = m.producer;
  c.framework = m.framework;
  c.source_sha256 = m.source_sha256;
  c.target = m.target;
  c.options = m.options;
  return c;
}

void DescribeModelIo(Model& model) { DescribeGraphIo(*model.graph, model.inputs, model.outputs); }

const Node* FindNodeByPath(const Graph& graph, const std::string& path) {
  if (const Node* n = graph.FindNode(path)) return n;
  // Names may hold '/' themselves (TensorFlow's do): try every split.
  for (size_t p = path.find('/'); p != std::string::npos; p = path.find('/', p + 1)) {
    const Node* owner = graph.FindNode(path.substr(0, p));
    if (!owner) continue;
    const std::string rest = path.substr(p + 1);
    for (const auto& [name, sub] : owner->subgraphs())
      if (sub && rest.size() > name.size() + 1 && rest.compare(0, name.size() + 1, name + "/") == 0)
        if (const Node* n = FindNodeByPath(*sub, rest.substr(name.size() + 1))) return n;
  }
  return nullptr;
}

bool IsLinkedControlFlow(const Node& n) { return n.type() == "If" || n.type() == "Loop"; }

std::vector<std::string> LinkedSubgraphs(const Node& n) {
  if (n.type() == "If") return {"then_branch", "else_branch"};
  if (n.type() == "Loop") return {"body"};
  return {};
}

Result<Model> PartitionModel(const Model& root, size_t i) {
  if (i >= root.partitions.size() || !root.graph) return Internal("model " + root.name + " has no partition " + std::to_string(i));
  const SubgraphPlan& plan = root.partitions[i];
  const Node* call = root.dynamic ? root.graph->FindNode(plan.node) : FindNodeByPath(*root.graph, plan.node);
  const bool linked = !root.dynamic && call && IsLinkedControlFlow(*call);
  if (!call || (!linked && call->type() != op::kPartitionedCall && call->type() != op::kGearCase))
    return Corrupt("model " + root.name + ": partition " + std::to_string(i) + " names " + plan.node +
                   (root.dynamic ? ", which is not a PartitionedCall or GearCase node of the graph"
                                 : ", which is not an If or Loop node of the graph"));
  auto it = call->subgraphs().find(plan.subgraph);
  if (it == call->subgraphs().end() || !it->second)
    return Corrupt("model " + root.name + ": node " + call->Label() + " has no subgraph \"" + plan.subgraph + "\"");
  Model m = CopyModelInfo(root);
  m.name = root.name + "/" + plan.node + (plan.subgraph == "f" ? "" : "/" + plan.subgraph);
  m.graph = it->second->Clone();
  m.inputs = plan.inputs;
  m.outputs = plan.outputs;
  m.memory = plan.memory;
  m.streams = plan.streams;
  if (linked) {
    // The plans nested in this subgraph, named from it.
    const std::string prefix = plan.node + "/" + plan.subgraph + "/";
    for (const SubgraphPlan& p : root.partitions)
      if (p.node.size() > prefix.size() && p.node.compare(0, prefix.size(), prefix) == 0) {
        m.partitions.push_back(p);
        m.partitions.back().node = p.node.substr(prefix.size());
      }
  }
  return m;
}

std::vector<size_t> GearPartitions(const Model& root, const std::string& node) {
  std::vector<size_t> out;
  for (size_t i = 0; i < root.partitions.size(); ++i)
    if (root.partitions[i].node == node && root.partitions[i].subgraph == "gear" + std::to_string(out.size()))
      out.push_back(i);
  return out;
}

const Node* FindGearCase(const Model& model) {
  if (!model.dynamic || !model.graph) return nullptr;
  for (const Node* n : model.graph->nodes())
    if (n->type() == op::kGearCase) return n;
  return nullptr;
}

}  // namespace ge
