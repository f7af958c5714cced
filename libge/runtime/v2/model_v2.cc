// Runtime v2: lowering a Model into an ExecuteGraph and running it.
//
// Load = lower, then run Init (weights segment, feature map, kernels created
// once with their constant inputs). Execute = copy inputs in, run Main (the
// sequential executor over pre-bound kernel launches), copy outputs out.
// Unload = DeInit. Memory comes from the model's plan: one weights block,
// one feature-map block (buffers reused as planned), and the user's own
// input/output buffers bound zero-copy.
#include <algorithm>
#include <cstring>
#include <map>

#include <spdlog/spdlog.h>

#include "compiler/memory/memory_planner.h"
#include "compiler/tasks/task_builder.h"
#include "ge/runtime.h"
#include "hal/device.h"
#include "ops/kernel_spec.h"
#include "runtime/v2/execute_graph.h"

namespace ge::v2 {
namespace {

// The context of one Main-graph node.
struct KernelLaunch {
  hal::Kernel* kernel;
  const void* const* inputs;
  void* const* outputs;
  const std::string* label;
  Status* error;
};

int LaunchKernel(void* context) {
  auto* c = static_cast<KernelLaunch*>(context);
  Status s = c->kernel->Run(c->inputs, c->outputs);
  if (s.ok()) return 0;
  *c->error = s.Annotated("node " + *c->label);
  return 1;
}

// A kernel argument that points into a user's buffer: refreshed on every
// Execute (zero-copy IO).
struct IoPatch {
  bool output_arg;  // patches out_args_ (else in_args_)
  size_t arg;       // index into in_args_ / out_args_
  Segment segment;  // kInput or kOutput
  size_t io;        // which user buffer
  int64_t delta;    // offset inside it
};

class ModelV2 final : public LoadedModel {
 public:
  ~ModelV2() override {
    for (auto it = graph_.deinit.rbegin(); it != graph_.deinit.rend(); ++it) (*it)();
  }

  Status Load(const Model& model) {
    inputs_ = model.inputs;
    outputs_ = model.outputs;
    if (model.memory.empty()) {
      // A model that was never planned (built in memory, or an older .om):
      // plan it with the compiler's defaults.
      spdlog::debug("v2: model {} has no memory plan, planning at load", model.name);
      GE_ASSIGN_OR_RETURN(plan_, memory::PlanMemory(*model.graph, memory::PlanOptions{}));
      GE_ASSIGN_OR_RETURN(streams_, tasks::BuildTasks(*model.graph, plan_));
    } else {
      plan_ = model.memory;
      streams_ = model.streams;
    }
    GE_RETURN_IF_ERROR(Lower(model));
    for (auto& step : graph_.init) GE_RETURN_IF_ERROR(step());
    graph_.init.clear();  // Init runs once; its closures hold nothing needed later
    exec_ = SequentialExecutionData{graph_.main.size(), graph_.main.data()};
    return Status::Ok();
  }

  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  size_t device_bytes() const override { return weights_.size() + feature_map_.size(); }

  Status Execute(const std::vector<const void*>& in, const std::vector<void*>& out) override {
    if (in.size() != plan_.inputs.size())
      return InvalidArgument("model takes " + std::to_string(plan_.inputs.size()) + " inputs, got " + std::to_string(in.size()));
    if (out.size() != plan_.outputs.size())
      return InvalidArgument("model has " + std::to_string(plan_.outputs.size()) + " outputs, got " + std::to_string(out.size()));
    // Zero copy: kernels read the user's inputs and write the user's outputs.
    for (const IoPatch& p : patches_) {
      auto* base = p.segment == Segment::kInput ? static_cast<uint8_t*>(const_cast<void*>(in[p.io]))
                                                : static_cast<uint8_t*>(out[p.io]);
      if (p.output_arg) out_args_[p.arg] = base + p.delta;
      else in_args_[p.arg] = base + p.delta;
    }
    if (SequentialExecute(&exec_) >= 0) return error_;
    for (size_t i = 0; i < out.size(); ++i) {
      const IoBinding& b = plan_.outputs[i];
      if (!b.copy || b.size == 0) continue;
      const void* src = nullptr;
      if (b.source.segment == Segment::kInput || b.source.segment == Segment::kOutput) {
        GE_ASSIGN_OR_RETURN(auto where, FindIo(b.source));
        src = static_cast<const uint8_t*>(b.source.segment == Segment::kInput ? in[where.first] : out[where.first]) + where.second;
      } else {
        src = Address(b.source);
      }
      std::memcpy(out[i], src, b.size);
    }
    return Status::Ok();
  }

