#include "runtime/v1/sink_model.h"

#include <spdlog/spdlog.h>

namespace ge::v1 {

SinkModel::~SinkModel() {
  loop_.reset();  // the model thread first: it may be executing
  hal_.reset();
}

// ------------------------------------------------------------------ load

Status SinkModel::Load() {
  GE_RETURN_IF_ERROR(InitFeatureMapMem());
  GE_RETURN_IF_ERROR(InitIoNodes());
  GE_RETURN_IF_ERROR(InitModelStream());
  GE_RETURN_IF_ERROR(InitNodes());
  GE_RETURN_IF_ERROR(DistributeTask());
  return LoadEnd();
}

// The fixed feature map (planned offsets, never refreshed) and the
// refreshable IO segments (where unaligned user buffers are copied).
Status SinkModel::InitFeatureMapMem() {
  GE_ASSIGN_OR_RETURN(feature_map_, hal::DeviceBuffer::Allocate(std::max<int64_t>(p_->plan.feature_map_size, 1)));
  GE_ASSIGN_OR_RETURN(input_io_, hal::DeviceBuffer::Allocate(std::max<int64_t>(p_->plan.input_size, 1)));
  GE_ASSIGN_OR_RETURN(output_io_, hal::DeviceBuffer::Allocate(std::max<int64_t>(p_->plan.output_size, 1)));
  spdlog::debug("sink InitFeatureMapMem: fixed feature map {} B, refreshable io {} + {} B", p_->plan.feature_map_size,
                p_->plan.input_size, p_->plan.output_size);
  return Status::Ok();
}

// Streams and events: the per-stream task lists with their event entries
// (the HAL model, created at DistributeTask, owns the threads and events).
Status SinkModel::InitModelStream() {
  desc_.num_events = p_->num_events;
  desc_.streams.assign(p_->streams.size(), {});
  for (size_t s = 0; s < p_->streams.size(); ++s) {
    desc_.streams[s].resize(p_->streams[s].size());
    for (size_t i = 0; i < p_->streams[s].size(); ++i) {
      desc_.streams[s][i].kind = p_->streams[s][i].kind;
      desc_.streams[s][i].event = p_->streams[s][i].event;
    }
  }
  spdlog::debug("sink InitModelStream: {} streams, {} events", p_->streams.size(), p_->num_events);
  return Status::Ok();
}

void* SinkModel::Address(const TaskArg& a) const {
  if (a.offset < 0) return nullptr;
  if (a.segment == Segment::kWeights) return p_->WeightAddress(a.offset);
  return static_cast<uint8_t*>(feature_map_.data()) + a.offset;
}

// IO nodes: every argument that lies in an IO segment becomes a zero-copy
// slot of its input/output port; outputs the plan copies get their source.
Status SinkModel::InitIoNodes() {
  const MemoryPlan& plan = p_->plan;
  // Sized once: the HAL tasks and the IO slots point into these arrays.
  in_args_.assign(p_->in_args.size(), nullptr);
  out_args_.assign(p_->out_args.size(), nullptr);
  io_.Init(plan, static_cast<uint8_t*>(input_io_.data()), static_cast<uint8_t*>(output_io_.data()), in_args_.data(),
           out_args_.data());
  auto check = [&](const TaskArg& a, const char* what) -> Status {
    if (a.offset < 0) return Status::Ok();
    int64_t limit = a.segment == Segment::kWeights      ? plan.weights_size
                    : a.segment == Segment::kFeatureMap ? plan.feature_map_size
                    : a.segment == Segment::kInput      ? plan.input_size
                                                        : plan.output_size;
    if (a.offset > limit) return Corrupt(std::string("sink: ") + what + " offset " + std::to_string(a.offset) + " beyond its " + SegmentName(a.segment) + " segment");
    return Status::Ok();
  };
  size_t slots = 0;
  for (size_t i = 0; i < p_->in_args.size(); ++i) {
    const TaskArg& a = p_->in_args[i];
    GE_RETURN_IF_ERROR(check(a, "input"));
    if (a.offset >= 0 && (a.segment == Segment::kInput || a.segment == Segment::kOutput)) {
      GE_RETURN_IF_ERROR(io_.AddSlot(a, false, i));
      ++slots;
    } else {
      in_args_[i] = Address(a);
    }
  }
  for (size_t i = 0; i < p_->out_args.size(); ++i) {
    const TaskArg& a = p_->out_args[i];
    GE_RETURN_IF_ERROR(check(a, "output"));
    if (a.segment == Segment::kInput) return Corrupt("sink: a task writes a model input");
    if (a.segment == Segment::kOutput) {
      GE_RETURN_IF_ERROR(io_.AddSlot(a, true, i));
      ++slots;
    } else {
      out_args_[i] = Address(a);
    }
  }
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const IoBinding& b = plan.outputs[o];
    if (!b.copy) continue;
    GE_RETURN_IF_ERROR(check(b.source, "output source"));
    const bool io = b.source.segment == Segment::kInput || b.source.segment == Segment::kOutput;
    GE_RETURN_IF_ERROR(io_.AddOutputCopy(o, b.source, io ? nullptr : static_cast<const uint8_t*>(Address(b.source))));
  }
  in_scratch_.resize(p_->inputs.size());
  out_scratch_.resize(p_->outputs.size());
  spdlog::debug("sink InitIoNodes: {} inputs, {} outputs, {} zero-copy argument slots", plan.inputs.size(),
                plan.outputs.size(), slots);
  return Status::Ok();
}

