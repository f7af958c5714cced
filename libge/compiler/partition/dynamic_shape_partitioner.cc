#include "partition/dynamic_shape_partitioner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "ge/ops/kernel_spec.h"
#include "ge/ops/op_registry.h"

namespace ge::partition {
namespace {

// Clusters over the non-constant nodes, merged through a union-find whose
// representative keeps the cluster's type and edges. Cluster ids are the
// nodes' topological positions, so iterating ids is iterating in order.
class Partitioner {
 public:
  explicit Partitioner(const std::vector<Node*>& order) {
    for (Node* n : order)
      if (n->type() != op::kConst) {
        index_[n] = static_cast<int>(nodes_.size());
        nodes_.push_back(n);
      }
    const size_t count = nodes_.size();
    parent_.resize(count);
    std::iota(parent_.begin(), parent_.end(), 0);
    type_.resize(count);
    members_.resize(count);
    in_.resize(count);
    out_.resize(count);
    for (size_t i = 0; i < count; ++i) {
      Node* n = nodes_[i];
      members_[i] = {static_cast<int>(i)};
      type_[i] = n->type() == op::kData        ? ClusterType::kData
                 : n->type() == op::kNetOutput ? ClusterType::kNetOutput
                 : IsUnknownShapeNode(*n)      ? ClusterType::kUnknownShape
                                               : ClusterType::kKnownShape;
      auto link = [&](Node* src) {
        auto it = index_.find(src);
        if (it == index_.end() || it->second == static_cast<int>(i)) return;
        out_[it->second].insert(static_cast<int>(i));
        in_[i].insert(it->second);
      };
      for (size_t k = 0; k < n->num_inputs(); ++k)
        if (Node* src = n->InputNode(k)) link(src);
      for (Node* src : n->control_inputs()) link(src);
    }
  }

  void MergeUnknownShape() {
    for (int c = 0; c < size(); ++c) {
      if (Find(c) != c || type_[c] != ClusterType::kUnknownShape) continue;
      const std::set<int> inputs = in_[c];
      for (int in : inputs) {
        in = Find(in);
        if (in == c || type_[in] != ClusterType::kUnknownShape) continue;
        // Every cluster on a path in -> c: reachable from `in` and reaching c.
        const std::set<int> from = Reach(in, out_, -1), to = Reach(c, in_, -1);
        for (int x : from)
          if (x != c && to.count(x)) Merge(x, c);
      }
    }
  }

  void MergeKnownShape() {
    for (int c = 0; c < size(); ++c) {
      if (Find(c) != c || type_[c] != ClusterType::kKnownShape) continue;
      const std::set<int> inputs = in_[c];
      for (int in : inputs) {
        in = Find(in);
        if (in == c || type_[in] != ClusterType::kKnownShape) continue;
        // Another path in -> x -> ... -> c would become a cycle once merged.
        bool other_path = false;
        for (int x : out_[in])
          if (x != c && Reach(x, out_, -1).count(c)) {
            other_path = true;
            break;
          }
        if (!other_path) Merge(in, c);
      }
    }
  }

  void MergeInputData() {
    int first = -1;
    for (int c = 0; c < size(); ++c) {
      if (Find(c) != c || type_[c] != ClusterType::kData) continue;
      if (first < 0)
        first = c;
      else
        Merge(c, first);
    }
  }

  std::vector<Cluster> Prune() const {
    std::vector<Cluster> out;
    for (int c = 0; c < size(); ++c) {
      if (parent_[c] != c) continue;
      Cluster cl;
      cl.type = type_[c];
      std::vector<int> m = members_[c];
      std::sort(m.begin(), m.end());
      for (int i : m) cl.nodes.push_back(nodes_[i]);
      out.push_back(std::move(cl));
    }
    // Topological order of clusters: by their first node is not enough after
    // merges, so order by the cluster graph itself.
    return TopoSortClusters(std::move(out));
  }

 private:
  int size() const { return static_cast<int>(nodes_.size()); }
  int Find(int c) {
    while (parent_[c] != c) c = parent_[c] = parent_[parent_[c]];
    return c;
  }

  // Clusters reachable from c along `edges` (c included).
  std::set<int> Reach(int c, const std::vector<std::set<int>>& edges, int skip) {
    std::set<int> seen{c};
    std::vector<int> stack{c};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      for (int y : edges[x]) {
        y = Find(y);
        if (y == skip || !seen.insert(y).second) continue;
        stack.push_back(y);
      }
    }
    return seen;
  }

