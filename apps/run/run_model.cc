#include "run/run_model.h"

#include <algorithm>
#include <chrono>
#include <cctype>

#include "ge/plan/memory_limit.h"
#include "ge_base/checked_math.h"
#include "hal/device.h"

namespace ge::run {
namespace {

// --device NAME|INDEX -> the registry name ("" = the .om's target). Index 0
// is the target itself (msame and ais_bench pass --device 0); there is one
// device of each kind on this machine.
Result<std::string> DeviceName(const std::string& flag, const Model& m) {
  if (flag.empty()) return std::string();
  if (std::all_of(flag.begin(), flag.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (flag.size() > 9 || std::stol(flag) != 0)
      return InvalidArgument("--device " + flag + ": no such device index (0 is the only " +
                             (m.target.empty() ? std::string("default") : m.target) + " device here)");
    return std::string();
  }
  auto d = hal::GetDevice(flag);
  if (!d.ok()) return d.status().Annotated("--device");
  return flag;
}

// The loader checked the model's own memory; ge-run adds a buffer per input
// and output (and one output set per --run_loop job), which must fit too.
Status CheckBuffersFit(const LoadedModel& m, int run_loop, int64_t max_memory) {
  int64_t in = 0, out = 0;
  for (const IoDesc& io : m.inputs()) in = CheckedAdd(in, std::max<int64_t>(io.desc.Bytes(), 0)).value_or(INT64_MAX);
  for (const IoDesc& io : m.outputs()) out = CheckedAdd(out, std::max<int64_t>(io.desc.Bytes(), 0)).value_or(INT64_MAX);
  const int64_t outs = CheckedMul(out, 1 + run_loop).value_or(INT64_MAX);
  const int64_t total =
      CheckedAdd(CheckedAdd(in, outs).value_or(INT64_MAX), static_cast<int64_t>(m.device_bytes())).value_or(INT64_MAX);
  const int64_t limit = EffectiveMemoryLimit(max_memory);
  if (total <= limit) return Status::Ok();
  return InvalidArgument("the loaded model (" + HumanBytes(static_cast<int64_t>(m.device_bytes())) +
                         ") and ge-run's input and output buffers (" + HumanBytes(in) + " + " + HumanBytes(outs) +
                         ") need " + HumanBytes(total) + ", more than the memory limit of " + HumanBytes(limit) +
                         " (--max_memory)");
}

}  // namespace

std::string DeviceList() {
  std::string s;
  for (const std::string& n : hal::DeviceNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Result<std::unique_ptr<RunModel>> RunModel::Load(const ModelFlags& flags) {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<RunModel> r(new RunModel());
  auto om = ReadOmFile(flags.path);
  if (!om.ok()) return om.status();
  r->om_ = std::move(om).value();
  auto device = DeviceName(flags.device, r->om_.model);
  if (!device.ok()) return device.status();
  r->device_ = device->empty() ? r->om_.model.target : *device;
  if (flags.sink && FindGearCase(r->om_.model)) {
    for (auto [flag, used] : {std::pair<const char*, bool>{"--timeout_ms", flags.timeout_ms > 0},
                              {"--profile / --profile_table", flags.profile}, {"--run_loop", flags.run_loop > 0}})
      if (used)
        return InvalidArgument(std::string(flag) + " runs one sink model; " + flags.path +
                               " has gears, each a sink model of its own, picked per inference");
    auto loaded = LoadModel(r->om_.model, LoadOptions{RunMode::kSink, *device, flags.max_memory});
    if (!loaded.ok()) return loaded.status().Annotated(flags.path);
    r->loaded_ = std::move(loaded).value();
  } else if (flags.sink) {
    SinkOptions so;
    so.timeout = std::chrono::milliseconds(flags.timeout_ms);
    so.profile = flags.profile;
    so.queue_depth = flags.run_loop > 0 ? static_cast<size_t>(std::min(flags.run_loop, 256)) : 16;
    so.device = *device;
    so.max_memory = flags.max_memory;
    auto id = ModelManager::Global().Load(r->om_.model, so);
    if (!id.ok()) return id.status().Annotated(flags.path);
    r->sink_id_ = *id;
    auto got = ModelManager::Global().Get(*id);
    if (!got.ok()) return got.status();
    r->sink_ = *got;
  } else {
    LoadOptions options{RunMode::kV2, *device, flags.max_memory};
    options.executor = flags.topological ? LoadOptions::Executor::kTopological : LoadOptions::Executor::kSequential;
    options.executor_threads = flags.executor_threads;
    options.profile = flags.profile;
    options.timeout = std::chrono::milliseconds(flags.timeout_ms);
    options.max_loop_iterations = flags.max_loop_iterations;
    auto loaded = LoadModel(r->om_.model, options);
    if (!loaded.ok()) return loaded.status().Annotated(flags.path);
    r->loaded_ = std::move(loaded).value();
  }
  r->load_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (auto s = CheckBuffersFit(r->model(), flags.run_loop, flags.max_memory); !s.ok()) return s.Annotated(flags.path);
  return r;
}

RunModel::~RunModel() {
  // Unload before sink_ is released, at every return of main (before static
  // destructors run), error paths included.
  if (sink_id_) (void)ModelManager::Global().Unload(sink_id_);
}

}  // namespace ge::run
