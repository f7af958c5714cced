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

// Streams and events: the per-stream task lists with their event entries
// (the HAL model, created at DistributeTask, owns the threads and events).
Status SinkModel::InitModelStream() {
  desc_.num_events = p_->num_events;
  desc_.num_labels = p_->num_labels;
  desc_.streams.assign(p_->streams.size(), {});
  for (size_t s = 0; s < p_->streams.size(); ++s) {
    desc_.streams[s].resize(p_->streams[s].size());
    for (size_t i = 0; i < p_->streams[s].size(); ++i) {
      const rt::ProgramTask& t = p_->streams[s][i];
      hal::ModelTask& m = desc_.streams[s][i];
      m.kind = t.kind;
      m.event = t.event;
      m.label = t.label;
      if (t.kind == hal::ModelTask::Kind::kLabelSwitch) {
        m.labels = p_->switch_labels.data() + t.labels_begin;
        m.num_labels = static_cast<int32_t>(t.labels_count);
      }
    }
  }
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

// Task sink: each stream's list, with pointers resolved, handed to the HAL.
Status SinkModel::DistributeTask() {
  for (size_t s = 0; s < p_->streams.size(); ++s)
    for (size_t i = 0; i < p_->streams[s].size(); ++i) {
      const rt::ProgramTask& t = p_->streams[s][i];
      hal::ModelTask& m = desc_.streams[s][i];
      if (t.kind == hal::ModelTask::Kind::kLabelSwitch) m.inputs = mem_.inputs(t);  // the index
      if (t.kind != hal::ModelTask::Kind::kKernel) continue;
      m.kernel = kernels_[t.kernel].get();
      m.inputs = mem_.inputs(t);
      m.outputs = mem_.outputs(t);
    }
  GE_ASSIGN_OR_RETURN(hal_, p_->device->CreateModel(desc_));
  if (options_.profile) hal_->EnableTiming(true);
  spdlog::debug("sink DistributeTask: {} task lists handed to the HAL", desc_.streams.size());
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

std::vector<TaskProfile> SinkModel::Profile() const {
  std::vector<TaskProfile> out;
  const auto& times = hal_->timings();
  for (size_t s = 0; s < p_->streams.size(); ++s) {
    for (size_t i = 0; i < p_->streams[s].size(); ++i) {
      const rt::ProgramTask& t = p_->streams[s][i];
      TaskProfile tp;
      tp.stream = static_cast<int32_t>(s);
      tp.event = t.event;
      if (t.kind == hal::ModelTask::Kind::kKernel) {
        tp.name = p_->labels[t.kernel];
        tp.kernel = p_->specs[t.kernel].op;
      } else if (t.kind == hal::ModelTask::Kind::kEventRecord || t.kind == hal::ModelTask::Kind::kEventWait) {
        tp.name = std::string(t.kind == hal::ModelTask::Kind::kEventRecord ? "record" : "wait") + " event " +
                  std::to_string(t.event);
        tp.kernel = "event";
      } else {
        tp.name = t.kind == hal::ModelTask::Kind::kLabelSwitch ? "label switch"
                  : t.kind == hal::ModelTask::Kind::kLabelGoto ? "label goto " + std::to_string(t.label)
                                                                : "label set " + std::to_string(t.label);
        tp.kernel = "label";
      }
      if (s < times.size() && i < times[s].size()) {
        tp.begin_ns = times[s][i].begin_ns;
        tp.end_ns = times[s][i].end_ns;
      }
      out.push_back(std::move(tp));
    }
  }
  return out;
}

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
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  auto program = rt::BuildProgram(model, *device, options.max_memory, pool);
  if (!program.ok()) return program.status().Annotated("sink load of " + model.name);
  auto m = std::make_unique<v1::SinkModel>(std::move(program).value(), options);
  GE_RETURN_IF_ERROR(m->Load().Annotated("sink load of " + model.name));
  return std::unique_ptr<SinkLoadedModel>(std::move(m));
}

}  // namespace v1
}  // namespace ge
