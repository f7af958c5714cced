#include "common/hal_model.h"

#include <algorithm>
#include <string>

namespace ge::rt {

TaskLists StreamTaskLists(const Program& p) {
  TaskLists lists(p.streams.size());
  for (size_t s = 0; s < p.streams.size(); ++s)
    for (const ProgramTask& t : p.streams[s]) lists[s].push_back(&t);
  return lists;
}

Result<TaskLists> HostTaskList(const Program& p) {
  if (p.num_labels > 0) {
    // The linker puts a model's control flow on one stream (ge/plan/link.h).
    if (p.streams.size() != 1)
      return Internal("v2: a model with label tasks on " + std::to_string(p.streams.size()) + " streams");
    return StreamTaskLists(p);
  }
  std::vector<const ProgramTask*> tasks;
  for (const auto& stream : p.streams)
    for (const ProgramTask& t : stream) {
      if (t.kind != hal::ModelTask::Kind::kKernel) continue;
      if (p.streams.size() > 1 && p.steps[t.kernel] < 0)
        return Internal("v2: task for node " + p.labels[t.kernel] + " outside the plan's order");
      tasks.push_back(&t);
    }
  if (p.streams.size() > 1)
    std::stable_sort(tasks.begin(), tasks.end(), [&](const ProgramTask* a, const ProgramTask* b) {
      return p.steps[a->kernel] < p.steps[b->kernel];
    });
  return TaskLists{std::move(tasks)};
}

namespace {

hal::ModelTask ResolveHalTask(const Program& p, const ProgramTask& t, const InstanceMemory& mem,
                              const std::vector<std::unique_ptr<hal::Kernel>>& kernels) {
  hal::ModelTask m;
  m.kind = t.kind;
  m.event = t.event;
  m.label = t.label;
  if (t.kind == hal::ModelTask::Kind::kLabelSwitch) {
    m.labels = p.switch_labels.data() + t.labels_begin;
    m.num_labels = static_cast<int32_t>(t.labels_count);
    m.inputs = t.in_count == 1 ? mem.inputs(t) : nullptr;  // the index; the HAL refuses a switch without one
  } else if (t.kind == hal::ModelTask::Kind::kKernel) {
    m.kernel = kernels[t.kernel].get();
    m.inputs = mem.inputs(t);
    m.outputs = mem.outputs(t);
  }
  return m;
}

std::string TaskProfileName(const Program& p, const ProgramTask& t) {
  switch (t.kind) {
    case hal::ModelTask::Kind::kKernel: return p.labels[t.kernel];
    case hal::ModelTask::Kind::kEventRecord: return "record event " + std::to_string(t.event);
    case hal::ModelTask::Kind::kEventWait: return "wait event " + std::to_string(t.event);
    case hal::ModelTask::Kind::kLabelSet: return "label set " + std::to_string(t.label);
    case hal::ModelTask::Kind::kLabelGoto: return "label goto " + std::to_string(t.label);
    case hal::ModelTask::Kind::kLabelSwitch: return "label switch";
  }
  return "task";
}

std::string TaskProfileKernel(const Program& p, const ProgramTask& t) {
  if (t.kind == hal::ModelTask::Kind::kKernel) return p.specs[t.kernel].op;
  if (t.kind == hal::ModelTask::Kind::kEventRecord || t.kind == hal::ModelTask::Kind::kEventWait) return "event";
  return "label";
}

}  // namespace

Result<std::unique_ptr<hal::Model>> CreateHalModel(const Program& p, const TaskLists& lists, const InstanceMemory& mem,
                                                   const std::vector<std::unique_ptr<hal::Kernel>>& kernels,
                                                   bool profile) {
  hal::ModelDesc desc;
  desc.num_events = p.num_events;
  desc.num_labels = p.num_labels;
  desc.streams.resize(lists.size());
  for (size_t s = 0; s < lists.size(); ++s) {
    desc.streams[s].reserve(lists[s].size());
    for (const ProgramTask* t : lists[s]) desc.streams[s].push_back(ResolveHalTask(p, *t, mem, kernels));
  }
  GE_ASSIGN_OR_RETURN(auto model, p.device->CreateModel(std::move(desc)));
  if (profile) model->EnableTiming(true);
  return model;
}

std::vector<TaskProfile> ProfileTasks(const Program& p, const TaskLists& lists, const hal::Model& model) {
  std::vector<TaskProfile> out;
  const auto& times = model.timings();
  if (times.empty()) return out;
  for (size_t s = 0; s < lists.size(); ++s)
    for (size_t i = 0; i < lists[s].size(); ++i) {
      const ProgramTask& t = *lists[s][i];
      TaskProfile tp;
      tp.stream = static_cast<int32_t>(s);
      tp.event = t.event;
      tp.name = TaskProfileName(p, t);
      tp.kernel = TaskProfileKernel(p, t);
      if (s < times.size() && i < times[s].size()) {
        tp.begin_ns = times[s][i].begin_ns;
        tp.end_ns = times[s][i].end_ns;
      }
      out.push_back(std::move(tp));
    }
  return out;
}

}  // namespace ge::rt
