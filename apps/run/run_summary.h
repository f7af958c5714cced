// What ge-run reports after the runs: its own text or --json report
// (outputs, comparison, latency percentiles, run loop), and ais_bench's
// performance summary, printed as ais_bench prints it and written as its
// DIR/NAME_summary.json (same keys: NPU_compute_time, H2D_latency,
// D2H_latency, throughput, filesinfo, args, npu_compute_time_list, pid).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ge/runtime.h"
#include "ge/tools/compare.h"

namespace ge::run {

// The timed inferences of one ge-run.
struct TimedRuns {
  std::vector<double> compute_ms;  // every timed Execute, in order
  std::vector<double> h2d_ms;      // staging each input set into the run buffers
  struct Files {
    std::vector<std::string> in, out;
  };
  std::vector<Files> files;  // per input set
  int batchsize = 1;         // --batchsize: samples per inference
  std::vector<std::string> args;
};

// 1000 * batchsize / mean ms (0 when nothing ran), as ais_bench computes it.
double Throughput(const TimedRuns& runs);

// ais_bench's summary dictionary.
nlohmann::ordered_json AisBenchSummaryJson(const TimedRuns& runs);
// ais_bench's "Performance Summary" block; H2D and D2H lines with display_all.
std::string AisBenchSummaryText(const TimedRuns& runs, bool display_all);

// msame's closing lines: "Inference average time: X ms" and, after more
// than one run, "Inference average time without first time: X ms" (folder
// inputs: msame's "average time :" spelling and two decimals).
std::string MsameSummaryText(const TimedRuns& runs, bool from_directories);

// ge-run's own report.
struct Report {
  std::string model, mode, device;
  double load_ms = 0;
  size_t device_bytes = 0;
  int64_t peak_rss_bytes = 0;  // the process's, after the runs (ge/tools/peak_rss.h)
  // FLOPs of one inference (ge/ops/flop_count.h); -1 when a shape is unknown.
  int64_t flops = -1;
  const SinkLoadedModel* sink = nullptr;
  int64_t timeout_ms = 0;
  bool async = false;
  std::string profile;
  nlohmann::ordered_json run_loop;  // null without --run_loop
  nlohmann::ordered_json profile_table;  // null without --profile_table
  std::string profile_table_text;
  std::string run_loop_line;
  std::string summary_block;  // ais_bench's or msame's block, printed before PASS/FAIL
  int warmup = 0, loop = 1;
  size_t inferences = 1;
  std::vector<IoDesc> outputs;
  std::vector<std::optional<CompareResult>> compare;  // empty without --compare
  // A dynamic model: per inference, its input and output descs ("shapes").
  struct Shapes {
    std::vector<std::string> inputs, outputs;
  };
  std::vector<Shapes> shapes;
};

bool AllPass(const Report& r);
nlohmann::ordered_json ReportJson(const Report& r, const TimedRuns& runs);
std::string ReportText(const Report& r, const TimedRuns& runs);

}  // namespace ge::run
