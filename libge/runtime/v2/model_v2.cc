// Runtime v2: lowering a Model into an ExecuteGraph and running it.
//
// Load = build the shared program (plan, tasks and weights checked and
// loaded once, as sink mode does), lower, then run Init (feature map and IO
// staging, every argument bound, kernels created once with their constant
// inputs). Execute = bind the user's buffers (zero copy), run Main (the
// sequential executor over pre-bound kernel launches), copy back what could
// not be zero-copy. Unload = DeInit.
#include <algorithm>
#include <chrono>

#include <spdlog/spdlog.h>

#include "common/instance_memory.h"
#include "common/program.h"
#include "ge/runtime.h"
#include "v2/execute_graph.h"

namespace ge::v2 {
namespace {

// The context of one Main-graph node.
struct KernelLaunch {
  hal::Kernel* kernel;
  const void* const* inputs;
  void* const* outputs;
  Status* error;
  int64_t begin_ns = 0, end_ns = 0;  // the last run, written by LaunchKernelTimed only
};

int LaunchKernel(void* context) {
  auto* c = static_cast<KernelLaunch*>(context);
  Status s = c->kernel->Run(c->inputs, c->outputs);
  if (s.ok()) return 0;
  *c->error = s;  // names its node already (hal/kernel.h)
  return 1;
}

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// LoadOptions::profile: the same launch between two clock reads (the
// sink's HAL times its tasks the same way, hal/model.h).
int LaunchKernelTimed(void* context) {
  auto* c = static_cast<KernelLaunch*>(context);
  c->begin_ns = NowNs();
  const int r = LaunchKernel(context);
  c->end_ns = NowNs();
  return r;
}

class ModelV2 final : public LoadedModel {
 public:
  ModelV2(std::shared_ptr<const rt::Program> program, bool profile)
      : p_(std::move(program)), launch_(profile ? LaunchKernelTimed : LaunchKernel) {}
  ~ModelV2() override {
    for (auto it = graph_.deinit.rbegin(); it != graph_.deinit.rend(); ++it) (*it)();
  }

  Status Load() {
    GE_RETURN_IF_ERROR(Lower());
    graph_.init.push_back([this] { return CreateKernels(); });
    for (auto& step : graph_.init) GE_RETURN_IF_ERROR(step());
    graph_.init.clear();  // Init runs once; its closures hold nothing needed later
    exec_ = SequentialExecutionData{graph_.main.size(), graph_.main.data()};
    return Status::Ok();
  }

  const std::vector<IoDesc>& inputs() const override { return p_->inputs; }
  const std::vector<IoDesc>& outputs() const override { return p_->outputs; }
  size_t device_bytes() const override { return p_->weights->size() + mem_.bytes(); }

  // One stream: the launches in Main's order (a linked model's in its task
  // list's), each with its last run's times (0/0 when it did not run).
  std::vector<TaskProfile> Profile() const override {
    std::vector<TaskProfile> out;
    if (launch_ != LaunchKernelTimed) return out;
    for (size_t i = 0; i < launches_.size(); ++i) {
      TaskProfile tp;
      tp.name = p_->labels[launch_kernels_[i]];
      tp.kernel = p_->specs[launch_kernels_[i]].op;
      tp.begin_ns = launches_[i].begin_ns;
      tp.end_ns = launches_[i].end_ns;
      out.push_back(std::move(tp));
    }
    return out;
  }

  Status Execute(const std::vector<const void*>& in, const std::vector<void*>& out) override {
    GE_RETURN_IF_ERROR(mem_.WrapPointers(in, out));
    GE_RETURN_IF_ERROR(mem_.io().BindInputs(mem_.wrapped_inputs()));
    GE_RETURN_IF_ERROR(mem_.io().BindOutputs(mem_.wrapped_outputs()));
    if (SequentialExecute(&exec_) >= 0) return error_;
    mem_.io().FinishOutputs(mem_.wrapped_outputs());
    return Status::Ok();
  }

