// ge-run: load a .om, execute it, compare against golden outputs, benchmark.
// Flag names follow msame and ais_bench, so their command lines run
// unchanged (docs/ge-run-msame.md); this file parses flags and runs the
// inferences, the rest is in run_*.h and libge/tools.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "common/app_common.h"
#include "ge/ops/flop_count.h"
#include "ge/tools/compare.h"
#include "ge/tools/npy.h"
#include "ge/tools/op_dump_files.h"
#include "ge/tools/peak_rss.h"
#include "ge_base/file_io.h"
#include "ge_parsers/onnx_tensor_file.h"
#include "run/run_compat.h"
#include "run/run_inputs.h"
#include "run/run_loop.h"
#include "run/run_model.h"
#include "run/run_profile_table.h"
#include "run/run_outputs.h"
#include "run/run_summary.h"
#include "run/run_tensor_files.h"

namespace {

constexpr const char* kTool = "ge-run";

using ge::app::Fail;

// --outputSize (msame, ais_bench): byte sizes of the outputs. ge knows them
// from the model, so the list must agree with it.
ge::Status CheckOutputSizes(const std::string& flag, const std::vector<ge::IoDesc>& outputs) {
  if (flag.empty()) return ge::Status::Ok();
  const std::vector<std::string> sizes = ge::app::SplitList(flag, ',');
  if (sizes.size() != outputs.size())
    return ge::InvalidArgument("--outputSize " + flag + ": the model has " + std::to_string(outputs.size()) +
                               " outputs, " + std::to_string(sizes.size()) + " sizes given");
  for (size_t k = 0; k < sizes.size(); ++k) {
    const std::string& s = sizes[k];
    const int64_t want = outputs[k].desc.Bytes();
    if (want < 0)
      return ge::InvalidArgument("--outputSize " + flag + ": output " + std::to_string(k) + " (" + outputs[k].name +
                                 ") is " + outputs[k].desc.ToString() + ": its size is known per inference only");
    if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
      return ge::InvalidArgument("--outputSize " + flag + ": '" + s + "' is not a byte count");
    if (std::stoll(s) != want)
      return ge::InvalidArgument("--outputSize " + flag + ": output " + std::to_string(k) + " (" + outputs[k].name +
                                 ") " + outputs[k].desc.ToString() + " is " + std::to_string(want) + " bytes, not " + s);
  }
  return ge::Status::Ok();
}

std::string Joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
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
      "  ge-run --model m.om --mode sink --loop 20 --profile trace.json # Chrome/Perfetto trace\n"
      "  ge-run --model m.om --input dir --output out --output_dirname res --outfmt BIN  # ais_bench's form\n\n"
      "Modes: v2 (default) lowers the model to an ExecuteGraph (Init/Main/DeInit) run by the\n"
      "sequential executor; sink (runtime v1, GE's DavinciModel) prepares everything at load and\n"
      "runs the whole model with one HAL call per inference (docs/runtime-sink.md).\n"
      "--compare passes when max|y-ref| <= 1e-3*max|ref| + 1e-5 and cosine >= 0.99999 for every\n"
      "output (--min_cosine C: cosine >= C alone); it prints max abs diff, cosine and PASS/FAIL and\n"
      "exits 1 on FAIL.\n"
      "msame and ais_bench command lines run unchanged: docs/ge-run-msame.md lists their flags.",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, input, mode = "v2", compare, log = "warning", profile, device, max_memory;
  std::string dump_dir, perturb_op, dym_shape, executor = "sequential";
  int executor_threads = 0;
  ge::run::OutputFlags out_flags;
  std::string output_size, pure_data_type, output_layout;
  int loop = 1, warmup = 0, batchsize = 1, run_loop = 0;
  uint32_t seed = 0;
  bool json = false, async = false;
  int64_t timeout_ms = 0;
  app.add_option("--model,--om", model, "The .om file to run (--om: ais_bench)")->required();
  app.add_option("--device", device,
                 "The device to run on: a registered device name (" + ge::run::DeviceList() +
                     ") or a device index (0 is the device the .om was compiled for; msame, ais_bench). Default: the .om's target");
  app.add_option("--input,-i", input,
                 "Comma-separated, one per model input: .npy, raw .bin or ONNX TensorProto .pb files (one inference), or directories "
                 "(one inference per file, paired by sorted name; msame, ais_bench), or 'random' (default)");
  app.add_option("--dymShape", dym_shape,
                 "(ais_bench) Dims of a dynamic model's inputs, 'x:1,8;y:2,40': for generated inputs and raw .bin "
                 "files (.npy and .pb carry their own dims; docs/dynamic-shapes.md)");
  int64_t dym_batch = 0;
  std::string dym_hw, dym_dims;
  app.add_option("--dymBatch", dym_batch,
                 "(msame, ais_bench) The batch of a model with a dynamic batch: picks the gear of a --dynamic_batch_size "
                 ".om, or sets the batch of a dynamic one (0: none; files with dims of their own need none)");
  app.add_option("--dymHW", dym_hw, "(msame, ais_bench) H,W of a --dynamic_image_size .om's gear (or a dynamic model's two -1 dims)");
  app.add_option("--dymDims", dym_dims,
                 "(msame, ais_bench) Dims of the inputs, 'x:1,40;y:1,40': picks the gear of a --dynamic_dims .om");
  app.add_option("--output,-o", out_flags.output,
                 "Directory for the outputs (created if missing): NAME.npy, or STEM_K.EXT per input file");
  app.add_option("--output_dirname", out_flags.dirname,
                 "(ais_bench) Write into --output/NAME and NAME_summary.json beside it (default: a timestamped folder)");
  app.add_option("--outfmt", out_flags.outfmt, "(msame, ais_bench) Output file format: NPY, BIN (raw bytes) or TXT (one row per line)");
  app.add_option("--output_layout", output_layout,
                 "Output folder and file names: ge (--output/NAME.npy), msame (--output/YYYYMMDD_HHMMSS/"
                 "STEM_output_K.bin; the default when run as 'msame'), ais_bench (--output/NAME/STEM_K.bin and "
                 "NAME_summary.json; the default when an ais_bench-only flag is given)");
  app.add_option("--outputSize", output_size,
                 "(msame, ais_bench) Comma-separated output byte sizes; checked against the model's (ge knows them)");
  app.add_option("--mode", mode, "Runtime: v2 (default) or sink (tasks pre-distributed at load, one HAL call per inference)")
      ->check(CLI::IsMember({"v2", "sink"}));
  app.add_option("--executor", executor,
                 "v2, dynamic models: how the lowered Main graph runs: sequential (a C loop in order, default) or "
                 "topological (ready counters over a thread pool, critical path first; docs/dynamic-shapes.md)")
      ->check(CLI::IsMember({"sequential", "topological"}));
  app.add_option("--executor_threads", executor_threads,
                 "Threads of the topological executor, the caller included (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--compare", compare, "Comma-separated golden .npy or ONNX TensorProto .pb files, one per model output");
  double min_cosine = 0;
  auto* min_cosine_opt =
      app.add_option("--min_cosine", min_cosine,
                     "--compare passes a float output on cosine similarity >= C alone (for a model compiled with "
                     "--precision_mode allow_mix_precision against a float32 golden; docs/precision.md)")
          ->check(CLI::Range(-1.0, 1.0));
  app.add_option("--loop,-r", loop,
                 "Timed inferences per input set (msame, ais_bench; latency p50/p90/p99 and throughput when > 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup,--warmup_count", warmup, "Untimed inferences before the timed ones (--warmup_count: ais_bench)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--batchsize", batchsize, "(ais_bench) Samples per inference, for throughput = batchsize x inferences / s")
      ->check(CLI::PositiveNumber);
  app.add_option("--pure_data_type", pure_data_type,
                 "(ais_bench) Inputs without --input: zero or random (default random; zero with other ais_bench flags)")
      ->check(CLI::IsMember({"zero", "random"}));
  app.add_option("--seed", seed, "Seed for random inputs");
  ge::run::BoolFlag debug(app, "--debug",
                          "(msame, ais_bench) Print every inference's files, output shapes and time; log at info level");
  ge::run::BoolFlag display_all(app, "--display_all_summary",
                                "(ais_bench) Print the whole performance summary, H2D and D2H latency included");
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
                 "Write a Chrome trace (chrome://tracing, Perfetto) of up to 20 timed runs: one lane per stream "
                 "(v2: one), one slice per task, event waits with arrows (sink and v2; not for a dynamic model)");
  bool profile_table = false;
  app.add_flag("--profile_table", profile_table,
               "After the timed runs, print where the time went: the 15 slowest tasks and every op type, with their "
               "mean ms per inference, share of the kernel time and achieved GFLOP/s (FLOPs as ge-dump flops counts "
               "them); with --json: \"profile_table\", every task. Sink and v2; not for a dynamic model");
  app.add_option("--max_memory", max_memory,
                 "Refuse at load a model with a tensor, segment or total above SIZE (bytes, or with K, M, G, T: "
                 "24G; at most 1T). Default: this machine's memory");
  app.add_option("--dump", dump_dir,
                 "Write every op's outputs of the first input set's inference to DIR (one .npy per op output, "
                 "plain NCHW, and DIR/dump.json in execution order), for ge-dump compare. 'false' (msame, "
                 "ais_bench): no dump");
  // Test only (docs/ge-dump.md): adds 1e-2 to one op's outputs in the --dump
  // inference, so tests can check that ge-dump compare names it. Hidden.
  app.add_option("--test_perturb_op", perturb_op, "NODE")->group("");
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  ge::run::ForeignFlags foreign(app);
  CLI11_PARSE(app, argc, argv);
  auto debug_on = debug.Value();
  if (!debug_on.ok()) return Fail(kTool, debug_on.status());
  auto display_all_on = display_all.Value();
  if (!display_all_on.ok()) return Fail(kTool, display_all_on.status());
  if (auto s = foreign.Check(); !s.ok()) return Fail(kTool, s);
  // --debug logs at info level unless --log says otherwise.
  if (auto s = ge::app::SetupLogging(*debug_on && app.count("--log") == 0 ? "info" : log); !s.ok()) return Fail(kTool, s);
  auto memory_limit = ge::app::ParseMaxMemory(max_memory);
  if (!memory_limit.ok()) return Fail(kTool, memory_limit.status());
  const bool ais_bench_flag = app.count("--outfmt") || app.count("--output_dirname") || app.count("--batchsize") ||
                             app.count("--pure_data_type") || display_all.given();
  auto style = ge::run::ResolveOutputStyle(output_layout, argv[0], ais_bench_flag, app.count("--output_dirname") > 0);
  if (!style.ok()) return Fail(kTool, style.status());
  out_flags.style = *style;
  out_flags.model = model;
  const bool ais_bench = *style == ge::run::OutputStyle::kAisBench;
  const bool msame = *style == ge::run::OutputStyle::kMsame;
  // ais_bench warms up once unless told otherwise.
  if (ais_bench && app.count("--warmup") + app.count("--warmup_count") == 0) warmup = 1;

  const bool sink = mode == "sink";
  for (auto [flag, used] : {std::pair<const char*, bool>{"--timeout_ms", timeout_ms > 0}, {"--run_loop", run_loop > 0},
                            {"--async", async}})
    if (used && !sink) return Fail(kTool, ge::InvalidArgument(std::string(flag) + " needs --mode sink"));

  // msame and ais_bench take --dump true|false (their dump goes where acl.json says).
  if (auto msame_dump = ge::run::ParseYesNo("--dump", dump_dir); !dump_dir.empty() && msame_dump.ok()) {
    if (*msame_dump)
      return Fail(kTool, ge::InvalidArgument("--dump " + dump_dir + " (msame, ais_bench): ge-run dumps every op's "
                                             "outputs into a directory, --dump DIR; compare two with ge-dump compare"));
    dump_dir.clear();
  }
  if (!dump_dir.empty() && run_loop > 0)
    return Fail(kTool, ge::InvalidArgument("--dump takes one inference and cannot be combined with --run_loop"));
  if (!perturb_op.empty() && dump_dir.empty()) return Fail(kTool, ge::InvalidArgument("--test_perturb_op needs --dump"));

  if (executor != "sequential" && sink)
    return Fail(kTool, ge::InvalidArgument("--executor " + executor + " needs --mode v2"));
  auto loaded = ge::run::RunModel::Load({model, device, sink, timeout_ms, !profile.empty() || profile_table, run_loop, *memory_limit,
                                         executor == "topological", executor_threads});
  if (!loaded.ok()) return Fail(kTool, loaded.status());
  ge::run::RunModel& rm = **loaded;
  ge::LoadedModel& m = rm.model();
  if (auto s = CheckOutputSizes(output_size, m.outputs()); !s.ok()) return Fail(kTool, s);
  // A dynamic model takes each inference's input dims from its files (or
  // --dymShape) and gives its outputs with the dims that inference produced.
  const bool dynamic = m.dynamic();
  auto dym = ge::run::ParseDymShape(dym_shape, m.inputs());
  if (!dym.ok()) return Fail(kTool, dym.status());
  if (!dym->empty() && !dynamic)
    return Fail(kTool, ge::InvalidArgument("--dymShape " + dym_shape + ": the model " + model + " has static shapes"));
  if ((dym_batch > 0 || !dym_hw.empty() || !dym_dims.empty()) && !dynamic)
    return Fail(kTool, ge::InvalidArgument(std::string(dym_batch > 0 ? "--dymBatch" : !dym_hw.empty() ? "--dymHW" : "--dymDims") +
                                           ": the model " + model + " has static shapes and no gears"));
  if (auto s = ge::run::ApplyGearFlags(dym_batch, dym_hw, dym_dims, m.inputs(), *dym); !s.ok()) return Fail(kTool, s);
  if (async && !rm.sink())
    return Fail(kTool, ge::InvalidArgument("--async runs one sink model; " + model + " has gears, each a sink model of its own"));
  if (dynamic && !dump_dir.empty())
    return Fail(kTool, ge::Unsupported("--dump: not available for a dynamic model yet (" + model + ")"));
  ge::run::ShapedInputs shaped_in;
  std::vector<ge::Tensor> shaped_out;

  // Inputs: the input sets (one inference each) or generated data.
  auto plan = ge::run::PlanInputs(input, m.inputs());
  if (!plan.ok()) return Fail(kTool, plan.status());
  plan->seed = seed;
  // Without --input msame and ais_bench run on zeros, ge-run on random data.
  plan->random = input == "random" || (pure_data_type.empty() ? !(ais_bench || msame) : pure_data_type == "random");
  const size_t inferences = plan->inferences();
  if (inferences > 1)
    for (auto [flag, used] : {std::pair<const char*, bool>{"--compare", !compare.empty()}, {"--run_loop", run_loop > 0}})
      if (used)
        return Fail(kTool, ge::InvalidArgument(std::string(flag) + " needs one input set; --input gives " +
                                               std::to_string(inferences) + " (one per file in the directories)"));
  auto in = ge::run::InputBuffers::Allocate(m.inputs());
  if (!in.ok()) return Fail(kTool, in.status());
  std::vector<ge::run::AlignedBytes> out_data;
  std::vector<void*> out_ptrs;
  std::vector<ge::MutableBuffer> out_bufs;
  for (const auto& io : m.outputs()) {
    if (auto s = ge::run::AppendBuffer(out_data, static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)), "output " + io.name);
        !s.ok())
      return Fail(kTool, s);
    out_ptrs.push_back(out_data.back().data);
    out_bufs.push_back({out_data.back().data, out_data.back().size});
  }
  std::vector<ge::NpyArray> goldens;
  const std::vector<std::string> golden_files = ge::app::SplitList(compare, ',');
  if (!golden_files.empty() && golden_files.size() != m.outputs().size())
    return Fail(kTool, ge::InvalidArgument("--compare: the model has " + std::to_string(m.outputs().size()) +
                                           " outputs, " + std::to_string(golden_files.size()) + " files given"));
  for (const auto& f : golden_files) {
    auto g = ge::run::ReadGoldenFile(f);
    if (!g.ok()) return Fail(kTool, g.status().Annotated("--compare"));
    goldens.push_back(std::move(g).value());
  }
  // Output names follow the input files unless the run is one set of .npy
  // or .pb files (typed tensors, so NAME.npy per output is unambiguous).
  bool by_input_name = plan->from_directories || inferences > 1;
  for (const auto& set : plan->sets)
    for (const auto& f : set)
      if ((f.size() < 4 || f.substr(f.size() - 4) != ".npy") && !ge::IsOnnxTensorFile(f)) by_input_name = true;
  auto layout = ge::run::PrepareOutputs(out_flags, by_input_name, std::time(nullptr));
  if (!layout.ok()) return Fail(kTool, layout.status());

  // Run: per input set, stage the inputs, run (warm-up before the first),
  // write the outputs. The sink path passes sized buffers (zero-copy when
  // aligned, which ours are).
  auto execute_once = [&]() -> ge::Status {
    if (dynamic) return m.ExecuteShaped(shaped_in.views(), shaped_out);
    if (!rm.sink()) return m.Execute(in->ptrs(), out_ptrs);
    if (async) return rm.sink()->ExecuteAsync(in->bufs(), out_bufs).get();
    return rm.sink()->Execute(in->bufs(), out_bufs, std::chrono::milliseconds(0));
  };
  ge::run::TimedRuns runs;
  runs.batchsize = batchsize;
  runs.args.assign(argv, argv + argc);
  std::vector<std::vector<ge::TaskProfile>> profiles;
  ge::run::ProfileTable table(*rm.om().graph);
  ge::run::Report report;
  std::vector<ge::IoDesc> run_outputs = m.outputs();
  FILE* debug_out = json ? stderr : stdout;
  for (size_t k = 0; k < inferences; ++k) {
    auto h2d = dynamic ? shaped_in.Fill(*plan, k, m.inputs(), *dym) : in->Fill(*plan, k, m.inputs());
    if (!h2d.ok()) return Fail(kTool, h2d.status());
    runs.h2d_ms.push_back(*h2d);
    if (k == 0 && !dump_dir.empty()) {
      // A separate debug load that copies each op's outputs as it runs.
      ge::OpDumpOptions o{sink ? ge::RunMode::kSink : ge::RunMode::kV2, rm.device(), *memory_limit, perturb_op};
      auto dumped = ge::RunWithOpDump(rm.om(), o, in->ptrs());
      if (!dumped.ok()) return Fail(kTool, dumped.status().Annotated("--dump"));
      if (auto s = ge::tools::WriteOpDump(dump_dir, rm.om().name, *dumped); !s.ok()) return Fail(kTool, s.Annotated("--dump"));
      std::fprintf(debug_out, "dump: %zu op outputs in %s/dump.json\n", dumped->size(), dump_dir.c_str());
    }
    for (int i = 0; k == 0 && i < warmup; ++i)
      if (auto s = execute_once(); !s.ok()) return Fail(kTool, s);
    const size_t first = runs.compute_ms.size();
    for (int i = 0; i < loop; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      if (auto s = execute_once(); !s.ok()) return Fail(kTool, s);
      runs.compute_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!profile.empty() && profiles.size() < 20) profiles.push_back(m.Profile());
      if (profile_table) table.Add(m.Profile());
    }
    if (run_loop > 0) {
      auto rl = ge::run::RunLoop(*rm.sink(), in->bufs(), run_loop, out_data);
      if (!rl.ok()) return Fail(kTool, rl.status());
      report.run_loop = rl->json;
      report.run_loop_line = rl->line;
    }
    const std::vector<std::string> in_files = plan->sets.empty() ? std::vector<std::string>{} : plan->sets[k];
    // msame names outputs after the model unless the inputs come from folders.
    const bool named_by_file = !in_files.empty() && (!msame || plan->from_directories);
    // This inference's outputs: the model's buffers, or a dynamic model's
    // tensors with their dims.
    if (dynamic) {
      run_outputs.clear();
      out_ptrs.clear();
      ge::run::Report::Shapes shapes;
      for (const ge::TensorView& v : shaped_in.views()) shapes.inputs.push_back(ge::TensorDesc(v.dtype, v.dims).ToString());
      for (size_t o = 0; o < shaped_out.size(); ++o) {
        run_outputs.push_back({m.outputs()[o].name, shaped_out[o].desc()});
        out_ptrs.push_back(const_cast<uint8_t*>(shaped_out[o].data()));
        shapes.outputs.push_back(shaped_out[o].desc().ToString());
      }
      report.shapes.push_back(std::move(shapes));
    }
    auto written = ge::run::WriteOutputs(*layout, named_by_file ? in_files.front() : "", run_outputs, out_ptrs);
    if (!written.ok()) return Fail(kTool, written.status());
    runs.files.push_back({in_files, *written});
    if (*debug_on) {
      double ms = 0;
      for (size_t i = first; i < runs.compute_ms.size(); ++i) ms += runs.compute_ms[i];
      std::fprintf(debug_out, "[debug] inference %zu: inputs %s; %.3f ms per run (%d runs), staging %.3f ms\n", k,
                   in_files.empty() ? (plan->random ? "random" : "zeros") : Joined(in_files).c_str(), ms / loop, loop,
                   *h2d);
      for (size_t o = 0; o < run_outputs.size(); ++o)
        std::fprintf(debug_out, "[debug]   output %zu (%s) %s%s%s\n", o, run_outputs[o].name.c_str(),
                     run_outputs[o].desc.ToString().c_str(), o < written->size() ? " -> " : "",
                     o < written->size() ? (*written)[o].c_str() : "");
    }
  }
  if (!profile.empty()) {
    if (auto s = ge::WriteFileAtomically(profile, ge::ChromeTraceJson(profiles, rm.om().name)); !s.ok())
      return Fail(kTool, s.Annotated("--profile"));
  }
  if (!layout->summary_path.empty()) {
    if (auto s = ge::WriteFileAtomically(layout->summary_path, ge::run::AisBenchSummaryJson(runs).dump(2) + "\n"); !s.ok())
      return Fail(kTool, s.Annotated("summary"));
  }

  // Report.
  report.model = model;
  report.mode = mode;
  report.device = rm.device();
  report.load_ms = rm.load_ms();
  report.device_bytes = m.device_bytes();
  report.peak_rss_bytes = ge::tools::PeakRssBytes();
  if (!dynamic) {
    const std::vector<ge::NodeFlops> flops = ge::CountGraphFlops(*rm.om().graph);
    const bool known = std::all_of(flops.begin(), flops.end(), [](const ge::NodeFlops& f) { return f.flops.has_value(); });
    report.flops = known ? ge::TotalFlops(flops) : -1;
  }
  report.sink = rm.sink();
  report.timeout_ms = timeout_ms;
  report.async = async;
  report.profile = profile;
  if (profile_table) {
    report.profile_table = table.Json();
    report.profile_table_text = table.Text(15);
  }
  report.warmup = warmup;
  report.loop = loop;
  report.inferences = inferences;
  report.outputs = run_outputs;
  for (size_t i = 0; i < goldens.size(); ++i)
    report.compare.push_back(ge::CompareTensors(run_outputs[i].desc, out_ptrs[i], goldens[i],
                                                *min_cosine_opt ? std::optional<double>(min_cosine) : std::nullopt));
  if (msame)
    report.summary_block = ge::run::MsameSummaryText(runs, plan->from_directories);
  else if (ais_bench || inferences > 1 || *display_all_on)
    report.summary_block = ge::run::AisBenchSummaryText(runs, *display_all_on);
  if (json) {
    auto j = ge::run::ReportJson(report, runs);
    if (ais_bench || inferences > 1) j["summary"] = ge::run::AisBenchSummaryJson(runs);
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::fputs(ge::run::ReportText(report, runs).c_str(), stdout);
  }
  return ge::run::AllPass(report) ? 0 : 1;
}

}  // namespace
