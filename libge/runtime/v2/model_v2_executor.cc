// ModelV2Executor (runtime-execution.txt §4.3): a dynamic model's lowered
// ExecuteGraph with its three phases. Load = lower, run Init (constants,
// partitions' sink models); Execute = bind the inputs (dims and addresses),
// run Main, hand back the outputs with the dims this call gave them;
// unload = DeInit.
#include <algorithm>
#include <cstring>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/program.h"
#include "common/shaped_io.h"
#include "ge/runtime.h"
#include "v2/executor_thread_pool.h"
#include "v2/lowering.h"
#include "v2/model_v2.h"
#include "v2/run_limits.h"

namespace ge::v2 {
namespace {

class ModelV2Executor final : public LoadedModel {
 public:
  // `options`: the caller's, their device resolved to a registry name.
  // `limits`: the calling model's, for a subgraph; null for a model of its
  // own (its calls start the deadline).
  ModelV2Executor(const Model& model, hal::Device& device, const LoadOptions& options, RunLimits* limits)
      : model_(CopyModel(model)),
        own_limits_(limits ? nullptr : std::make_unique<RunLimits>(options)),
        limits_(limits ? limits : own_limits_.get()),
        memory_(device, options.executor != LoadOptions::Executor::kSequential, &limits_->memory()),
        device_(device),
        options_(options) {}
  ~ModelV2Executor() override {
    if (lowering_)
      for (auto it = lowering_->exec().deinit.rbegin(); it != lowering_->exec().deinit.rend(); ++it) (*it)();
  }

  Status Load() {
    state_.memory = &memory_;
    state_.limits = limits_;
    // Parallel workers each lead an OpenMP team: kernels (created during the
    // runs) then take their share of the cores, not all of them.
    const bool topological = options_.executor == LoadOptions::Executor::kTopological;
    const size_t threads = options_.executor_threads > 0 ? static_cast<size_t>(options_.executor_threads)
                                                         : std::max(1u, std::thread::hardware_concurrency());
    if (topological && threads > 1) share_ = device_.ShareCompute(threads);
    lowering_ = std::make_unique<Lowering>(model_, device_, options_, state_, *model_.graph);
    GE_RETURN_IF_ERROR(lowering_->Run());
    ExecuteGraph& g = lowering_->exec();
    for (auto& step : g.init) GE_RETURN_IF_ERROR(step());
    g.init.clear();
    if (lowering_->inputs().size() != model_.inputs.size())
      return Corrupt("model " + model_.name + ": the graph has " + std::to_string(lowering_->inputs().size()) +
                     " Data nodes for " + std::to_string(model_.inputs.size()) + " inputs");
    for (Value* v : lowering_->inputs())
      if (!v) return Corrupt("model " + model_.name + ": an input has no Data node");
    // A deadline is read before every Main node; without one they run bare.
    if (limits_->has_deadline()) guards_.Install(g.main, lowering_->main_labels(), *limits_, state_);
    data_nodes_ = model_.graph->InputNodes();
    ranges_ = rt::DimRanges(*model_.graph);
    staging_.resize(model_.inputs.size());
    exec_ = SequentialExecutionData{g.main.size(), g.main.data()};
    if (topological) {
      std::vector<int64_t> costs(g.main.size(), 1);
      GE_ASSIGN_OR_RETURN(plan_, BuildTopologicalPlan(g.main.size(), lowering_->edges(), costs));
      topo_ = plan_.Bind(g.main.data());
      scratch_.Reserve(g.main.size());
      GE_ASSIGN_OR_RETURN(pool_, ExecutorThreadPool::Create(threads));
    }
    spdlog::debug("v2 lowering of dynamic model {}: {} Main nodes, {} partition(s)", model_.name, g.main.size(),
                  model_.partitions.size());
    return Status::Ok();
  }

  const std::vector<IoDesc>& inputs() const override { return model_.inputs; }
  const std::vector<IoDesc>& outputs() const override { return model_.outputs; }
  size_t device_bytes() const override { return memory_.device_bytes() + lowering_->held_bytes(); }
  size_t bytes_in_use() const override { return limits_->memory().in_use(); }
  bool dynamic() const override { return true; }

  Status Execute(const std::vector<const void*>&, const std::vector<void*>&) override {
    return InvalidArgument("model " + model_.name +
                           " has dynamic shapes: run it with its input shapes (ExecuteShaped; ge-run takes them from the input files)");
  }