  // Moves cluster `from` into `into`; the merged type is `into`'s unless
  // `from` is unknown (unknown is infectious).
  void Merge(int from, int into) {
    from = Find(from);
    into = Find(into);
    if (from == into) return;
    parent_[from] = into;
    if (type_[from] == ClusterType::kUnknownShape) type_[into] = ClusterType::kUnknownShape;
    members_[into].insert(members_[into].end(), members_[from].begin(), members_[from].end());
    members_[from].clear();
    for (int x : in_[from]) {
      out_[x].erase(from);
      if (x != into) {
        out_[x].insert(into);
        in_[into].insert(x);
      }
    }
    for (int x : out_[from]) {
      in_[x].erase(from);
      if (x != into) {
        in_[x].insert(into);
        out_[into].insert(x);
      }
    }
    in_[into].erase(from);
    out_[into].erase(from);
    in_[from].clear();
    out_[from].clear();
  }

  std::vector<Cluster> TopoSortClusters(std::vector<Cluster> clusters) const {
    std::map<const Node*, size_t> owner;
    for (size_t i = 0; i < clusters.size(); ++i)
      for (Node* n : clusters[i].nodes) owner[n] = i;
    std::vector<std::set<size_t>> succ(clusters.size());
    std::vector<int> indegree(clusters.size(), 0);
    for (size_t i = 0; i < clusters.size(); ++i)
      for (Node* n : clusters[i].nodes) {
        std::vector<Node*> srcs = n->control_inputs();
        for (size_t k = 0; k < n->num_inputs(); ++k)
          if (Node* s = n->InputNode(k)) srcs.push_back(s);
        for (Node* s : srcs) {
          auto it = owner.find(s);
          if (it == owner.end() || it->second == i) continue;
          if (succ[it->second].insert(i).second) ++indegree[i];
        }
      }
    std::vector<Cluster> sorted;
    std::set<size_t> ready;  // by first node position: deterministic
    for (size_t i = 0; i < clusters.size(); ++i)
      if (indegree[i] == 0) ready.insert(i);
    while (!ready.empty()) {
      size_t i = *ready.begin();
      ready.erase(ready.begin());
      for (size_t j : succ[i])
        if (--indegree[j] == 0) ready.insert(j);
      sorted.push_back(std::move(clusters[i]));
    }
    return sorted;  // the merge rules never form a cycle, so nothing is left over
  }

