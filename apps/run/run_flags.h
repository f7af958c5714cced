// ge-run's command line: every flag registered on the CLI11 app (in the
// order --help lists them), and the rules between them once parsed:
// msame's and ais_bench's defaults, flags that need sink mode or --dump.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ge_base/status.h"
#include "run/run_compat.h"
#include "run/run_outputs.h"

namespace ge::run {

// Every flag's value as parsed.
struct RunFlags {
  std::string model, input, mode = "v2", compare, log = "warning", profile, device, max_memory;
  std::string dump_dir, perturb_op, dym_shape, executor = "sequential";
  int executor_threads = 0;
  OutputFlags out;
  std::string output_size, pure_data_type, output_layout;
  int loop = 1, warmup = 0, batchsize = 1, run_loop = 0;
  uint32_t seed = 0;
  bool json = false, async = false, profile_table = false;
  int64_t timeout_ms = 0;
  int64_t max_loop_iterations = LoadOptions::kDefaultMaxLoopIterations;
  int64_t dym_batch = 0;
  std::string dym_hw, dym_dims;
  double min_cosine = 0;
  bool min_cosine_given = false;
};

// What the flags resolve to beyond their values.
struct RunSettings {
  bool debug = false;        // --debug (msame, ais_bench)
  bool display_all = false;  // --display_all_summary (ais_bench)
  int64_t memory_limit = 0;  // --max_memory in bytes (0: the machine's memory)
  bool ais_bench = false;    // ais_bench's output layout and summary
  bool msame = false;        // msame's
  bool sink = false;         // --mode sink
};

class RunCommandLine {
 public:
  // Registers every flag on `app`, which must outlive this.
  explicit RunCommandLine(CLI::App& app);
  ~RunCommandLine();
  RunCommandLine(const RunCommandLine&) = delete;
  RunCommandLine& operator=(const RunCommandLine&) = delete;

  // After parsing: checks what CLI11 cannot (yes/no values, foreign flags,
  // flags that need another), sets up logging and applies msame's and
  // ais_bench's defaults to the flags. `argv0` picks msame's layout.
  Result<RunSettings> Resolve(const std::string& argv0);
  const RunFlags& flags() const { return f_; }

 private:
  void AddModelInputFlags();
  void AddOutputFlags();
  void AddRuntimeFlags();
  void AddCompareTimingFlags();
  void AddSummaryFlags();
  void AddSinkFlags();
  void AddProfileFlags();
  void AddDebugFlags();
  Status ResolveOutputLayout(const std::string& argv0, RunSettings& s);
  Status CheckFlagCombinations(const RunSettings& s);

  CLI::App& app_;
  RunFlags f_;
  std::optional<BoolFlag> debug_, display_all_;
  CLI::Option* min_cosine_ = nullptr;
  std::unique_ptr<ForeignFlags> foreign_;
};

}  // namespace ge::run
