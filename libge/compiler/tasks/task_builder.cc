#include "tasks/task_builder.h"

#include <map>

#include "ge/ops/memory_alias.h"
#include "ge/ops/kernel_spec.h"

namespace ge::tasks {
namespace {

using BufferIndex = std::map<std::pair<std::string, int32_t>, const BufferPlan*>;

BufferIndex IndexBuffers(const MemoryPlan& plan) {
  BufferIndex idx;
  for (const BufferPlan& b : plan.buffers) idx[{b.node, b.output}] = &b;
  return idx;
}

// A node that runs no kernel is correct only if the plan gave each output
// its aliased input's memory: the planner applies the same rule, so a
// difference is a bug, reported rather than compiled into a wrong model.
Status CheckAliases(const Node& n, const BufferIndex& idx) {
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const int k = AliasedInput(n, i);
    if (k < 0) continue;
    const Endpoint src = n.InputSource(k);
    auto in = idx.find({src.node->name(), src.index});
    auto out = idx.find({n.name(), static_cast<int32_t>(i)});
    if (in == idx.end() || out == idx.end() || in->second->symbol != out->second->symbol)
      return Internal("tasks: " + n.Label() + " output " + std::to_string(i) +
                      " aliases its input but the memory plan gives it memory of its own");
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<StreamTasks>> BuildTasks(const Graph& g, const MemoryPlan& plan) {
  std::map<std::string, Node*> by_name;
  for (Node* n : g.nodes()) by_name[n->name()] = n;
  StreamTasks stream;
  stream.stream = 0;
  for (const std::string& name : plan.order) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return Internal("tasks: the plan orders unknown node " + name);
    if (!RunsKernel(*it->second)) continue;
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
      if (!RunsKernel(n))
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
    const bool computes = RunsKernel(*n);
    if (!computes && !IsStructuralNode(*n)) GE_RETURN_IF_ERROR(CheckAliases(*n, idx));
    const int times = scheduled.count(n->name()) ? scheduled[n->name()] : 0;
    if (times != (computes ? 1 : 0))
      return Internal("tasks: the schedule runs " + n->Label() + " " + std::to_string(times) + " times");
  }
  return schedule;
}

}  // namespace ge::tasks