 private:
  // Lowering: Init binds the instance's memory and creates one kernel per
  // kernel task; Main runs them. v2 runs everything on the host in one
  // sequence: the kernel tasks of every stream in the plan's execution
  // order, which every stream's order and every event already respect;
  // event tasks have nothing to order.
  Status Lower() {
    if (p_->num_labels > 0) return LowerLinked();
    std::vector<const rt::ProgramTask*> tasks;
    for (const auto& stream : p_->streams)
      for (const rt::ProgramTask& t : stream)
        if (t.kind == hal::ModelTask::Kind::kKernel) {
          if (p_->streams.size() > 1 && p_->steps[t.kernel] < 0)
            return Internal("v2: task for node " + p_->labels[t.kernel] + " outside the plan's order");
          tasks.push_back(&t);
        }
    if (p_->streams.size() > 1)
      std::stable_sort(tasks.begin(), tasks.end(), [&](const rt::ProgramTask* a, const rt::ProgramTask* b) {
        return p_->steps[a->kernel] < p_->steps[b->kernel];
      });
    launches_.reserve(tasks.size());  // Main holds pointers into it

    // Init 1: the feature map, IO staging and every argument bound.
    graph_.init.push_back([this] { return mem_.Init(*p_); });
    // Init 2: one kernel per task, created with its constant inputs.
    for (const rt::ProgramTask* t : tasks) graph_.main.push_back(ExecNode{launch_, AddLaunch(t)});
    graph_.deinit.push_back([this] { kernels_.clear(); });
    spdlog::debug("v2 lowering: {} kernels, weights {} B, feature map {} B (plan)", tasks.size(), p_->plan.weights_size,
                  p_->plan.feature_map_size);
    return Status::Ok();
  }

  // The launch of kernel task t; Init creates its kernel with its constant
  // inputs and binds its arguments (CreateKernels). launches_ is reserved:
  // Main holds the pointer.
  KernelLaunch* AddLaunch(const rt::ProgramTask* t) {
    launches_.push_back(KernelLaunch{nullptr, nullptr, nullptr, &error_});
    launch_kernels_.push_back(t->kernel);
    pending_.emplace_back(t, &launches_.back());
    return &launches_.back();
  }

  // The last Init step: every launch's kernel, created on all cores at once.
  Status CreateKernels() {
    std::vector<int32_t> ids;
    for (const auto& [t, launch] : pending_) ids.push_back(t->kernel);
    GE_ASSIGN_OR_RETURN(kernels_, rt::CreateKernels(*p_, ids, 1));
    for (size_t i = 0; i < pending_.size(); ++i) {
      const auto& [t, launch] = pending_[i];
      launch->kernel = kernels_[i].get();
      launch->inputs = mem_.inputs(*t);
      launch->outputs = mem_.outputs(*t);
    }
    pending_.clear();
    return Status::Ok();
  }

  // A linked model's control flow (ge/plan/link.h): Main is one node that
  // walks the stream's tasks as the HAL model does, following its label
  // tasks, each kernel created in Init as above.
  struct LinkedStep {
    hal::ModelTask::Kind kind;
    KernelLaunch* launch = nullptr;
    int32_t label = -1;
    const int32_t* labels = nullptr;
    int32_t num_labels = 0;
    const void* const* index = nullptr;  // a switch's argument slot
  };

