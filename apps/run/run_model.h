// Loading the .om for ge-run: the device named by --device, the runtime
// chosen by --mode (v2 or sink), and the check that ge-run's own input and
// output buffers fit under the memory limit too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ge/om.h"
#include "ge/runtime.h"

namespace ge::run {

struct ModelFlags {
  std::string path;          // --model
  std::string device;        // --device NAME|INDEX ("" = the .om's target)
  bool sink = false;         // --mode sink
  int64_t timeout_ms = 0;    // --timeout_ms (both modes)
  bool profile = false;      // --profile or --profile_table given (both modes)
  int run_loop = 0;          // --run_loop (sink)
  int64_t max_memory = 0;    // --max_memory, resolved
  bool topological = false;  // --executor topological (v2, dynamic models)
  int executor_threads = 0;  // --executor_threads (0: one per core)
  int64_t max_loop_iterations = LoadOptions::kDefaultMaxLoopIterations;  // --max_loop_iterations (v2)
};

// A loaded model; unloads (sink: from the ModelManager) when destroyed.
class RunModel {
 public:
  static Result<std::unique_ptr<RunModel>> Load(const ModelFlags& flags);
  ~RunModel();
  RunModel(const RunModel&) = delete;
  RunModel& operator=(const RunModel&) = delete;

  LoadedModel& model() { return sink_ ? static_cast<LoadedModel&>(*sink_) : *loaded_; }
  // Null in v2 mode, and for a gear model (each gear is a sink model of its
  // own, the gear picked per call).
  SinkLoadedModel* sink() { return sink_.get(); }
  const Model& om() const { return om_.model; }
  // The device the model runs on: the registry name.
  const std::string& device() const { return device_; }
  double load_ms() const { return load_ms_; }

 private:
  RunModel() = default;
  LoadedOm om_;
  std::string device_;
  double load_ms_ = 0;
  std::unique_ptr<LoadedModel> loaded_;  // v2, or a gear model in either mode
  std::shared_ptr<SinkLoadedModel> sink_;
  uint32_t sink_id_ = 0;
};

// Registered device names, comma-separated (for --help).
std::string DeviceList();

}  // namespace ge::run