 private:
  // Weights and feature-map addresses are fixed at Init.
  void* Address(const TaskArg& a) const {
    auto* base = static_cast<uint8_t*>(a.segment == Segment::kWeights ? weights_.data() : feature_map_.data());
    return base + a.offset;
  }

  // Which user buffer an IO-segment offset falls into, and where in it.
  Result<std::pair<size_t, int64_t>> FindIo(const TaskArg& a) const {
    const auto& bindings = a.segment == Segment::kInput ? plan_.inputs : plan_.outputs;
    for (size_t i = 0; i < bindings.size(); ++i)
      if (a.offset >= bindings[i].offset && a.offset < bindings[i].offset + std::max<int64_t>(bindings[i].size, 1))
        return std::make_pair(i, a.offset - bindings[i].offset);
    return Internal(std::string("v2: offset ") + std::to_string(a.offset) + " is in no " + SegmentName(a.segment) + " buffer");
  }

  // Lowering: Init allocates the plan's segments and creates the kernels of
  // stream 0's tasks with their bound arguments; Main runs them in order.
  Status Lower(const Model& model) {
    std::map<std::string, Node*> by_name;
    for (Node* n : model.graph->nodes()) by_name[n->name()] = n;
    // v2 runs everything on the host in one sequence: the kernel tasks of
    // every stream in the plan's execution order, which every stream's order
    // and every event already respect; event tasks have nothing to order.
    std::map<std::string, size_t> step;
    for (size_t i = 0; i < plan_.order.size(); ++i) step[plan_.order[i]] = i;
    std::vector<Task> tasks;
    for (const StreamTasks& st : streams_)
      for (const Task& t : st.tasks)
        if (t.kind == Task::Kind::kKernel) {
          if (streams_.size() > 1 && !step.count(t.node)) return Internal("v2: task for node " + t.node + " outside the plan's order");
          tasks.push_back(t);
        }
    if (streams_.size() > 1)
      std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return step[a.node] < step[b.node]; });
    size_t num_in = 0, num_out = 0;
    for (const Task& t : tasks) {
      num_in += t.inputs.size();
      num_out += t.outputs.size();
    }
    launches_.reserve(tasks.size());
    labels_.reserve(tasks.size());
    in_args_.reserve(num_in);
    out_args_.reserve(num_out);