  Status LowerLinked() {
    if (p_->streams.size() != 1) return Internal("v2: a model with label tasks on " + std::to_string(p_->streams.size()) + " streams");
    const auto& list = p_->streams[0];
    size_t kernels = 0;
    for (const rt::ProgramTask& t : list) kernels += t.kind == hal::ModelTask::Kind::kKernel;
    launches_.reserve(kernels);
    steps_.resize(list.size());
    label_pos_.assign(static_cast<size_t>(p_->num_labels), -1);
    graph_.init.push_back([this] { return mem_.Init(*p_); });
    for (size_t i = 0; i < list.size(); ++i) {
      const rt::ProgramTask* t = &list[i];
      LinkedStep& step = steps_[i];
      step.kind = t->kind;
      step.label = t->label;
      if (t->kind == hal::ModelTask::Kind::kLabelSet) {
        if (t->label < 0 || t->label >= p_->num_labels || label_pos_[t->label] >= 0)
          return Internal("v2: label " + std::to_string(t->label) + " is out of range or set twice");
        label_pos_[t->label] = static_cast<int64_t>(i);
      } else if (t->kind == hal::ModelTask::Kind::kLabelSwitch) {
        step.labels = p_->switch_labels.data() + t->labels_begin;
        step.num_labels = static_cast<int32_t>(t->labels_count);
        if (step.num_labels < 1 || t->in_count != 1) return Internal("v2: a label switch without targets or index");
        graph_.init.push_back([this, t, &step] {
          step.index = mem_.inputs(*t);
          return Status::Ok();
        });
      } else if (t->kind == hal::ModelTask::Kind::kKernel) {
        step.launch = AddLaunch(t);
      }
    }
    for (const LinkedStep& step : steps_) {
      auto bad = [&](int32_t l) { return l < 0 || l >= p_->num_labels || label_pos_[l] < 0; };
      if (step.kind == hal::ModelTask::Kind::kLabelGoto && bad(step.label))
        return Internal("v2: a jump to label " + std::to_string(step.label) + ", which is not set");
      for (int32_t k = 0; k < step.num_labels; ++k)
        if (bad(step.labels[k])) return Internal("v2: a switch to label " + std::to_string(step.labels[k]) + ", which is not set");
    }
    graph_.main.push_back(ExecNode{RunLinked, this});
    graph_.deinit.push_back([this] { kernels_.clear(); });
    spdlog::debug("v2 lowering: {} tasks with {} labels, {} kernels", list.size(), p_->num_labels, kernels);
    return Status::Ok();
  }

  static int RunLinked(void* context) {
    auto* self = static_cast<ModelV2*>(context);
    const std::vector<LinkedStep>& steps = self->steps_;
    size_t pc = 0;
    while (pc < steps.size()) {
      const LinkedStep& s = steps[pc];
      switch (s.kind) {
        case hal::ModelTask::Kind::kKernel:
          if (self->launch_(s.launch) != 0) return 1;
          ++pc;
          break;
        case hal::ModelTask::Kind::kLabelGoto: pc = static_cast<size_t>(self->label_pos_[s.label]); break;
        case hal::ModelTask::Kind::kLabelSwitch: {
          int32_t i = *static_cast<const int32_t*>(s.index[0]);
          if (i < 0 || i >= s.num_labels) i = s.num_labels - 1;  // as the HAL's switch (hal/model.h)
          pc = static_cast<size_t>(self->label_pos_[s.labels[i]]);
          break;
        }
        default: ++pc; break;
      }
    }
    return 0;
  }

  std::shared_ptr<const rt::Program> p_;
  rt::InstanceMemory mem_;
  std::vector<LinkedStep> steps_;
  std::vector<int64_t> label_pos_;
  ExecuteGraph graph_;
  SequentialExecutionData exec_{0, nullptr};
  std::vector<std::unique_ptr<hal::Kernel>> kernels_;
  std::vector<KernelLaunch> launches_;
  std::vector<int32_t> launch_kernels_;  // per launch: its kernel task (Program::specs, labels)
  ExecFunc launch_;                      // LaunchKernel, or LaunchKernelTimed to profile
  std::vector<std::pair<const rt::ProgramTask*, KernelLaunch*>> pending_;  // launches whose kernels Init creates
  Status error_;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadV2(std::shared_ptr<const rt::Program> program, bool profile) {
  auto m = std::make_unique<ModelV2>(std::move(program), profile);
  GE_RETURN_IF_ERROR(m->Load());
  return std::unique_ptr<LoadedModel>(std::move(m));
}

Result<std::unique_ptr<LoadedModel>> LoadDynamicV2(const Model& model, const LoadOptions& options);  // model_v2_executor.cc

Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model, const LoadOptions& options) {
  if (model.dynamic && options.profile)
    return Unsupported("profiling a dynamic model in v2 mode is not available yet (" + model.name +
                       "): its kernels are chosen per call; profile a static model, or this one with fixed input shapes");
  if (model.dynamic) return LoadDynamicV2(model, options);
  if (options.executor != LoadOptions::Executor::kSequential)
    return InvalidArgument("the topological executor runs dynamic models; " + model.name +
                           " is static, its memory plan is made for the sequential order");
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  GE_ASSIGN_OR_RETURN(auto program, rt::BuildProgram(model, *device, options.max_memory));
  return LoadV2(std::move(program), options.profile);
}

}  // namespace ge::v2