// Nodes: every kernel (and its oneDNN primitives) is created here, once.
Status SinkModel::InitNodes() {
  kernels_.reserve(p_->specs.size());
  const hal::CpuComputeShare share(p_->streams.size());  // kernels sized for their stream's cores
  for (size_t k = 0; k < p_->specs.size(); ++k) {
    auto kernel = p_->kernels->Create(p_->specs[k]);
    if (!kernel.ok()) return kernel.status().Annotated("node " + p_->labels[k]);
    kernels_.push_back(std::move(kernel).value());
  }
  spdlog::debug("sink InitNodes: {} kernels created", kernels_.size());
  return Status::Ok();
}

// Task sink: each stream's list, with pointers resolved, handed to the HAL.
Status SinkModel::DistributeTask() {
  for (size_t s = 0; s < p_->streams.size(); ++s)
    for (size_t i = 0; i < p_->streams[s].size(); ++i) {
      const SinkTask& t = p_->streams[s][i];
      if (t.kind != hal::ModelTask::Kind::kKernel) continue;
      hal::ModelTask& m = desc_.streams[s][i];
      m.kernel = kernels_[t.kernel].get();
      m.inputs = in_args_.data() + t.in_begin;
      m.outputs = out_args_.data() + t.out_begin;
    }
  GE_ASSIGN_OR_RETURN(hal_, hal::CreateCpuModel(desc_));
  if (p_->options.profile) hal_->EnableTiming(true);
  spdlog::debug("sink DistributeTask: {} task lists handed to the HAL", desc_.streams.size());
  return Status::Ok();
}

Status SinkModel::LoadEnd() {
  loop_ = std::make_unique<RunLoop>(p_->options.queue_depth, p_->inputs.size(), p_->outputs.size(),
                                    [this](const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out) {
                                      return Execute(in, out, std::chrono::milliseconds(0));
                                    });
  spdlog::debug("sink LoadEnd: model {} ready ({} B own memory + {} B shared weights)", p_->name, instance_bytes(),
                p_->weights->size());
  return Status::Ok();
}

Result<std::unique_ptr<SinkLoadedModel>> SinkModel::Fork() const {
  auto m = std::make_unique<SinkModel>(p_);
  GE_RETURN_IF_ERROR(m->Load().Annotated("fork of " + p_->name));
  return std::unique_ptr<SinkLoadedModel>(std::move(m));
}

// ------------------------------------------------------------------ execute

Status SinkModel::Execute(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out,
                          std::chrono::milliseconds timeout) {
  std::lock_guard<std::mutex> lock(exec_mu_);
  GE_RETURN_IF_ERROR(io_.BindInputs(in));
  GE_RETURN_IF_ERROR(io_.BindOutputs(out));
  if (timeout.count() <= 0) timeout = p_->options.timeout;
  const hal::Model::Timeout t = timeout.count() > 0 ? hal::Model::Timeout(timeout) : hal::Model::kNoTimeout;
  GE_RETURN_IF_ERROR(hal_->Execute(t));
  io_.FinishOutputs(out);
  return Status::Ok();
}

Status SinkModel::Execute(const std::vector<const void*>& in, const std::vector<void*>& out) {
  if (in.size() != in_scratch_.size() || out.size() != out_scratch_.size())
    return InvalidArgument("model takes " + std::to_string(in_scratch_.size()) + " inputs and " +
                           std::to_string(out_scratch_.size()) + " outputs, got " + std::to_string(in.size()) + " and " +
                           std::to_string(out.size()));
  for (size_t i = 0; i < in.size(); ++i) in_scratch_[i] = DataBuffer{in[i], static_cast<size_t>(p_->plan.inputs[i].size)};
  for (size_t i = 0; i < out.size(); ++i)
    out_scratch_[i] = MutableBuffer{out[i], static_cast<size_t>(p_->plan.outputs[i].size)};
  return Execute(in_scratch_, out_scratch_, std::chrono::milliseconds(0));
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
      const SinkTask& t = p_->streams[s][i];
      TaskProfile tp;
      tp.stream = static_cast<int32_t>(s);
      tp.event = t.event;
      if (t.kind == hal::ModelTask::Kind::kKernel) {
        tp.name = p_->labels[t.kernel];
        tp.kernel = p_->specs[t.kernel].op;
      } else {
        tp.name = std::string(t.kind == hal::ModelTask::Kind::kEventRecord ? "record" : "wait") + " event " +
                  std::to_string(t.event);
        tp.kernel = "event";
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

const ExecuteStats* SinkStats(const SinkLoadedModel& m) {
  auto* s = dynamic_cast<const SinkModel*>(&m);
  return s ? &s->last_stats() : nullptr;
}

}  // namespace ge::v1

namespace ge {

Result<std::unique_ptr<SinkLoadedModel>> LoadSinkModel(const Model& model, const SinkOptions& options) {
  GE_ASSIGN_OR_RETURN(auto program, v1::BuildSinkProgram(model, options));
  auto m = std::make_unique<v1::SinkModel>(std::move(program));
  GE_RETURN_IF_ERROR(m->Load().Annotated("sink load of " + model.name));
  return std::unique_ptr<SinkLoadedModel>(std::move(m));
}

}  // namespace ge
