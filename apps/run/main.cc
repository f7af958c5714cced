// ge-run: load a .om, execute it, compare against golden outputs, benchmark.
// Flag names follow msame where they exist.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "common/app_common.h"
#include "ge/tools/benchmark.h"
#include "ge/tools/compare.h"
#include "ge_base/file_io.h"
#include "ge/tools/npy.h"
#include "ge/om.h"
#include "ge/plan/memory_limit.h"
#include "ge/runtime.h"
#include "ge_base/checked_math.h"
#include "hal/device.h"

namespace {

constexpr const char* kTool = "ge-run";

// 64-byte aligned, zeroed bytes: the sink runtime binds such buffers
// zero-copy. data is null when memory is short (AppendBuffer reports it).
struct AlignedBytes {
  explicit AlignedBytes(size_t n) : size(n) {
    const auto rounded = ge::CheckedAlignUp(static_cast<int64_t>(std::max<size_t>(n, 1)), 64);
    data = rounded ? static_cast<uint8_t*>(std::aligned_alloc(64, static_cast<size_t>(*rounded))) : nullptr;
    if (data) std::memset(data, 0, size);
  }
  ~AlignedBytes() { std::free(data); }
  AlignedBytes(AlignedBytes&& o) noexcept : size(o.size), data(o.data) { o.data = nullptr; }
  AlignedBytes(const AlignedBytes&) = delete;
  size_t size;
  uint8_t* data = nullptr;
};

// Appends a buffer of n bytes; an error naming `what` when it cannot be had.
ge::Status AppendBuffer(std::vector<AlignedBytes>& bufs, size_t n, const std::string& what) {
  bufs.emplace_back(n);
  if (bufs.back().data) return ge::Status::Ok();
  bufs.pop_back();
  return ge::Internal("out of memory: cannot allocate " + ge::HumanBytes(static_cast<int64_t>(n)) + " for " + what);
}

// The loader checked the model's own memory; ge-run adds a buffer per input
// and output (and one output set per --run_loop job), which must fit too.
ge::Status CheckBuffersFit(const ge::LoadedModel& m, int run_loop, int64_t max_memory) {
  int64_t in = 0, out = 0;
  for (const ge::IoDesc& io : m.inputs()) in = ge::CheckedAdd(in, std::max<int64_t>(io.desc.Bytes(), 0)).value_or(INT64_MAX);
  for (const ge::IoDesc& io : m.outputs()) out = ge::CheckedAdd(out, std::max<int64_t>(io.desc.Bytes(), 0)).value_or(INT64_MAX);
  const int64_t outs = ge::CheckedMul(out, 1 + run_loop).value_or(INT64_MAX);
  const int64_t total = ge::CheckedAdd(ge::CheckedAdd(in, outs).value_or(INT64_MAX), static_cast<int64_t>(m.device_bytes()))
                            .value_or(INT64_MAX);
  const int64_t limit = ge::EffectiveMemoryLimit(max_memory);
  if (total <= limit) return ge::Status::Ok();
  return ge::InvalidArgument("the loaded model (" + ge::HumanBytes(static_cast<int64_t>(m.device_bytes())) +
                             ") and ge-run's input and output buffers (" + ge::HumanBytes(in) + " + " +
                             ge::HumanBytes(outs) + ") need " + ge::HumanBytes(total) +
                             ", more than the memory limit of " + ge::HumanBytes(limit) + " (--max_memory)");
}

std::string DeviceList() {
  std::string s;
  for (const std::string& n : ge::hal::DeviceNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// --device NAME|INDEX -> the registry name ("" = the .om's target). Index 0
// is the target itself (msame and ais_bench pass --device 0); there is one
// device of each kind on this machine.
ge::Result<std::string> DeviceName(const std::string& flag, const ge::Model& m) {
  if (flag.empty()) return std::string();
  if (std::all_of(flag.begin(), flag.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (flag.size() > 9 || std::stol(flag) != 0)
      return ge::InvalidArgument("--device " + flag + ": no such device index (0 is the only " +
                                 (m.target.empty() ? std::string("default") : m.target) + " device here)");
    return std::string();
  }
  auto d = ge::hal::GetDevice(flag);
  if (!d.ok()) return d.status().Annotated("--device");
  return flag;
}

std::string SafeFileName(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return s.empty() ? "output" : s;
}

int Main(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, Main, argc, argv); }

namespace {

int Main(int argc, char** argv) {
  CLI::App app{
      "ge-run: load a .om written by ge-atc and execute it on a device (the CPU backend here).\n\n"
      "  ge-run --model m.om --input x.npy --compare y.npy            # run once, check against golden\n"
      "  ge-run --model m.om --input random --loop 100 --warmup 10     # benchmark\n"
      "  ge-run --model m.om --mode sink --run_loop 256                # serving throughput\n"
      "  ge-run --model m.om --mode sink --loop 20 --profile trace.json # Chrome/Perfetto trace\n\n"
      "Modes: v2 (default) lowers the model to an ExecuteGraph (Init/Main/DeInit) run by the\n"
      "sequential executor; sink (runtime v1, GE's DavinciModel) prepares everything at load and\n"
      "runs the whole model with one HAL call per inference (docs/runtime-sink.md).\n"
      "--compare passes when max|y-ref| <= 1e-3*max|ref| + 1e-5 and cosine >= 0.99999 for every\n"
      "output; it prints max abs diff, cosine and PASS/FAIL and exits 1 on FAIL.",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, input, output_dir, mode = "v2", compare, log = "warning";
  int loop = 1, warmup = 0;
  uint32_t seed = 0;
  bool json = false, async = false;
  int64_t timeout_ms = 0;
  int run_loop = 0;
  std::string profile, device;
  app.add_option("--model", model, "The .om file to run")->required();
  app.add_option("--device", device,
                 "The device to run on: a registered device name (" + DeviceList() +
                     ") or a device index (0 is the device the .om was compiled for). Default: the .om's target");
  app.add_option("--input", input, "Comma-separated .npy files, one per model input in order, or 'random' (default)");
  app.add_option("--output", output_dir, "Directory to write each output as NAME.npy (created if missing)");
  app.add_option("--mode", mode, "Runtime: v2 (default) or sink (tasks pre-distributed at load, one HAL call per inference)")->check(CLI::IsMember({"v2", "sink"}));
  app.add_option("--compare", compare, "Comma-separated golden .npy files, one per model output");
  app.add_option("--loop", loop, "Timed inferences (latency p50/p90/p99 and throughput are printed when > 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", warmup, "Untimed inferences before the timed ones")->check(CLI::NonNegativeNumber);
  app.add_option("--seed", seed, "Seed for --input random");
  app.add_flag("--json", json, "Print a machine-readable JSON summary on stdout instead of text");
  app.add_option("--timeout_ms", timeout_ms,
                 "Sink: abort an inference that takes longer than this (ms) and fail with a timeout error (0: none)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--run_loop", run_loop,
                 "Sink: queue N inferences on the model thread (run loop), report throughput (inferences/s) and "
                 "per-inference latency from submit to callback")
      ->check(CLI::PositiveNumber);
  app.add_flag("--async", async, "Sink: run the timed inferences through ExecuteAsync (a future per inference)");
  app.add_option("--profile", profile,
                 "Sink: write a Chrome trace (chrome://tracing, Perfetto) of up to 20 timed runs: one lane per "
                 "stream, one slice per task, event waits with arrows");
  std::string max_memory;
  app.add_option("--max_memory", max_memory,
                 "Refuse at load a model with a tensor, segment or total above SIZE (bytes, or with K, M, G, T: "
                 "24G; at most 1T). Default: this machine's memory");
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  CLI11_PARSE(app, argc, argv);
  if (auto s = ge::app::SetupLogging(log); !s.ok()) return ge::app::Fail(kTool, s);
  auto memory_limit = ge::app::ParseMaxMemory(max_memory);
  if (!memory_limit.ok()) return ge::app::Fail(kTool, memory_limit.status());

  const bool sink = mode == "sink";
  for (auto [flag, used] : {std::pair<const char*, bool>{"--timeout_ms", timeout_ms > 0}, {"--run_loop", run_loop > 0},
                            {"--async", async}, {"--profile", !profile.empty()}})
    if (used && !sink) return ge::app::Fail(kTool, ge::InvalidArgument(std::string(flag) + " needs --mode sink"));

  auto t_load = std::chrono::steady_clock::now();
  auto om = ge::ReadOmFile(model);
  if (!om.ok()) return ge::app::Fail(kTool, om.status());
  auto device_name = DeviceName(device, om->model);
  if (!device_name.ok()) return ge::app::Fail(kTool, device_name.status());
  std::unique_ptr<ge::LoadedModel> v2_model;
  std::shared_ptr<ge::SinkLoadedModel> sink_model;
  // Unloads at every return of main (before static destructors run), the
  // error paths included; declared after sink_model so it runs first.
  struct Unloader {
    uint32_t id = 0;
    ~Unloader() {
      if (id) (void)ge::ModelManager::Global().Unload(id);
    }
  } unloader;
  if (sink) {
    ge::SinkOptions so;
    so.timeout = std::chrono::milliseconds(timeout_ms);
    so.profile = !profile.empty();
    so.queue_depth = run_loop > 0 ? static_cast<size_t>(std::min(run_loop, 256)) : 16;
    so.device = *device_name;
    so.max_memory = *memory_limit;
    auto id = ge::ModelManager::Global().Load(om->model, so);
    if (!id.ok()) return ge::app::Fail(kTool, id.status().Annotated(model));
    unloader.id = *id;
    auto got = ge::ModelManager::Global().Get(*id);
    if (!got.ok()) return ge::app::Fail(kTool, got.status());
    sink_model = *got;
  } else {
    auto loaded = ge::LoadModel(om->model, ge::LoadOptions{ge::RunMode::kV2, *device_name, *memory_limit});
    if (!loaded.ok()) return ge::app::Fail(kTool, loaded.status().Annotated(model));
    v2_model = std::move(loaded).value();
  }
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_load).count();
  ge::LoadedModel& m = sink ? static_cast<ge::LoadedModel&>(*sink_model) : *v2_model;
  if (auto s = CheckBuffersFit(m, run_loop, *memory_limit); !s.ok()) return ge::app::Fail(kTool, s.Annotated(model));

  // Inputs.
  std::vector<AlignedBytes> in_data;
  std::vector<std::string> in_files = input.empty() || input == "random" ? std::vector<std::string>{} : ge::app::SplitList(input, ',');
  if (!in_files.empty() && in_files.size() != m.inputs().size())
    return ge::app::Fail(kTool, ge::InvalidArgument("--input: the model takes " + std::to_string(m.inputs().size()) +
                                                   " inputs, " + std::to_string(in_files.size()) + " files given"));
  for (size_t i = 0; i < m.inputs().size(); ++i) {
    const ge::IoDesc& io = m.inputs()[i];
    if (in_files.empty()) {
      auto bytes = ge::tools::RandomTensorBytes(io.desc, seed + static_cast<uint32_t>(i));
      if (auto s = AppendBuffer(in_data, bytes.size(), "input " + io.name); !s.ok()) return ge::app::Fail(kTool, s);
      if (!bytes.empty()) std::memcpy(in_data.back().data, bytes.data(), bytes.size());
      continue;
    }
    auto arr = ge::ReadNpy(in_files[i]);
    if (!arr.ok()) return ge::app::Fail(kTool, arr.status().Annotated("--input"));
    if (arr->desc.dtype != io.desc.dtype || arr->desc.dims != io.desc.dims)
      return ge::app::Fail(kTool, ge::InvalidArgument("--input " + in_files[i] + " is " + arr->desc.ToString() + ", input " +
                                                     std::to_string(i) + " (" + io.name + ") of the model is " +
                                                     io.desc.ToString()));
    if (auto s = AppendBuffer(in_data, arr->bytes.size(), "input " + io.name); !s.ok()) return ge::app::Fail(kTool, s);
    if (!arr->bytes.empty()) std::memcpy(in_data.back().data, arr->bytes.data(), arr->bytes.size());
  }
  std::vector<const void*> in_ptrs;
  std::vector<ge::DataBuffer> in_bufs;
  for (auto& d : in_data) {
    in_ptrs.push_back(d.data);
    in_bufs.push_back({d.data, d.size});
  }
  std::vector<AlignedBytes> out_data;
  std::vector<void*> out_ptrs;
  std::vector<ge::MutableBuffer> out_bufs;
  for (const auto& io : m.outputs()) {
    if (auto s = AppendBuffer(out_data, static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)), "output " + io.name);
        !s.ok())
      return ge::app::Fail(kTool, s);
    out_ptrs.push_back(out_data.back().data);
    out_bufs.push_back({out_data.back().data, out_data.back().size});
  }
  std::vector<std::string> golden_files = ge::app::SplitList(compare, ',');
  if (!golden_files.empty() && golden_files.size() != m.outputs().size())
    return ge::app::Fail(kTool, ge::InvalidArgument("--compare: the model has " + std::to_string(m.outputs().size()) +
                                                   " outputs, " + std::to_string(golden_files.size()) + " files given"));
  std::vector<ge::NpyArray> goldens;
  for (const auto& f : golden_files) {
    auto g = ge::ReadNpy(f);
    if (!g.ok()) return ge::app::Fail(kTool, g.status().Annotated("--compare"));
    goldens.push_back(std::move(g).value());
  }

  // Run. The sink path passes sized buffers (zero-copy when aligned, which ours are).
  auto execute_once = [&]() -> ge::Status {
    if (!sink) return m.Execute(in_ptrs, out_ptrs);
    if (async) return sink_model->ExecuteAsync(in_bufs, out_bufs).get();
    return sink_model->Execute(in_bufs, out_bufs, std::chrono::milliseconds(0));
  };
  for (int i = 0; i < warmup; ++i)
    if (auto s = execute_once(); !s.ok()) return ge::app::Fail(kTool, s);
  std::vector<double> ms;
  ms.reserve(loop);
  std::vector<std::vector<ge::TaskProfile>> profiles;
  for (int i = 0; i < loop; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (auto s = execute_once(); !s.ok()) return ge::app::Fail(kTool, s);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (!profile.empty() && profiles.size() < 20) profiles.push_back(sink_model->Profile());
  }
  const ge::tools::Latency lat = ge::tools::Percentiles(ms);

  // Run loop: N inferences queued on the model thread, each with its own
  // output buffers; throughput over the wall time of all N.
  nlohmann::ordered_json run_loop_json;
  std::string run_loop_line;  // printed with the other results
  if (run_loop > 0) {
    std::vector<std::vector<AlignedBytes>> job_out(static_cast<size_t>(run_loop));
    std::vector<std::vector<ge::MutableBuffer>> job_bufs(static_cast<size_t>(run_loop));
    for (int k = 0; k < run_loop; ++k)
      for (const auto& io : m.outputs()) {
        if (auto s = AppendBuffer(job_out[k], static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)), "output " + io.name);
            !s.ok())
          return ge::app::Fail(kTool, s.Annotated("--run_loop"));
        job_bufs[k].push_back({job_out[k].back().data, job_out[k].back().size});
      }
    std::vector<double> job_ms(static_cast<size_t>(run_loop), 0);
    std::vector<std::chrono::steady_clock::time_point> submitted(static_cast<size_t>(run_loop));
    std::atomic<int> failed{0};
    std::mutex err_mu;
    ge::Status first_error;
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < run_loop; ++k) {
      submitted[k] = std::chrono::steady_clock::now();
      auto* slot = &job_ms[k];
      auto* sub = &submitted[k];
      sink_model->ExecuteAsync(in_bufs, job_bufs[k], [slot, sub, &failed, &err_mu, &first_error](ge::Status s) {
        *slot = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *sub).count();
        if (!s.ok() && failed.fetch_add(1) == 0) {
          std::lock_guard<std::mutex> lock(err_mu);
          first_error = s;
        }
      });
    }
    sink_model->Drain();
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (failed.load() > 0) return ge::app::Fail(kTool, first_error.Annotated("--run_loop"));
    for (size_t j = 0; j < out_data.size(); ++j) std::memcpy(out_data[j].data, job_out.back()[j].data, out_data[j].size);
    const ge::tools::Latency jl = ge::tools::Percentiles(job_ms);
    const double tput = wall_ms > 0 ? run_loop * 1000.0 / wall_ms : 0;
    run_loop_json = {{"inferences", run_loop}, {"wall_ms", wall_ms}, {"throughput_per_s", tput},
                     {"latency_ms", {{"p50", jl.p50}, {"p90", jl.p90}, {"p99", jl.p99}, {"mean", jl.mean}}}};
    char line[256];
    std::snprintf(line, sizeof line,
                  "run loop: %d inferences in %.3f ms: throughput %.1f/s; latency from submit p50 %.3f ms, p99 %.3f ms",
                  run_loop, wall_ms, tput, jl.p50, jl.p99);
    run_loop_line = line;
  }
  if (!profile.empty()) {
    if (auto s = ge::WriteFileAtomically(profile, ge::ChromeTraceJson(profiles, om->model.name)); !s.ok())
      return ge::app::Fail(kTool, s.Annotated("--profile"));
  }

  // Outputs.
  if (!output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(output_dir, ec);
    if (ec) return ge::app::Fail(kTool, ge::IoError("--output " + output_dir + ": " + ec.message()));
    for (size_t i = 0; i < m.outputs().size(); ++i) {
      const std::string path = output_dir + "/" + SafeFileName(m.outputs()[i].name) + ".npy";
      if (auto s = ge::WriteNpy(path, m.outputs()[i].desc, out_ptrs[i]); !s.ok()) return ge::app::Fail(kTool, s);
    }
  }
  bool all_pass = true;
  nlohmann::ordered_json j;
  j["model"] = model;
  j["mode"] = mode;
  j["device"] = device_name->empty() ? om->model.target : *device_name;
  j["load_ms"] = load_ms;
  j["device_bytes"] = m.device_bytes();
  if (sink) {
    j["streams"] = sink_model->num_streams();
    j["tasks"] = sink_model->num_tasks();
    j["timeout_ms"] = timeout_ms;
    j["async"] = async;
    if (!profile.empty()) j["profile"] = profile;
    if (run_loop > 0) j["run_loop"] = run_loop_json;
  }
  nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
  if (!json) std::printf("model %s (%s mode), loaded in %.1f ms\n", model.c_str(), mode.c_str(), load_ms);
  for (size_t i = 0; i < m.outputs().size(); ++i) {
    const ge::IoDesc& io = m.outputs()[i];
    nlohmann::ordered_json o = {{"name", io.name}, {"desc", io.desc.ToString()}};
    if (!goldens.empty()) {
      ge::CompareResult r = ge::CompareTensors(io.desc, out_ptrs[i], goldens[i]);
      all_pass &= r.pass;
      o["max_abs_diff"] = r.max_abs_diff;
      o["cosine"] = r.cosine;
      o["pass"] = r.pass;
      if (!r.pass) o["reason"] = r.reason;
      if (!json)
        std::printf("output %zu (%s) %s: max abs diff %.3g (max |ref| %.3g), cosine %.7f: %s%s%s\n", i, io.name.c_str(),
                    io.desc.ToString().c_str(), r.max_abs_diff, r.max_abs_ref, r.cosine, r.pass ? "PASS" : "FAIL",
                    r.pass ? "" : " - ", r.reason.c_str());
    } else if (!json) {
      std::printf("output %zu (%s) %s\n", i, io.name.c_str(), io.desc.ToString().c_str());
    }
    outputs.push_back(o);
  }
  j["outputs"] = outputs;
  if (!goldens.empty()) j["compare"] = all_pass ? "PASS" : "FAIL";
  j["latency_ms"] = {{"runs", loop}, {"warmup", warmup}, {"p50", lat.p50}, {"p90", lat.p90}, {"p99", lat.p99},
                     {"mean", lat.mean}, {"min", lat.min}};
  j["throughput_per_s"] = lat.mean > 0 ? 1000.0 / lat.mean : 0;
  if (json) {
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    if (loop > 1)
      std::printf("latency over %d runs (after %d warmup): p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, mean %.3f ms; throughput %.1f/s\n",
                  loop, warmup, lat.p50, lat.p90, lat.p99, lat.mean, lat.mean > 0 ? 1000.0 / lat.mean : 0);
    else
      std::printf("latency %.3f ms\n", lat.p50);
    if (!run_loop_line.empty()) std::printf("%s\n", run_loop_line.c_str());
    if (!goldens.empty()) std::printf("%s\n", all_pass ? "PASS" : "FAIL");
  }
  return all_pass ? 0 : 1;
}

}  // namespace
