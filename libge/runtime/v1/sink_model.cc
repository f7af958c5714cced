#include "v1/sink_model.h"

#include <spdlog/spdlog.h>

namespace ge::v1 {

SinkModel::~SinkModel() {
  loop_.reset();  // the model thread first: it may be executing
  hal_.reset();
}

// ------------------------------------------------------------------ load

Status SinkModel::Load() {
  GE_RETURN_IF_ERROR(InitMemory());
  GE_RETURN_IF_ERROR(InitModelStream());
  GE_RETURN_IF_ERROR(InitNodes());
  GE_RETURN_IF_ERROR(DistributeTask());
  return LoadEnd();
}

// The fixed feature map (planned offsets, never refreshed), the refreshable
// IO segments (where unaligned user buffers are copied) and the IO nodes:
// every argument in an IO segment a zero-copy slot of its port (GE's
// InitFeatureMapAndP2PMem, InitIoNodes).
Status SinkModel::InitMemory() { return mem_.Init(*p_); }

// Streams and events: the per-stream task lists with their event and label
// tasks (the HAL model, created at DistributeTask, owns the threads and events).
Status SinkModel::InitModelStream() {
  lists_ = rt::StreamTaskLists(*p_);
  spdlog::debug("sink InitModelStream: {} streams, {} events, {} labels", p_->streams.size(), p_->num_events,
                p_->num_labels);
  return Status::Ok();
}

// Nodes: every kernel (and its oneDNN primitives) is created here, once.
Status SinkModel::InitNodes() {
  std::vector<int32_t> ids(p_->specs.size());
  for (size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<int32_t>(k);
  // Kernels sized for their stream's cores (ShareCompute), created in parallel.
  GE_ASSIGN_OR_RETURN(kernels_, rt::CreateKernels(*p_, ids, p_->streams.size()));
  spdlog::debug("sink InitNodes: {} kernels created", kernels_.size());
  return Status::Ok();
}

// Task sink: each stream's list, with pointers resolved, handed to the HAL,
// which checks it (events, labels, deadlocks; hal/model.h).
Status SinkModel::DistributeTask() {
  GE_ASSIGN_OR_RETURN(hal_, rt::CreateHalModel(*p_, lists_, mem_, kernels_, options_.profile));
  spdlog::debug("sink DistributeTask: {} task lists handed to the HAL", lists_.size());
  return Status::Ok();
}

Status SinkModel::LoadEnd() {
  loop_ = std::make_unique<RunLoop>(options_.queue_depth, p_->inputs.size(), p_->outputs.size(),
                                    [this](const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out) {
                                      return Execute(in, out, std::chrono::milliseconds(0));
                                    });
  spdlog::debug("sink LoadEnd: model {} ready ({} B own memory + {} B shared weights)", p_->name, instance_bytes(),
                p_->weights->size());
  return Status::Ok();
}

Result<std::unique_ptr<SinkLoadedModel>> SinkModel::Fork() const {
  auto m = std::make_unique<SinkModel>(p_, options_);
  GE_RETURN_IF_ERROR(m->Load().Annotated("fork of " + p_->name));
  return std::unique_ptr<SinkLoadedModel>(std::move(m));
}

// ------------------------------------------------------------------ execute

Status SinkModel::Execute(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out,
                          std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> lock(exec_mu_);
  GE_RETURN_IF_ERROR(mem_.io().BindInputs(in));
  GE_RETURN_IF_ERROR(mem_.io().BindOutputs(out));
  if (timeout.count() <= 0) timeout = options_.timeout;
  const hal::Model::Timeout t = timeout.count() > 0 ? hal::Model::Timeout(timeout) : hal::Model::kNoTimeout;
  GE_RETURN_IF_ERROR(hal_->Execute(t));
  mem_.io().FinishOutputs(out);
  return Status::Ok();
}

Status SinkModel::Execute(const std::vector<const void*>& in, const std::vector<void*>& out) {
  GE_RETURN_IF_ERROR(mem_.WrapPointers(in, out));
  return Execute(mem_.wrapped_inputs(), mem_.wrapped_outputs(), std::chrono::milliseconds(0));
}

std::future<Status> SinkModel::ExecuteAsync(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out) {
  std::promise<Status> promise;
  std::future<Status> f = promise.get_future();
  loop_->Submit(in, out, nullptr, &promise);
  return f;
}

void SinkModel::ExecuteAsync(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out,
                             ExecuteCallback done) {
  loop_->Submit(in, out, std::move(done), nullptr);
}

// ------------------------------------------------------------------ profile

std::vector<TaskProfile> SinkModel::Profile() const { return rt::ProfileTasks(*p_, lists_, *hal_); }

const rt::ExecuteStats* SinkStats(const SinkLoadedModel& m) {
  auto* s = dynamic_cast<const SinkModel*>(&m);
  return s ? &s->last_stats() : nullptr;
}

}  // namespace ge::v1

namespace ge {

Result<std::unique_ptr<SinkLoadedModel>> LoadSinkModel(const Model& model, const SinkOptions& options) {
  return v1::LoadSink(model, options, nullptr);
}

namespace v1 {

Result<std::unique_ptr<SinkLoadedModel>> LoadSink(const Model& model, const SinkOptions& options, rt::WeightPool* pool) {
  if (FindGearCase(model))
    return InvalidArgument("model " + model.name + " has gears: load it with LoadModel (either mode), which picks the gear per call");
  if (model.dynamic) {
    std::string names;
    for (const IoDesc& io : model.inputs)
      if (!io.desc.is_static()) names += (names.empty() ? "" : ", ") + io.name + " " + io.desc.ToString();
    return InvalidArgument("model " + model.name + " has dynamic shapes (" +
                           (names.empty() ? std::string("shapes computed from values") : "inputs " + names) +
                           "): sink mode runs static plans only; run it in v2 mode, or compile fixed shapes with --input_shape, or gears "
                           "with --dynamic_batch_size, --dynamic_image_size or --dynamic_dims");
  }
  if (options.executor != LoadOptions::Executor::kSequential)
    return InvalidArgument("the topological executor runs dynamic models in v2 mode; sink mode runs " +
                           model.name + "'s task lists as the plan orders them");
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  auto program = rt::BuildProgram(model, *device, options.max_memory, pool);
  if (!program.ok()) return program.status().Annotated("sink load of " + model.name);
  auto m = std::make_unique<v1::SinkModel>(std::move(program).value(), options);
  GE_RETURN_IF_ERROR(m->Load().Annotated("sink load of " + model.name));
  return std::unique_ptr<SinkLoadedModel>(std::move(m));
}

}  // namespace v1
}  // namespace ge
