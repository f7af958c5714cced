// RunWithOpDump: a debug load whose kernels copy their outputs right after
// they run. The program is the normal one with Program::wrap_kernel set, so
// both runtimes create (and v2 lowers, sink distributes) exactly what they
// would otherwise; only the kernels are wrapped.
#include "ge/op_dump.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>

#include <spdlog/spdlog.h>

#include "common/program.h"
#include "v1/sink_model.h"
#include "v2/model_v2.h"

namespace ge {
namespace {

// What one kernel task left in its outputs at its last run.
struct OpCapture {
  std::vector<hal::DeviceBuffer> outputs;  // one per output, in the kernel's own layout
  bool ran = false;
  bool perturb = false;
};

void AddToFloats(const hal::TensorInfo& info, void* data, float value) {
  const int64_t n = info.NumElements();
  if (info.dtype == DataType::kFloat32) {
    auto* f = static_cast<float*>(data);
    for (int64_t i = 0; i < n; ++i) f[i] += value;
  } else if (info.dtype == DataType::kFloat64) {
    auto* d = static_cast<double*>(data);
    for (int64_t i = 0; i < n; ++i) d[i] += value;
  }
}

// The wrapped kernel: runs the real one, then (test only) perturbs and copies
// each output into its capture. Runs on the task's thread; each capture is
// written by its own kernel only.
class DumpingKernel final : public hal::Kernel {
 public:
  DumpingKernel(std::unique_ptr<hal::Kernel> inner, const hal::KernelSpec& spec, OpCapture& capture, float perturb)
      : inner_(std::move(inner)), spec_(spec), capture_(capture), perturb_(perturb) {}

  Status Run(const void* const* inputs, void* const* outputs) override {
    GE_RETURN_IF_ERROR(inner_->Run(inputs, outputs));
    for (size_t j = 0; j < spec_.outputs.size(); ++j) {
      if (capture_.perturb) AddToFloats(spec_.outputs[j], outputs[j], perturb_);
      const size_t bytes = spec_.outputs[j].Bytes();
      if (bytes) std::memcpy(capture_.outputs[j].data(), outputs[j], bytes);
    }
    capture_.ran = true;
    return Status::Ok();
  }

