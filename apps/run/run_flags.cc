#include "run/run_flags.h"

#include "common/app_common.h"
#include "run/run_model.h"

namespace ge::run {

RunCommandLine::RunCommandLine(CLI::App& app) : app_(app) {
  // In this order: --help lists the flags as they are added.
  AddModelInputFlags();
  AddOutputFlags();
  AddRuntimeFlags();
  AddCompareTimingFlags();
  AddSummaryFlags();
  AddSinkFlags();
  AddProfileFlags();
  AddDebugFlags();
  foreign_ = std::make_unique<ForeignFlags>(app_);
}

RunCommandLine::~RunCommandLine() = default;

// The model, the device and the inputs (with their dims for a dynamic model).
void RunCommandLine::AddModelInputFlags() {
  app_.add_option("--model,--om", f_.model, "The .om file to run (--om: ais_bench)")->required();
  app_.add_option(
      "--device", f_.device,
      "The device to run on: a registered device name (" + ge::run::DeviceList() +
          ") or a device index (0 is the device the .om was compiled for; msame, ais_bench). Default: the .om's target");
  app_.add_option(
      "--input,-i", f_.input,
      "Comma-separated, one per model input: .npy, raw .bin or ONNX TensorProto .pb files (one inference), or directories "
      "(one inference per file, paired by sorted name; msame, ais_bench), or 'random' (default)");
  app_.add_option("--dymShape", f_.dym_shape,
                  "(ais_bench) Dims of a dynamic model's inputs, 'x:1,8;y:2,40': for generated inputs and raw .bin "
                  "files (.npy and .pb carry their own dims; docs/dynamic-shapes.md)");
  app_.add_option(
      "--dymBatch", f_.dym_batch,
      "(msame, ais_bench) The batch of a model with a dynamic batch: picks the gear of a --dynamic_batch_size "
      ".om, or sets the batch of a dynamic one (0: none; files with dims of their own need none)");
  app_.add_option("--dymHW", f_.dym_hw,
                  "(msame, ais_bench) H,W of a --dynamic_image_size .om's gear (or a dynamic model's two -1 dims)");
  app_.add_option("--dymDims", f_.dym_dims,
                  "(msame, ais_bench) Dims of the inputs, 'x:1,40;y:1,40': picks the gear of a --dynamic_dims .om");
}

// Where and how the outputs are written.
void RunCommandLine::AddOutputFlags() {
  app_.add_option("--output,-o", f_.out.output,
                  "Directory for the outputs (created if missing): NAME.npy, or STEM_K.EXT per input file");
  app_.add_option(
      "--output_dirname", f_.out.dirname,
      "(ais_bench) Write into --output/NAME and NAME_summary.json beside it (default: a timestamped folder)");
  app_.add_option("--outfmt", f_.out.outfmt,
                  "(msame, ais_bench) Output file format: NPY, BIN (raw bytes) or TXT (one row per line)");
  app_.add_option("--output_layout", f_.output_layout,
                  "Output folder and file names: ge (--output/NAME.npy), msame (--output/YYYYMMDD_HHMMSS/"
                  "STEM_output_K.bin; the default when run as 'msame'), ais_bench (--output/NAME/STEM_K.bin and "
                  "NAME_summary.json; the default when an ais_bench-only flag is given)");
  app_.add_option("--outputSize", f_.output_size,
                  "(msame, ais_bench) Comma-separated output byte sizes; checked against the model's (ge knows them)");
}

// The runtime and, for a dynamic model, its executor.
void RunCommandLine::AddRuntimeFlags() {
  app_.add_option("--mode", f_.mode,
                  "Runtime: v2 (default) or sink (tasks pre-distributed at load, one HAL call per inference)")
      ->check(CLI::IsMember({"v2", "sink"}));
  app_.add_option("--executor", f_.executor,
                  "v2, dynamic models: how the lowered Main graph runs: sequential (a C loop in order, default) or "
                  "topological (ready counters over a thread pool, critical path first; docs/dynamic-shapes.md)")
      ->check(CLI::IsMember({"sequential", "topological"}));
  app_.add_option("--executor_threads", f_.executor_threads,
                  "Threads of the topological executor, the caller included (default: one per core)")
      ->check(CLI::NonNegativeNumber);
}

// The golden check, and how many inferences are timed.
void RunCommandLine::AddCompareTimingFlags() {
  app_.add_option("--compare", f_.compare,
                  "Comma-separated golden .npy or ONNX TensorProto .pb files, one per model output");
  min_cosine_ =
      app_.add_option("--min_cosine", f_.min_cosine,
                      "--compare passes a float output on cosine similarity >= C alone (for a model compiled with "
                      "--precision_mode allow_mix_precision against a float32 golden; docs/precision.md)")
          ->check(CLI::Range(-1.0, 1.0));
  app_.add_option("--loop,-r", f_.loop,
                  "Timed inferences per input set (msame, ais_bench; latency p50/p90/p99 and throughput when > 1)")
      ->check(CLI::PositiveNumber);
  app_.add_option("--warmup,--warmup_count", f_.warmup,
                  "Untimed inferences before the timed ones (--warmup_count: ais_bench)")
      ->check(CLI::NonNegativeNumber);
  app_.add_option("--batchsize", f_.batchsize,
                  "(ais_bench) Samples per inference, for throughput = batchsize x inferences / s")
      ->check(CLI::PositiveNumber);
  app_.add_option(
          "--pure_data_type", f_.pure_data_type,
          "(ais_bench) Inputs without --input: zero or random (default random; zero with other ais_bench flags)")
      ->check(CLI::IsMember({"zero", "random"}));
  app_.add_option("--seed", f_.seed, "Seed for random inputs");
}

// What is printed: msame's and ais_bench's debug and summary flags, JSON.
void RunCommandLine::AddSummaryFlags() {
  debug_.emplace(app_, "--debug",
                 "(msame, ais_bench) Print every inference's files, output shapes and time; log at info level");
  display_all_.emplace(app_, "--display_all_summary",
                       "(ais_bench) Print the whole performance summary, H2D and D2H latency included");
  app_.add_flag("--json", f_.json, "Print a machine-readable JSON summary on stdout instead of text");
}

// Limits of a run (both modes); sink mode only: run loop, ExecuteAsync.
void RunCommandLine::AddSinkFlags() {
  app_.add_option("--timeout_ms", f_.timeout_ms,
                  "Abort an inference that takes longer than this (ms) and fail with a timeout error (0: none). "
                  "v2 on a dynamic model checks it between kernels and in every Loop or Scan iteration")
      ->check(CLI::NonNegativeNumber);
  app_.add_option("--max_loop_iterations", f_.max_loop_iterations,
                  "v2, dynamic models: fail an inference in which one Loop or Scan node would run more than N "
                  "iterations (0: no limit; default 2^31 = 2147483648)")
      ->check(CLI::NonNegativeNumber);
  app_.add_option("--run_loop", f_.run_loop,
                  "Sink: queue N inferences on the model thread (run loop), report throughput (inferences/s) and "
                  "per-inference latency from submit to callback")
      ->check(CLI::PositiveNumber);
  app_.add_flag("--async", f_.async, "Sink: run the timed inferences through ExecuteAsync (a future per inference)");
}

// Where the time went: a trace, a table.
void RunCommandLine::AddProfileFlags() {
  app_.add_option("--profile", f_.profile,
                  "Write a Chrome trace (chrome://tracing, Perfetto) of up to 20 timed runs: one lane per stream "
                  "(v2: one), one slice per task, event waits with arrows (sink and v2; not for a dynamic model)");
  app_.add_flag("--profile_table", f_.profile_table,
                "After the timed runs, print where the time went: the 15 slowest tasks and every op type, with their "
                "mean ms per inference, share of the kernel time and achieved GFLOP/s (FLOPs as ge-dump flops counts "
                "them); with --json: \"profile_table\", every task. Sink and v2; not for a dynamic model");
}

// Memory limit, op dump, logging.
void RunCommandLine::AddDebugFlags() {
  app_.add_option("--max_memory", f_.max_memory,
                  "Refuse at load a model with a tensor, segment or total above SIZE (bytes, or with K, M, G, T: "
                  "24G; at most 1T); v2 on a dynamic model: fail an inference whose value memory (subgraphs and "
                  "loop state included) would pass it. Default: this machine's memory");
  app_.add_option("--dump", f_.dump_dir,
                  "Write every op's outputs of the first input set's inference to DIR (one .npy per op output, "
                  "plain NCHW, and DIR/dump.json in execution order), for ge-dump compare. 'false' (msame, "
                  "ais_bench): no dump");
  // Test only (docs/ge-dump.md): adds 1e-2 to one op's outputs in the --dump
  // inference, so tests can check that ge-dump compare names it. Hidden.
  app_.add_option("--test_perturb_op", f_.perturb_op, "NODE")->group("");
  app_.add_option("--log", f_.log, "Log level on stderr: debug, info, warning (default), error, null");
}

Result<RunSettings> RunCommandLine::Resolve(const std::string& argv0) {
  RunSettings s;
  GE_ASSIGN_OR_RETURN(s.debug, debug_->Value());
  GE_ASSIGN_OR_RETURN(s.display_all, display_all_->Value());
  GE_RETURN_IF_ERROR(foreign_->Check());
  // --debug logs at info level unless --log says otherwise.
  GE_RETURN_IF_ERROR(app::SetupLogging(s.debug && app_.count("--log") == 0 ? "info" : f_.log));
  GE_ASSIGN_OR_RETURN(s.memory_limit, app::ParseMaxMemory(f_.max_memory));
  GE_RETURN_IF_ERROR(ResolveOutputLayout(argv0, s));
  s.sink = f_.mode == "sink";
  GE_RETURN_IF_ERROR(CheckFlagCombinations(s));
  f_.min_cosine_given = static_cast<bool>(*min_cosine_);
  return s;
}

// ge's, msame's or ais_bench's layout, and ais_bench's one warm-up.
Status RunCommandLine::ResolveOutputLayout(const std::string& argv0, RunSettings& s) {
  const bool ais_bench_flag = app_.count("--outfmt") || app_.count("--output_dirname") || app_.count("--batchsize") ||
                              app_.count("--pure_data_type") || display_all_->given();
  GE_ASSIGN_OR_RETURN(f_.out.style,
                      ResolveOutputStyle(f_.output_layout, argv0, ais_bench_flag, app_.count("--output_dirname") > 0));
  f_.out.model = f_.model;
  s.ais_bench = f_.out.style == OutputStyle::kAisBench;
  s.msame = f_.out.style == OutputStyle::kMsame;
  // ais_bench warms up once unless told otherwise.
  if (s.ais_bench && app_.count("--warmup") + app_.count("--warmup_count") == 0) f_.warmup = 1;
  return Status::Ok();
}

// Sink-only flags, msame's and ais_bench's --dump true|false, what --dump
// excludes, v2-only flags.
Status RunCommandLine::CheckFlagCombinations(const RunSettings& s) {
  for (auto [flag, used] : {std::pair<const char*, bool>{"--run_loop", f_.run_loop > 0},
                            {"--async", f_.async}})
    if (used && !s.sink) return InvalidArgument(std::string(flag) + " needs --mode sink");
  // msame and ais_bench take --dump true|false (their dump goes where acl.json says).
  if (auto msame_dump = ParseYesNo("--dump", f_.dump_dir); !f_.dump_dir.empty() && msame_dump.ok()) {
    if (*msame_dump)
      return InvalidArgument("--dump " + f_.dump_dir +
                             " (msame, ais_bench): ge-run dumps every op's "
                             "outputs into a directory, --dump DIR; compare two with ge-dump compare");
    f_.dump_dir.clear();
  }
  if (!f_.dump_dir.empty() && f_.run_loop > 0)
    return InvalidArgument("--dump takes one inference and cannot be combined with --run_loop");
  if (!f_.perturb_op.empty() && f_.dump_dir.empty()) return InvalidArgument("--test_perturb_op needs --dump");
  if (f_.executor != "sequential" && s.sink) return InvalidArgument("--executor " + f_.executor + " needs --mode v2");
  if (app_.count("--max_loop_iterations") && s.sink)
    return InvalidArgument("--max_loop_iterations needs --mode v2 (sink runs control flow as label tasks)");
  return Status::Ok();
}

}  // namespace ge::run
