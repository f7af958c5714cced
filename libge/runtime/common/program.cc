#include "common/program.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <chrono>
#include <cstring>
#include <map>

#include <spdlog/spdlog.h>

#include "ge/ops/kernel_spec.h"
#include "ge/plan/link.h"
#include "ge/plan/verify.h"
#include "ge/plan/memory_limit.h"

namespace ge::rt {
namespace {

hal::ModelTask::Kind KindOf(Task::Kind k) {
  switch (k) {
    case Task::Kind::kEventRecord: return hal::ModelTask::Kind::kEventRecord;
    case Task::Kind::kEventWait: return hal::ModelTask::Kind::kEventWait;
    case Task::Kind::kLabelSet: return hal::ModelTask::Kind::kLabelSet;
    case Task::Kind::kLabelGoto: return hal::ModelTask::Kind::kLabelGoto;
    case Task::Kind::kLabelSwitch: return hal::ModelTask::Kind::kLabelSwitch;
    default: return hal::ModelTask::Kind::kKernel;
  }
}

// The spec of a linked model's control kernel: no node, its op and the
// descs of its arguments (ge/plan/link.h).
hal::KernelSpec ControlSpec(const Task& t) {
  hal::KernelSpec spec;
  spec.op = t.op;
  spec.name = t.node;
  if (t.op == "LoopTripCheck") spec.attrs.Set("count", t.count);
  for (const TensorDesc& d : t.in_descs) spec.inputs.push_back(hal::TensorInfo{d.dtype, d.dims, 0});
  for (const TensorDesc& d : t.out_descs) spec.outputs.push_back(hal::TensorInfo{d.dtype, d.dims, 0});
  return spec;
}

// The plan, the task lists flattened per stream (control flow linked into
// label tasks), event count = max event id + 1, kernel specs (GE's
// InitRuntimeParams).
using NodeIndex = std::map<std::string, const Node*>;

Status InitRuntimeParams(const Model& model, NodeIndex& by_name, Program& p) {
  // The runtime loads plans; it never makes one.
  if (model.memory.empty())
    return InvalidArgument("model " + model.name +
                           " has no memory plan: compile it first (ge::Compile, or ge-atc for a .om)");
  if (model.streams.empty())
    return InvalidArgument("model " + model.name + " has no task lists: compile it first (ge::Compile, or ge-atc for a .om)");
  // Every rule the kernels and the IO binder rely on, checked before any
  // kernel exists: a damaged model is refused, never run.
  const auto verify_start = std::chrono::steady_clock::now();
  GE_RETURN_IF_ERROR(VerifyModel(model).Annotated("model " + model.name));
  spdlog::debug("model check: {:.2f} ms", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - verify_start).count());
  GE_ASSIGN_OR_RETURN(LinkedPlan linked, LinkModel(model));
  p.name = model.name;
  p.inputs = model.inputs;
  p.outputs = model.outputs;
  p.plan = std::move(linked.memory);
  p.num_labels = linked.num_labels;
  by_name = std::move(linked.nodes);

