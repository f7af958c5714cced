// Runtime v2 for a static model: lowering it into an ExecuteGraph and running it.
//
// Load = build the shared program (plan, tasks and weights checked and
// loaded once, as sink mode does), lower, then run Init (feature map and IO
// staging, every argument bound, kernels created once with their constant
// inputs, the HAL model made of them). Execute = bind the user's buffers
// (zero copy), run Main, copy back what could not be zero-copy. Unload =
// DeInit.
//
// Main is one node: the HAL model of one host sequence (common/hal_model.h),
// so v2 and sink run a model's tasks, labels included, through the same
// interpreter and validation, and profile it the same way.
#include "v2/model_v2.h"

#include <spdlog/spdlog.h>

#include "common/hal_model.h"
#include "common/instance_memory.h"
#include "v2/execute_graph.h"

namespace ge::v2 {
namespace {

class ModelV2 final : public LoadedModel {
 public:
  ModelV2(std::shared_ptr<const rt::Program> program, const LoadOptions& options)
      : p_(std::move(program)),
        profile_(options.profile),
        timeout_(options.timeout.count() > 0 ? hal::Model::Timeout(options.timeout) : hal::Model::kNoTimeout) {}
  ~ModelV2() override {
    for (auto it = graph_.deinit.rbegin(); it != graph_.deinit.rend(); ++it) (*it)();
  }

  Status Load() {
    GE_RETURN_IF_ERROR(Lower());
    for (auto& step : graph_.init) GE_RETURN_IF_ERROR(step());
    graph_.init.clear();  // Init runs once; its closures hold nothing needed later
    exec_ = SequentialExecutionData{graph_.main.size(), graph_.main.data()};
    return Status::Ok();
  }

  const std::vector<IoDesc>& inputs() const override { return p_->inputs; }
  const std::vector<IoDesc>& outputs() const override { return p_->outputs; }
  size_t device_bytes() const override { return p_->weights->size() + mem_.bytes(); }

  // One stream: the host sequence's tasks (a linked model's label tasks
  // included), each with its last run's times (0/0 when it did not run).
  std::vector<TaskProfile> Profile() const override {
    return hal_ ? rt::ProfileTasks(*p_, lists_, *hal_) : std::vector<TaskProfile>{};
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
  // Lowering: Init binds the instance's memory, creates one kernel per
  // kernel task and the HAL model of the host sequence; Main runs it.
  Status Lower() {
    GE_ASSIGN_OR_RETURN(lists_, rt::HostTaskList(*p_));
    graph_.init.push_back([this] { return mem_.Init(*p_); });
    graph_.init.push_back([this] { return CreateKernels(); });
    graph_.init.push_back([this] { return CreateModel(); });
    graph_.main.push_back(ExecNode{RunHalModel, this});
    graph_.deinit.push_back([this] { kernels_.clear(); });
    graph_.deinit.push_back([this] { hal_.reset(); });  // DeInit runs backwards: the model before its kernels
    spdlog::debug("v2 lowering: {} tasks with {} labels, {} kernels, weights {} B, feature map {} B (plan)",
                  lists_[0].size(), p_->num_labels, p_->specs.size(), p_->plan.weights_size, p_->plan.feature_map_size);
    return Status::Ok();
  }

  // Every kernel task's kernel with its constant inputs, on all cores at
  // once; sized for one stream (v2 runs them one after another).
  Status CreateKernels() {
    std::vector<int32_t> ids(p_->specs.size());
    for (size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<int32_t>(k);
    GE_ASSIGN_OR_RETURN(kernels_, rt::CreateKernels(*p_, ids, 1));
    return Status::Ok();
  }

  Status CreateModel() {
    GE_ASSIGN_OR_RETURN(hal_, rt::CreateHalModel(*p_, lists_, mem_, kernels_, profile_));
    return Status::Ok();
  }

  // The Main node. With no timeout the HAL runs the one stream on this thread.
  static int RunHalModel(void* context) {
    auto* self = static_cast<ModelV2*>(context);
    Status s = self->hal_->Execute(self->timeout_);
    if (s.ok()) [[likely]]
      return 0;
    self->error_ = std::move(s);
    return 1;
  }

  std::shared_ptr<const rt::Program> p_;
  bool profile_;
  hal::Model::Timeout timeout_;
  rt::InstanceMemory mem_;
  rt::TaskLists lists_;
  std::vector<std::unique_ptr<hal::Kernel>> kernels_;
  std::unique_ptr<hal::Model> hal_;
  ExecuteGraph graph_;
  SequentialExecutionData exec_{0, nullptr};
  Status error_;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadV2(std::shared_ptr<const rt::Program> program, const LoadOptions& options) {
  auto m = std::make_unique<ModelV2>(std::move(program), options);
  GE_RETURN_IF_ERROR(m->Load());
  return std::unique_ptr<LoadedModel>(std::move(m));
}

Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model, const LoadOptions& options) {
  if (model.dynamic && options.profile)
    return Unsupported("profiling a dynamic model in v2 mode is not available yet (" + model.name +
                       "): its kernels are chosen per call; profile a static model, or this one with fixed input shapes");
  if (options.max_loop_iterations < 0)
    return InvalidArgument("max_loop_iterations " + std::to_string(options.max_loop_iterations) + " of " +
                           model.name + " is negative (0: no limit)");
  if (model.dynamic) return LoadDynamicV2(model, options);
  if (options.executor != LoadOptions::Executor::kSequential)
    return InvalidArgument("the topological executor runs dynamic models; " + model.name +
                           " is static, its memory plan is made for the sequential order");
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  GE_ASSIGN_OR_RETURN(auto program, rt::BuildProgram(model, *device, options.max_memory));
  return LoadV2(std::move(program), options);
}

}  // namespace ge::v2