  Status ExecuteShaped(const std::vector<TensorView>& in, std::vector<Tensor>& out) override {
    GE_RETURN_IF_ERROR(rt::CheckShapedInputs(model_.inputs, in));
    GE_RETURN_IF_ERROR(rt::CheckDimRanges(model_.inputs, ranges_, in));
    for (size_t i = 0; i < in.size(); ++i) GE_RETURN_IF_ERROR(Bind(i, in[i]));
    state_.error = Status::Ok();
    if (own_limits_) limits_->Start();
    const long failed = pool_ ? ParallelTopologicalExecute(&topo_, &scratch_, pool_.get()) : SequentialExecute(&exec_);
    Status result = failed >= 0 ? state_.error : Status::Ok();
    out.clear();
    if (result.ok())
      for (const Value* v : lowering_->outputs())
        out.emplace_back(TensorDesc(v->dtype, v->dims), v->data, v->bytes);
    // Whatever Main left allocated (the outputs; everything after a failure)
    // goes back to the cache.
    for (Value* v : lowering_->outputs()) memory_.Free(v->owner ? *v->owner : *v);
    if (failed >= 0) {
      ReleaseAll();
      if (own_limits_) limits_->memory().TrimCaches();
    }
    return result;
  }

 private:
  static Model CopyModel(const Model& m) {
    Model c = CopyModelInfo(m);
    c.inputs = m.inputs;
    c.outputs = m.outputs;
    c.graph = m.graph->Clone();  // this instance's shapes are written into it
    c.dynamic = m.dynamic;
    c.partitions = m.partitions;
    return c;
  }

  // The user's dims and address for input i; an unaligned buffer is copied
  // into staging memory the kernels may read.
  Status Bind(size_t i, const TensorView& t) {
    Value* v = lowering_->inputs()[i];
    v->dtype = t.dtype;
    v->dims = t.dims;
    if (Status s = v->SetBytes(); !s.ok()) return s.Annotated("input " + std::to_string(i) + " (" + model_.inputs[i].name + ")");
    data_nodes_[i]->output_desc(0).dims = t.dims;
    if (reinterpret_cast<uintptr_t>(t.data) % hal::kDefaultAlignment == 0) {
      v->data = const_cast<void*>(t.data);
      return Status::Ok();
    }
    hal::DeviceBuffer& s = staging_[i];
    if (s.size() < v->bytes || !s.data()) {
      GE_ASSIGN_OR_RETURN(s, device_.Allocate(std::max<size_t>(v->bytes, 64)));
    }
    if (v->bytes) std::memcpy(s.data(), t.data, v->bytes);
    v->data = s.data();
    return Status::Ok();
  }

  // After a failed call, every value that still holds a block returns it.
  void ReleaseAll() {
    for (Value& v : lowering_->values()) memory_.Free(v);
  }

  Model model_;
  // Declared before memory_ (and the subgraph models lowering_ holds): the
  // budget outlives every allocator charging it.
  std::unique_ptr<RunLimits> own_limits_;
  RunLimits* limits_;
  ValueMemory memory_;
  hal::Device& device_;
  RunState state_;
  std::unique_ptr<Lowering> lowering_;
  SequentialExecutionData exec_{0, nullptr};
  LoadOptions options_;
  std::unique_ptr<hal::ComputeShare> share_;
  TopologicalPlan plan_;
  TopologicalExecutionData topo_{};
  TopologicalScratch scratch_;
  std::unique_ptr<ExecutorThreadPool> pool_;
  std::vector<Node*> data_nodes_;
  std::vector<std::vector<int64_t>> ranges_;
  std::vector<hal::DeviceBuffer> staging_;
  DeadlineGuards guards_;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadDynamicV2(const Model& model, const LoadOptions& options) {
  return LoadDynamicV2(model, options, static_cast<RunLimits*>(nullptr));
}

Result<std::unique_ptr<LoadedModel>> LoadDynamicV2(const Model& model, const LoadOptions& options,
                                                   RunLimits* limits) {
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  LoadOptions resolved = options;
  if (resolved.device.empty()) resolved.device = model.target;
  auto m = std::make_unique<ModelV2Executor>(model, *device, resolved, limits);
  GE_RETURN_IF_ERROR(m->Load().Annotated("v2 load of " + model.name));
  return std::unique_ptr<LoadedModel>(std::move(m));
}

}  // namespace ge::v2