  std::map<std::string, int32_t> step;
  for (size_t i = 0; i < p.plan.order.size(); ++i) step[p.plan.order[i]] = static_cast<int32_t>(i);
  for (const StreamTasks& st : linked.streams) {
    std::vector<ProgramTask> list;
    list.reserve(st.tasks.size());
    for (const Task& t : st.tasks) {
      ProgramTask s;
      s.kind = KindOf(t.kind);
      const bool label = t.kind == Task::Kind::kLabelSet || t.kind == Task::Kind::kLabelGoto;
      if (label) {
        s.label = t.label;
      } else if (t.kind == Task::Kind::kLabelSwitch) {
        s.labels_begin = static_cast<uint32_t>(p.switch_labels.size());
        s.labels_count = static_cast<uint32_t>(t.labels.size());
        p.switch_labels.insert(p.switch_labels.end(), t.labels.begin(), t.labels.end());
      } else if (s.kind != hal::ModelTask::Kind::kKernel) {
        if (t.event < 0) return Corrupt("stream " + std::to_string(st.stream) + ": event task without an event id");
        s.event = t.event;
        p.num_events = std::max(p.num_events, t.event + 1);
      } else if (!t.op.empty()) {
        s.kernel = static_cast<int32_t>(p.specs.size());
        p.specs.push_back(ControlSpec(t));
        p.labels.push_back(t.node + " (" + t.op + ")");
        p.steps.push_back(-1);
      } else {
        auto it = by_name.find(t.node);
        if (it == by_name.end()) return Corrupt("task for unknown node " + t.node);
        s.kernel = static_cast<int32_t>(p.specs.size());
        p.specs.push_back(BuildKernelSpec(*it->second));
        for (size_t i = 0; i < it->second->num_inputs(); ++i)  // packed_inputs point into these
          if (const Tensor* packed = it->second->GetTensor(PackedInputAttr(i))) p.packed.push_back(*packed);
        p.labels.push_back(t.node + " (" + it->second->type() + ")");
        auto at = step.find(t.node);
        p.steps.push_back(at == step.end() ? -1 : at->second);
      }
      if (s.kind == hal::ModelTask::Kind::kKernel || s.kind == hal::ModelTask::Kind::kLabelSwitch) {
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
  spdlog::debug("InitRuntimeParams: {} streams, {} tasks ({} kernels), {} events; weights {} B, feature map {} B, io {} + {} B",
                p.streams.size(), p.num_tasks, p.specs.size(), p.num_events, p.plan.weights_size,
                p.plan.feature_map_size, p.plan.input_size, p.plan.output_size);
  return Status::Ok();
}

// The weights segment, every constant at its plan offset; kernels see their
// constant inputs there (const_inputs) and may pre-pack them (GE's
// InitWeightMem).
// Whether every constant of the plan already lies at its offset in the
// model's weights image (a .om written by ge-atc, mapped): then that image is
// the weights segment as it is.
bool ImageIsSegment(const Model& model, const NodeIndex& by_name, const Program& p) {
  const Model::WeightsImage& img = model.weights_image;
  if (!img.data || p.plan.weights_size <= 0 || static_cast<uint64_t>(p.plan.weights_size) > img.size) return false;
  if (reinterpret_cast<uintptr_t>(img.data) % hal::kDefaultAlignment != 0) return false;
  for (const BufferPlan& b : p.plan.buffers) {
    if (b.segment != Segment::kWeights) continue;
    auto it = by_name.find(b.node);
    if (it == by_name.end() || it->second->type() != op::kConst) continue;
    const Tensor* t = it->second->GetTensor("value");
    if (!t || t->data() != img.data + b.offset || static_cast<int64_t>(t->size()) != b.size) return false;
  }
  return true;
}

Status InitWeightMem(const Model& model, const NodeIndex& by_name, Program& p, WeightPool* pool) {
  std::shared_ptr<const hal::DeviceBuffer> segment;
  if (p.device->capabilities().host_memory && ImageIsSegment(model, by_name, p)) {
    // Kernels read the mapped file: no copy, and pages no kernel reads (the
    // plain form of weights a kernel keeps packed) never become resident.
    // The model check proved no task writes to the weights segment.
    auto keep = model.weights_image.owner;
    segment = std::shared_ptr<const hal::DeviceBuffer>(
        new hal::DeviceBuffer(const_cast<uint8_t*>(model.weights_image.data), static_cast<size_t>(p.plan.weights_size),
                              nullptr),
        [keep](const hal::DeviceBuffer* b) { delete b; });
    spdlog::debug("InitWeightMem: the {} B weights segment used in place", p.plan.weights_size);
  } else {
    GE_ASSIGN_OR_RETURN(hal::DeviceBuffer w, p.device->Allocate(std::max<int64_t>(p.plan.weights_size, 1)));
    std::memset(w.data(), 0, w.size());  // the alignment gaps too: equal segments compare equal (WeightPool)
    size_t copied = 0;
    for (const BufferPlan& b : p.plan.buffers) {
      if (b.segment != Segment::kWeights) continue;
      auto it = by_name.find(b.node);
      if (it == by_name.end() || it->second->type() != op::kConst) continue;  // a Reshape of a constant shares it
      const Tensor* t = it->second->GetTensor("value");
      if (!t || static_cast<int64_t>(t->size()) != b.size || b.offset < 0 || b.offset > p.plan.weights_size ||
          b.size > p.plan.weights_size - b.offset)
        return Corrupt("constant " + b.node + " does not match its plan");
      if (t->size()) std::memcpy(static_cast<uint8_t*>(w.data()) + b.offset, t->data(), t->size());
      copied += t->size();
    }
    segment = std::make_shared<const hal::DeviceBuffer>(std::move(w));
    spdlog::debug("InitWeightMem: {} B of constants into a {} B weights segment", copied, p.plan.weights_size);
  }
  p.weights = pool ? pool->Share(std::move(segment)) : std::move(segment);
  size_t k = 0;
  for (const auto& stream : p.streams)
    for (const ProgramTask& t : stream) {
      if (t.kind != hal::ModelTask::Kind::kKernel) continue;
      hal::KernelSpec& spec = p.specs[k++];
      spec.const_inputs.clear();
      for (uint32_t a = 0; a < t.in_count; ++a) {
        const TaskArg& arg = p.in_args[t.in_begin + a];
        const bool constant = arg.offset >= 0 && arg.segment == Segment::kWeights;
        spec.const_inputs.push_back(constant ? p.WeightAddress(arg.offset) : nullptr);
      }
    }
  return Status::Ok();
}

}  // namespace

std::shared_ptr<const hal::DeviceBuffer> WeightPool::Share(std::shared_ptr<const hal::DeviceBuffer> segment) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& s : segments_)
    if (s->size() == segment->size() && std::memcmp(s->data(), segment->data(), segment->size()) == 0) return s;
  segments_.push_back(std::move(segment));
  return segments_.back();
}

size_t WeightPool::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& s : segments_) n += s->size();
  return n;
}

