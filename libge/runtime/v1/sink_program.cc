#include "runtime/v1/sink_program.h"

#include <cstring>
#include <map>

#include <spdlog/spdlog.h>

#include "compiler/memory/memory_planner.h"
#include "compiler/tasks/task_builder.h"
#include "hal/device.h"
#include "ops/kernel_spec.h"

namespace ge::v1 {
namespace {

hal::ModelTask::Kind KindOf(Task::Kind k) {
  switch (k) {
    case Task::Kind::kEventRecord: return hal::ModelTask::Kind::kEventRecord;
    case Task::Kind::kEventWait: return hal::ModelTask::Kind::kEventWait;
    default: return hal::ModelTask::Kind::kKernel;
  }
}

// A task's arguments must match its kernel's arity and lie inside their
// segments: a kernel trusts both, so a bad .om must stop here, not crash.
Status CheckArgs(const Task& t, const hal::KernelSpec& spec, const MemoryPlan& plan) {
  if (t.inputs.size() != spec.inputs.size() || t.outputs.size() != spec.outputs.size())
    return Corrupt("task has " + std::to_string(t.inputs.size()) + " inputs / " + std::to_string(t.outputs.size()) +
                   " outputs, the node " + std::to_string(spec.inputs.size()) + " / " + std::to_string(spec.outputs.size()));
  auto inside = [&](const TaskArg& a, const hal::TensorInfo& info) -> Status {
    if (a.offset < 0) return Status::Ok();
    const int64_t size = a.segment == Segment::kWeights      ? plan.weights_size
                         : a.segment == Segment::kFeatureMap ? plan.feature_map_size
                         : a.segment == Segment::kInput      ? plan.input_size
                         : a.segment == Segment::kOutput     ? plan.output_size
                                                             : -1;
    if (size < 0) return Corrupt("argument in unknown segment " + std::to_string(static_cast<int>(a.segment)));
    const int64_t bytes = info.present() ? static_cast<int64_t>(info.Bytes()) : 0;
    if (a.offset > size || bytes > size - a.offset)
      return Corrupt(std::string("argument [") + std::to_string(a.offset) + ", +" + std::to_string(bytes) +
                     ") is outside its " + SegmentName(a.segment) + " segment of " + std::to_string(size) + " bytes");
    return Status::Ok();
  };
  for (size_t i = 0; i < t.inputs.size(); ++i) GE_RETURN_IF_ERROR(inside(t.inputs[i], spec.inputs[i]));
  for (size_t i = 0; i < t.outputs.size(); ++i) {
    if (t.outputs[i].offset < 0) return Corrupt("output " + std::to_string(i) + " has no address");
    GE_RETURN_IF_ERROR(inside(t.outputs[i], spec.outputs[i]));
  }
  return Status::Ok();
}

// Phase 1: the plan (planned here only for a model that never was), task
// lists flattened per stream, event count = max event id + 1, kernel specs.
Status InitRuntimeParams(const Model& model, const SinkOptions& options, SinkProgram& p) {
  if (!model.graph) return Internal("sink: model without a graph");
  p.name = model.name;
  p.inputs = model.inputs;
  p.outputs = model.outputs;
  p.options = options;
  p.kernels = options.kernels ? options.kernels : &hal::CpuDevice().kernels();
  std::vector<StreamTasks> planned;
  const std::vector<StreamTasks>* streams = &model.streams;
  if (model.memory.empty()) {
    spdlog::debug("sink: model {} has no memory plan, planning at load", model.name);
    GE_ASSIGN_OR_RETURN(p.plan, memory::PlanMemory(*model.graph, memory::PlanOptions{}));
    GE_ASSIGN_OR_RETURN(planned, tasks::BuildTasks(*model.graph, p.plan));
    streams = &planned;
  } else {
    p.plan = model.memory;
  }
  if (p.plan.inputs.size() != p.inputs.size() || p.plan.outputs.size() != p.outputs.size())
    return Corrupt("sink: the memory plan has " + std::to_string(p.plan.inputs.size()) + " inputs / " +
                   std::to_string(p.plan.outputs.size()) + " outputs, the model " + std::to_string(p.inputs.size()) +
                   " / " + std::to_string(p.outputs.size()));

  // Callers size their buffers by the IO descriptions: they must be what the plan binds.
  for (size_t i = 0; i < p.inputs.size(); ++i)
    if (p.plan.inputs[i].size != p.inputs[i].desc.Bytes())
      return Corrupt("sink: input " + std::to_string(i) + " (" + p.inputs[i].name + ") is described as " +
                     p.inputs[i].desc.ToString() + " but the graph binds " + std::to_string(p.plan.inputs[i].size) + " bytes");
  for (size_t i = 0; i < p.outputs.size(); ++i)
    if (p.plan.outputs[i].size != p.outputs[i].desc.Bytes())
      return Corrupt("sink: output " + std::to_string(i) + " (" + p.outputs[i].name + ") is described as " +
                     p.outputs[i].desc.ToString() + " but the graph binds " + std::to_string(p.plan.outputs[i].size) + " bytes");

  std::map<std::string, const Node*> by_name;
  for (const Node* n : model.graph->nodes()) by_name[n->name()] = n;
  for (const StreamTasks& st : *streams) {
    std::vector<SinkTask> list;
    list.reserve(st.tasks.size());
    for (const Task& t : st.tasks) {
      SinkTask s;
      s.kind = KindOf(t.kind);
      if (s.kind != hal::ModelTask::Kind::kKernel) {
        if (t.event < 0) return Corrupt("sink: stream " + std::to_string(st.stream) + ": event task without an event id");
        s.event = t.event;
        p.num_events = std::max(p.num_events, t.event + 1);
      } else {
        auto it = by_name.find(t.node);
        if (it == by_name.end()) return Corrupt("sink: task for unknown node " + t.node);
        s.kernel = static_cast<int32_t>(p.specs.size());
        p.specs.push_back(BuildKernelSpec(*it->second));
        GE_RETURN_IF_ERROR(CheckArgs(t, p.specs.back(), p.plan).Annotated("sink: node " + it->second->Label()));
        p.labels.push_back(it->second->Label());
        s.in_begin = static_cast<uint32_t>(p.in_args.size());
        s.in_count = static_cast<uint32_t>(t.inputs.size());
        s.out_begin = static_cast<uint32_t>(p.out_args.size());
        s.out_count = static_cast<uint32_t>(t.outputs.size());
        p.in_args.insert(p.in_args.end(), t.inputs.begin(), t.inputs.end());
        p.out_args.insert(p.out_args.end(), t.outputs.begin(), t.outputs.end());
      }
      list.push_back(s);
      ++p.num_tasks;
    }
    p.streams.push_back(std::move(list));
  }
  spdlog::debug("sink InitRuntimeParams: {} streams, {} tasks ({} kernels), {} events; weights {} B, feature map {} B, io {} + {} B",
                p.streams.size(), p.num_tasks, p.specs.size(), p.num_events, p.plan.weights_size,
                p.plan.feature_map_size, p.plan.input_size, p.plan.output_size);
  return Status::Ok();
}

// Phase 2: the weights segment, every constant at its plan offset; kernels
// see their constant inputs there (const_inputs) and may pre-pack them.
Status InitWeightMem(const Model& model, SinkProgram& p) {
  GE_ASSIGN_OR_RETURN(hal::DeviceBuffer w, hal::DeviceBuffer::Allocate(std::max<int64_t>(p.plan.weights_size, 1)));
  p.weights = std::make_shared<hal::DeviceBuffer>(std::move(w));
  std::map<std::string, const Node*> by_name;
  for (const Node* n : model.graph->nodes()) by_name[n->name()] = n;
  size_t copied = 0;
  for (const BufferPlan& b : p.plan.buffers) {
    if (b.segment != Segment::kWeights) continue;
    auto it = by_name.find(b.node);
    if (it == by_name.end() || it->second->type() != op::kConst) continue;  // a Reshape of a constant shares it
    const Tensor* t = it->second->GetTensor("value");
    if (!t || static_cast<int64_t>(t->size()) != b.size || b.offset < 0 || b.offset + b.size > p.plan.weights_size)
      return Corrupt("sink: constant " + b.node + " does not match its plan");
    if (t->size()) std::memcpy(p.WeightAddress(b.offset), t->data(), t->size());
    copied += t->size();
  }
  // Constant inputs of every kernel, for pre-packing at InitNodes.
  size_t k = 0;
  for (const auto& stream : p.streams)
    for (const SinkTask& t : stream) {
      if (t.kind != hal::ModelTask::Kind::kKernel) continue;
      hal::KernelSpec& spec = p.specs[k++];
      spec.const_inputs.clear();
      for (uint32_t a = 0; a < t.in_count; ++a) {
        const TaskArg& arg = p.in_args[t.in_begin + a];
        const bool w = arg.offset >= 0 && arg.segment == Segment::kWeights;
        spec.const_inputs.push_back(w ? p.WeightAddress(arg.offset) : nullptr);
      }
    }
  spdlog::debug("sink InitWeightMem: {} B of constants into a {} B weights segment", copied, p.plan.weights_size);
  return Status::Ok();
}

}  // namespace

Result<std::shared_ptr<const SinkProgram>> BuildSinkProgram(const Model& model, const SinkOptions& options) {
  auto p = std::make_shared<SinkProgram>();
  GE_RETURN_IF_ERROR(InitRuntimeParams(model, options, *p));
  GE_RETURN_IF_ERROR(InitWeightMem(model, *p));
  // Only the segment sizes and IO bindings are needed from here on.
  p->plan.buffers = {};
  p->plan.order = {};
  return std::shared_ptr<const SinkProgram>(std::move(p));
}

}  // namespace ge::v1