  std::vector<Node*> nodes_;
  std::map<const Node*, int> index_;
  std::vector<int> parent_;
  std::vector<ClusterType> type_;
  std::vector<std::vector<int>> members_;
  std::vector<std::set<int>> in_, out_;
};

bool RunsKernel(const std::vector<Node*>& nodes) {
  return std::any_of(nodes.begin(), nodes.end(), [](const Node* n) { return !IsStructuralNode(*n); });
}

// Moves one known-shape cluster of `g` into a PartitionedCall node.
Status Extract(Graph& g, const Cluster& cluster, const std::string& name) {
  const std::set<const Node*> inside(cluster.nodes.begin(), cluster.nodes.end());
  auto sub = std::make_shared<Graph>(name);

  // Inputs: values produced outside (constants excepted), in first-use order.
  std::vector<Endpoint> inputs;
  std::vector<Node*> input_nodes;  // the subgraph's Data node of each
  std::map<std::pair<const Node*, int>, int> input_index;
  std::map<const Node*, Node*> copy;
  for (Node* n : cluster.nodes) copy[n] = sub->AddNodeCopy(*n);
  for (Node* n : cluster.nodes)
    for (size_t k = 0; k < n->num_inputs(); ++k) {
      Endpoint src = n->InputSource(k);
      if (!src.valid()) continue;
      Node* from = nullptr;
      int from_index = src.index;
      if (inside.count(src.node)) {
        from = copy[src.node];
      } else if (src.node->type() == op::kConst) {
        if (!copy.count(src.node)) copy[src.node] = sub->AddNodeCopy(*src.node);
        from = copy[src.node];
      } else {
        auto key = std::make_pair(static_cast<const Node*>(src.node), src.index);
        auto it = input_index.find(key);
        if (it == input_index.end()) {
          const int i = static_cast<int>(inputs.size());
          Node* data = sub->AddNode(op::kData, sub->MakeUniqueName(name + "_input" + std::to_string(i)), 0, 1);
          data->SetAttr("index", AttrValue(int64_t{i}));
          data->output_desc(0) = src.node->output_desc(src.index);
          it = input_index.emplace(key, i).first;
          inputs.push_back(src);
          input_nodes.push_back(data);
        }
        from = input_nodes[it->second];
        from_index = 0;
      }
      GE_RETURN_IF_ERROR(sub->AddEdge(from, from_index, copy[n], static_cast<int>(k)));
    }
  for (Node* n : cluster.nodes)
    for (Node* c : n->control_inputs())
      if (inside.count(c)) sub->AddControlEdge(copy[c], copy[n]);

  // Outputs: values read outside, in producer order.
  std::vector<Endpoint> outputs;
  for (Node* n : cluster.nodes)
    for (size_t j = 0; j < n->num_outputs(); ++j)
      for (const Endpoint& use : n->OutputConsumers(j))
        if (!inside.count(use.node)) {
          outputs.push_back(Endpoint{n, static_cast<int>(j)});
          break;
        }
  Node* net = sub->AddNode(op::kNetOutput, sub->MakeUniqueName(name + "_output"), outputs.size(), 0);
  for (size_t j = 0; j < outputs.size(); ++j)
    GE_RETURN_IF_ERROR(sub->AddEdge(copy[outputs[j].node], outputs[j].index, net, static_cast<int>(j)));

  // The call node takes the cluster's place.
  Node* call = g.AddNode(op::kPartitionedCall, name, inputs.size(), outputs.size());
  for (size_t j = 0; j < outputs.size(); ++j) call->output_desc(j) = outputs[j].node->output_desc(outputs[j].index);
  for (size_t i = 0; i < inputs.size(); ++i) {
    call->input_desc(i) = inputs[i].node->output_desc(inputs[i].index);
    GE_RETURN_IF_ERROR(g.AddEdge(inputs[i].node, inputs[i].index, call, static_cast<int>(i)));
  }
  for (size_t j = 0; j < outputs.size(); ++j) {
    std::vector<Endpoint> outside;
    for (const Endpoint& use : outputs[j].node->OutputConsumers(outputs[j].index))
      if (!inside.count(use.node)) outside.push_back(use);
    for (const Endpoint& use : outside) {
      g.RemoveInputEdge(use.node, use.index);
      GE_RETURN_IF_ERROR(g.AddEdge(call, static_cast<int>(j), use.node, use.index));
    }
  }
  std::set<Node*> ctrl_in, ctrl_out;
  for (Node* n : cluster.nodes) {
    for (Node* c : n->control_inputs())
      if (!inside.count(c)) ctrl_in.insert(c);
    for (Node* c : n->control_outputs())
      if (!inside.count(c)) ctrl_out.insert(c);
  }
  for (Node* c : ctrl_in) g.AddControlEdge(c, call);
  for (Node* c : ctrl_out) g.AddControlEdge(call, c);
  call->subgraphs()["f"] = sub;
  for (Node* n : cluster.nodes) g.RemoveNode(n);
  return Status::Ok();
}

}  // namespace

const char* ClusterTypeName(ClusterType t) {
  switch (t) {
    case ClusterType::kData: return "DATA";
    case ClusterType::kKnownShape: return "KNOWN_SHAPE";
    case ClusterType::kUnknownShape: return "UNKNOWN_SHAPE";
    case ClusterType::kNetOutput: return "NETOUTPUT";
  }
  return "?";
}

bool IsUnknownShapeNode(const Node& n) {
  if (n.type() == op::kConst) return false;
  for (size_t i = 0; i < n.num_outputs(); ++i)
    if (!n.output_desc(i).is_static()) return true;
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    Endpoint src = n.InputSource(i);
    if (src.valid() && !src.node->output_desc(src.index).is_static()) return true;
  }
  const OpDef* def = OpRegistry::Global().Find(n.type());
  return def && def->computed_shape;
}

bool IsStaticGraph(const Graph& g, const NodeTest& static_control_flow) {
  for (Node* n : g.nodes())
    if (IsUnknownShapeNode(*n) && !(static_control_flow && static_control_flow(*n))) return false;
  return true;
}

Result<std::vector<Cluster>> ComputeClusters(const Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  Partitioner p(order);
  p.MergeUnknownShape();
  p.MergeKnownShape();
  p.MergeInputData();
  return p.Prune();
}

Result<int> PartitionDynamicShapes(Graph& g) {
  GE_ASSIGN_OR_RETURN(std::vector<Cluster> clusters, ComputeClusters(g));
  int count = 0;
  for (const Cluster& c : clusters) {
    if (c.type != ClusterType::kKnownShape || !RunsKernel(c.nodes)) continue;
    GE_RETURN_IF_ERROR(Extract(g, c, g.MakeUniqueName("partitioned_call_" + std::to_string(count))));
    ++count;
  }
  // Constants only the clusters read now have no consumer in the root.
  for (Node* n : g.nodes())
    if (n->type() == op::kConst && n->OutNodes().empty() && n->control_outputs().empty()) g.RemoveNode(n);
  return count;
}

}  // namespace ge::partition