 private:
  std::unique_ptr<hal::Kernel> inner_;
  const hal::KernelSpec& spec_;  // in the program, which outlives the kernel
  OpCapture& capture_;
  float perturb_;
};

// A copy of a captured output in plain row-major layout: blocked and
// channels-last tensors go through the device's TransData kernel.
Result<std::vector<uint8_t>> PlainBytes(hal::Device& device, const hal::KernelSpec& spec, size_t j,
                                        const hal::DeviceBuffer& raw) {
  const hal::TensorInfo& info = spec.outputs[j];
  const auto* data = static_cast<const uint8_t*>(raw.data());
  if (info.channel_block == 0) return std::vector<uint8_t>(data, data + info.Bytes());
  hal::KernelSpec trans;
  trans.op = "TransData";
  trans.name = spec.name + ":" + std::to_string(j) + " (op dump)";
  trans.inputs = {info};
  trans.outputs = {info};
  trans.outputs[0].channel_block = 0;
  GE_ASSIGN_OR_RETURN(auto kernel, device.kernels().Create(trans));
  GE_ASSIGN_OR_RETURN(hal::DeviceBuffer plain, device.Allocate(std::max<size_t>(info.Bytes(), 1)));
  const void* in[] = {raw.data()};
  void* out[] = {plain.data()};
  GE_RETURN_IF_ERROR(kernel->Run(in, out));
  const auto* p = static_cast<const uint8_t*>(plain.data());
  return std::vector<uint8_t>(p, p + info.Bytes());
}

Result<std::unique_ptr<LoadedModel>> LoadForDump(std::shared_ptr<const rt::Program> program, const OpDumpOptions& o) {
  LoadOptions options;
  options.mode = o.mode;
  options.device = o.device;
  options.max_memory = o.max_memory;
  if (o.mode == RunMode::kV2) return v2::LoadV2(std::move(program), options);
  auto m = std::make_unique<v1::SinkModel>(std::move(program), options);
  GE_RETURN_IF_ERROR(m->Load());
  return std::unique_ptr<LoadedModel>(std::move(m));
}

}  // namespace

Result<std::vector<OpOutput>> RunWithOpDump(const Model& model, const OpDumpOptions& options,
                                            const std::vector<const void*>& inputs) {
  GE_ASSIGN_OR_RETURN(hal::Device * device, rt::ResolveDevice(model, options.device));
  GE_ASSIGN_OR_RETURN(auto built, rt::BuildProgram(model, *device, options.max_memory));
  auto program = std::make_shared<rt::Program>(*built);  // shares the weights

  // One capture per kernel task, its buffers allocated here, not per run.
  std::vector<OpCapture> captures(program->specs.size());
  bool perturb_found = options.perturb_op.empty();
  for (size_t k = 0; k < captures.size(); ++k) {
    for (const hal::TensorInfo& info : program->specs[k].outputs) {
      GE_ASSIGN_OR_RETURN(const size_t bytes, info.CheckedBytes());
      GE_ASSIGN_OR_RETURN(hal::DeviceBuffer b, device->Allocate(std::max<size_t>(bytes, 1)));
      captures[k].outputs.push_back(std::move(b));
    }
    if (!options.perturb_op.empty() && program->specs[k].name == options.perturb_op)
      perturb_found = captures[k].perturb = true;
  }
  if (!perturb_found)
    return InvalidArgument("op to perturb " + options.perturb_op + ": the model has no kernel task of that name");
  const rt::Program* p = program.get();
  const float perturb = options.perturb_value;
  program->wrap_kernel = [p, &captures, perturb](int32_t k, std::unique_ptr<hal::Kernel> kernel)
      -> Result<std::unique_ptr<hal::Kernel>> {
    return std::unique_ptr<hal::Kernel>(std::make_unique<DumpingKernel>(std::move(kernel), p->specs[k], captures[k], perturb));
  };

  GE_ASSIGN_OR_RETURN(auto loaded, LoadForDump(program, options));
  if (inputs.size() != loaded->inputs().size())
    return InvalidArgument("op dump: the model takes " + std::to_string(loaded->inputs().size()) + " inputs, " +
                           std::to_string(inputs.size()) + " given");
  std::vector<std::vector<uint8_t>> out_bytes;
  std::vector<void*> outs;
  for (const IoDesc& io : loaded->outputs()) out_bytes.emplace_back(std::max<int64_t>(io.desc.Bytes(), 1));
  for (auto& b : out_bytes) outs.push_back(b.data());
  GE_RETURN_IF_ERROR(loaded->Execute(inputs, outs));

  // Execution order: the plan's step of each kernel's node (both runtimes
  // respect it), kernels outside the plan's order last.
  std::vector<size_t> order(captures.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto step = [p](size_t k) { return p->steps[k] < 0 ? INT32_MAX : p->steps[k]; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return step(a) < step(b); });

  std::vector<OpOutput> dump;
  for (size_t k : order) {
    const hal::KernelSpec& spec = p->specs[k];
    if (!captures[k].ran) continue;  // a kernel in a branch not taken
    const Node* node = model.graph->FindNode(spec.name);
    for (size_t j = 0; j < spec.outputs.size(); ++j) {
      OpOutput o;
      o.node = spec.name;
      o.type = node ? node->type() : spec.op;
      o.output = static_cast<int32_t>(j);
      if (node)
        for (const Node* in : node->InNodes()) o.inputs.push_back(in->name());
      const hal::TensorInfo& info = spec.outputs[j];
      o.desc = TensorDesc(info.dtype, info.dims, info.channel_block != 0 ? Format::kNCHW : Format::kND);
      auto bytes = PlainBytes(*device, spec, j, captures[k].outputs[j]);
      if (!bytes.ok()) return bytes.status().Annotated("op dump of " + spec.name + " output " + std::to_string(j));
      o.bytes = std::move(bytes).value();
      dump.push_back(std::move(o));
    }
  }
  spdlog::debug("op dump: {} outputs of {} kernel tasks", dump.size(), captures.size());
  return dump;
}

}  // namespace ge
