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
  const BufferIndex idx = IndexBuffers(plan);
  std::map<std::string, Node*> by_name;
  for (Node* n : g.nodes()) by_name[n->name()] = n;
  StreamTasks stream;
  stream.stream = 0;
  int32_t kernel = 0;
  for (const std::string& name : plan.order) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return Internal("tasks: the plan orders unknown node " + name);
    const Node& n = *it->second;
    if (IsStructuralNode(n) || AliasOnly(n, idx)) continue;
    Task t;
    t.kind = Task::Kind::kKernel;
    t.node = n.name();
    t.kernel = kernel++;
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
    stream.tasks.push_back(std::move(t));
  }
  return std::vector<StreamTasks>{std::move(stream)};
}

}  // namespace ge::tasks