void WeightPool::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  segments_.clear();
}

Result<std::unique_ptr<hal::Kernel>> CreateKernel(const Program& p, int32_t k) {
  auto kernel = p.device->kernels().Create(p.specs[k]);
  if (!kernel.ok() || !p.wrap_kernel) return kernel;
  return p.wrap_kernel(k, std::move(kernel).value());
}

Result<std::vector<std::unique_ptr<hal::Kernel>>> CreateKernels(const Program& p, const std::vector<int32_t>& ids,
                                                                size_t num_streams) {
  std::vector<std::unique_ptr<hal::Kernel>> kernels(ids.size());
  std::vector<Status> errors(ids.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    const auto share = p.device->ShareCompute(num_streams);  // per thread, as the runtimes' own
    for (size_t i = next++; i < ids.size(); i = next++) {
      auto k = CreateKernel(p, ids[i]);
      if (k.ok()) kernels[i] = std::move(k).value();
      else errors[i] = k.status();
    }
  };
  const size_t workers = std::min<size_t>(ids.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();  // the caller is one of the workers
  for (std::thread& t : threads) t.join();
  for (Status& e : errors)
    if (!e.ok()) return e;  // names its node already (hal/kernel.h)
  return kernels;
}

Result<hal::Device*> ResolveDevice(const Model& model, const std::string& requested) {
  const std::string& name = requested.empty() ? model.target : requested;
  auto d = hal::GetDevice(name);
  if (!d.ok() && requested.empty() && !name.empty())
    return d.status().Annotated("model " + model.name + " was compiled for device '" + name + "'");
  return d;
}

Result<std::shared_ptr<const Program>> BuildProgram(const Model& model, hal::Device& device, int64_t max_memory,
                                                    WeightPool* pool) {
  if (!model.graph) return Corrupt("model " + model.name + " has no graph");
  GE_RETURN_IF_ERROR(CheckMemoryLimit(model, EffectiveMemoryLimit(max_memory)));
  auto p = std::make_shared<Program>();
  p->device = &device;
  NodeIndex by_name;  // the linked plan's nodes, subgraph ones by path
  GE_RETURN_IF_ERROR(InitRuntimeParams(model, by_name, *p));
  GE_RETURN_IF_ERROR(InitWeightMem(model, by_name, *p, pool));
  // Only the segment sizes and IO bindings are needed from here on.
  p->plan.buffers = {};
  p->plan.order = {};
  return std::shared_ptr<const Program>(std::move(p));
}

}  // namespace ge::rt