    // Init 1: the weights segment, every constant copied to its plan offset.
    std::vector<std::pair<const Tensor*, TaskArg>> consts;
    for (const BufferPlan& b : plan_.buffers) {
      if (b.segment != Segment::kWeights) continue;
      auto it = by_name.find(b.node);
      if (it == by_name.end() || it->second->type() != op::kConst) continue;  // a Reshape of a constant shares it
      const Tensor* t = it->second->GetTensor("value");
      if (!t || static_cast<int64_t>(t->size()) != b.size) return Internal("v2: constant " + b.node + " does not match its plan");
      consts.push_back({t, TaskArg{Segment::kWeights, b.offset}});
    }
    const size_t weights_size = static_cast<size_t>(plan_.weights_size);
    graph_.init.push_back([this, weights_size, consts] {
      GE_ASSIGN_OR_RETURN(weights_, hal::DeviceBuffer::Allocate(std::max<size_t>(weights_size, 1)));
      for (const auto& [t, a] : consts)
        if (t->size()) std::memcpy(Address(a), t->data(), t->size());
      return Status::Ok();
    });
    // Init 2: one block for the whole feature map, reused as the plan says.
    const size_t fm_size = static_cast<size_t>(plan_.feature_map_size);
    graph_.init.push_back([this, fm_size] {
      GE_ASSIGN_OR_RETURN(feature_map_, hal::DeviceBuffer::Allocate(std::max<size_t>(fm_size, 1)));
      return Status::Ok();
    });
    // Init 3: one kernel per task, created with its constant inputs.
    const hal::KernelRegistry& registry = hal::CpuDevice().kernels();
    for (const Task& t : tasks) {
      auto it = by_name.find(t.node);
      if (it == by_name.end()) return Internal("v2: task for unknown node " + t.node);
      const Node& n = *it->second;
      hal::KernelSpec spec = BuildKernelSpec(n);
      labels_.push_back(n.Label());
      const std::string* label = &labels_.back();
      launches_.push_back(KernelLaunch{nullptr, nullptr, nullptr, label, &error_});
      KernelLaunch* launch = &launches_.back();
      graph_.main.push_back(ExecNode{LaunchKernel, launch});
      graph_.init.push_back([this, spec, t, launch, &registry]() mutable {
        const size_t in_begin = in_args_.size();
        for (const TaskArg& a : t.inputs) {
          const bool present = a.offset >= 0;
          const bool io = a.segment == Segment::kInput || a.segment == Segment::kOutput;
          if (present && io) {
            GE_ASSIGN_OR_RETURN(auto where, FindIo(a));
            patches_.push_back(IoPatch{false, in_args_.size(), a.segment, where.first, where.second});
          }
          in_args_.push_back(present && !io ? Address(a) : nullptr);
          spec.const_inputs.push_back(present && a.segment == Segment::kWeights ? Address(a) : nullptr);
        }
        const size_t out_begin = out_args_.size();
        for (const TaskArg& a : t.outputs) {
          if (a.segment == Segment::kOutput) {
            GE_ASSIGN_OR_RETURN(auto where, FindIo(a));
            patches_.push_back(IoPatch{true, out_args_.size(), a.segment, where.first, where.second});
            out_args_.push_back(nullptr);
          } else {
            out_args_.push_back(Address(a));
          }
        }
        auto kernel = registry.Create(spec);
        if (!kernel.ok()) return kernel.status().Annotated("node " + *launch->label);
        launch->kernel = kernel->get();
        launch->inputs = in_args_.data() + in_begin;
        launch->outputs = out_args_.data() + out_begin;
        kernels_.push_back(std::move(kernel).value());
        return Status::Ok();
      });
    }
    graph_.deinit.push_back([this] { feature_map_ = hal::DeviceBuffer(); weights_ = hal::DeviceBuffer(); });
    graph_.deinit.push_back([this] { kernels_.clear(); });  // runs first (reverse order)
    spdlog::debug("v2 lowering: {} kernels, weights {} B, feature map {} B (plan)", tasks.size(), weights_size, fm_size);
    return Status::Ok();
  }

  MemoryPlan plan_;
  std::vector<StreamTasks> streams_;
  std::vector<IoPatch> patches_;
  std::vector<IoDesc> inputs_, outputs_;
  ExecuteGraph graph_;
  SequentialExecutionData exec_{0, nullptr};
  hal::DeviceBuffer weights_, feature_map_;
  std::vector<std::unique_ptr<hal::Kernel>> kernels_;
  std::vector<KernelLaunch> launches_;  // reserved up front: Main holds pointers into it
  std::vector<std::string> labels_;     // reserved up front, same reason
  std::vector<const void*> in_args_;
  std::vector<void*> out_args_;
  Status error_;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model) {
  auto m = std::make_unique<ModelV2>();
  GE_RETURN_IF_ERROR(m->Load(model));
  return std::unique_ptr<LoadedModel>(std::move(m));
}

}  // namespace ge::v2
