#include "compiler/tasks/task_builder.h"

#include <map>

#include "ge/ops/op_registry.h"
#include "ops/kernel_spec.h"

namespace ge::tasks {
namespace {

using BufferIndex = std::map<std::pair<std::string, int32_t>, const BufferPlan*>;

BufferIndex IndexBuffers(const MemoryPlan& plan) {
  BufferIndex idx;
  for (const BufferPlan& b : plan.buffers) idx[{b.node, b.output}] = &b;
  return idx;
}

// Only reference outputs (Reshape, Identity ...) make a no-op: an in-place
// op shares its input's symbol too, but it computes.
bool AliasOnly(const Node& n, const BufferIndex& idx) {
  const OpDef* def = OpRegistry::Global().Find(n.type());
  if (!def || n.num_outputs() == 0 || def->memory.reference_outputs.size() < n.num_outputs()) return false;
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const int k = def->memory.reference_outputs[i];
    if (k < 0 || static_cast<size_t>(k) >= n.num_inputs() || !n.HasInput(k)) return false;
    Endpoint src = n.InputSource(k);
    auto in = idx.find({src.node->name(), src.index});
    auto out = idx.find({n.name(), static_cast<int32_t>(i)});
    if (in == idx.end() || out == idx.end() || in->second->symbol != out->second->symbol) return false;
  }
  return true;
}

}  // namespace

bool IsAliasOnly(const Node& n, const MemoryPlan& plan) { return AliasOnly(n, IndexBuffers(plan)); }

Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan) {
  std::map<std::string, Node*> by_name;
  for (Node* n : g.nodes()) by_name[n->name()] = n;
  const BufferIndex idx = IndexBuffers(plan);
  StreamTasks stream;
  stream.stream = 0;
  for (const std::string& name : plan.order) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return Internal("tasks: the plan orders unknown node " + name);
    if (IsStructuralNode(*it->second) || AliasOnly(*it->second, idx)) continue;
    Task t;
    t.node = name;
    stream.tasks.push_back(std::move(t));
  }
  return BuildTasks(g, plan, std::vector<StreamTasks>{std::move(stream)});
}

Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan, std::vector<StreamTasks> schedule) {
  const BufferIndex idx = IndexBuffers(plan);
  std::map<std::string, Node*> by_name;
  for (Node* n : g.nodes()) by_name[n->name()] = n;
  std::map<std::string, int> scheduled;
  int32_t kernel = 0;
  for (StreamTasks& stream : schedule)
    for (Task& t : stream.tasks) {
      if (t.kind != Task::Kind::kKernel) continue;
      auto it = by_name.find(t.node);
      if (it == by_name.end()) return Internal("tasks: the schedule names unknown node " + t.node);
      const Node& n = *it->second;
      if (IsStructuralNode(n) || AliasOnly(n, idx))
        return Internal("tasks: the schedule runs " + n.Label() + ", which computes nothing in the memory plan");
      ++scheduled[t.node];
      t.kernel = kernel++;
      t.inputs.clear();
      t.outputs.clear();
      for (size_t i = 0; i < n.num_inputs(); ++i) {
        if (!n.HasInput(i)) {
          t.inputs.push_back(TaskArg{Segment::kFeatureMap, -1});
          continue;
        }
        Endpoint src = n.InputSource(i);
        auto b = idx.find({src.node->name(), src.index});
        if (b == idx.end()) return Internal("tasks: no buffer for input " + std::to_string(i) + " of " + n.Label());
        t.inputs.push_back(TaskArg{b->second->segment, b->second->offset});
      }
      for (size_t i = 0; i < n.num_outputs(); ++i) {
        auto b = idx.find({n.name(), static_cast<int32_t>(i)});
        if (b == idx.end()) return Internal("tasks: no buffer for output " + std::to_string(i) + " of " + n.Label());
        t.outputs.push_back(TaskArg{b->second->segment, b->second->offset});
      }
    }
  for (Node* n : g.nodes()) {
    const bool computes = !IsStructuralNode(*n) && !AliasOnly(*n, idx);
    const int times = scheduled.count(n->name()) ? scheduled[n->name()] : 0;
    if (times != (computes ? 1 : 0))
      return Internal("tasks: the schedule runs " + n->Label() + " " + std::to_string(times) + " times");
  }
  return schedule;
}

}  // namespace ge::tasks
