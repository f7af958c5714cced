// ge-run: load a .om, execute it, compare against golden outputs, benchmark.
// Flag names follow msame and ais_bench, so their command lines run
// unchanged (docs/ge-run-msame.md); this file runs the phases in order:
// flags (run_flags.h), then load, inputs and outputs, runs and report
// (run_session.h); the rest is in run_*.h and libge/tools.
#include "common/app_common.h"
#include "run/run_flags.h"
#include "run/run_session.h"

namespace {

constexpr const char* kTool = "ge-run";

constexpr const char* kRunHelp =
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
    "msame and ais_bench command lines run unchanged: docs/ge-run-msame.md lists their flags.";

int Main(CLI::App& app, int argc, char** argv) {
  ge::run::RunCommandLine cli(app);
  CLI11_PARSE(app, argc, argv);
  auto settings = cli.Resolve(argv[0]);
  if (!settings.ok()) return ge::app::Fail(kTool, settings.status());
  ge::run::RunSession run(cli.flags(), *settings, std::vector<std::string>(argv, argv + argc));
  ge::Status s = run.Load();
  if (s.ok()) s = run.PrepareIo();
  if (s.ok()) s = run.RunAll();
  if (s.ok()) s = run.WriteFiles();
  if (!s.ok()) return ge::app::Fail(kTool, s);
  return run.PrintReport();
}

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, kRunHelp, Main, argc, argv); }
