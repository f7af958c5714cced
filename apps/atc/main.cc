// ge-atc: convert a model to .om (--mode 0), show a .om as JSON (--mode 1), or
// pre-check a model (--mode 3, atc/precheck.h).
// Flag names follow CANN's atc.
#include <chrono>
#include <cstdio>
#include <fstream>

#include <spdlog/spdlog.h>

#include "common/app_common.h"
#include "ge/tools/precheck.h"
#include "ge_base/file_io.h"
#include "ge/om.h"

namespace {

constexpr const char* kTool = "ge-atc";

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}


int Main(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, Main, argc, argv); }

namespace {

int Main(int argc, char** argv) {
  CLI::App app{
      "ge-atc: convert an ONNX model or a TensorFlow frozen graph into a .om file that ge-run executes,\n"
      "print a .om as JSON, or pre-check a model.\n\n"
      "  ge-atc --model m.onnx --framework 5 --output out/m      # writes out/m.om\n"
      "  ge-atc --model m.pb --framework 3 --output out/m        # TensorFlow frozen GraphDef\n"
      "  ge-atc --mode 1 --om out/m.om --json out/m.json        # .om -> JSON\n"
      "  ge-atc --mode 3 --model m.pb --framework 3 --json r.json  # pre-check: every unsupported node\n\n"
      "Conversion parses the model (ONNX: the onnx library's checker, version converter outside opsets\n"
      "11-17, shape inference; TensorFlow: our GraphDef parser, NHWC converted to NCHW at the\n"
      "boundaries), infers every shape, checks that the CPU backend supports every node\n"
      "(listing all that are not), and writes the .om atomically (no partial file on failure).\n"
      "The same model and flags give a byte-identical .om.",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, output, input_shape, out_nodes, om, json, log = "warning";
  int framework = -1, mode = 0;
  app.add_option("--model", model, "Source model file (.onnx, or a TensorFlow frozen .pb)");
  app.add_option("--framework", framework, "Source framework: 5 = ONNX; 3 = TensorFlow frozen GraphDef");
  app.add_option("--output", output, "Output path without the .om extension (as ATC): --output out/m writes out/m.om");
  app.add_option("--input_shape", input_shape,
                 "Override input shapes: \"name:1,3,224,224;name2:1,128\" (needed when the model's inputs are dynamic)");
  app.add_option("--out_nodes", out_nodes, "Graph outputs to keep instead of the model's own: \"name1;name2\" (TensorFlow: \"node\" or \"node:k\")");
  app.add_option("--mode", mode,
                 "0: convert (default); 1: write the .om given by --om as JSON to --json; 3: pre-check --model "
                 "(report to --json, or to <--output>.precheck.json; exit 1 if any node is unsupported)")
      ->check(CLI::IsMember({0, 1, 3}));
  app.add_option("--om", om, "--mode 1: the .om file to show");
  app.add_option("--json", json, "--mode 1: the JSON file to write; --mode 3: the check report");
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  std::string disable_pass, fusion_switch_file, buffer_optimize = "on";
  app.add_option("--disable_pass", disable_pass,
                 "Switch off optimisation/fusion passes by name: \"cse,conv_bn_fold\" (ge-dump --list_passes lists them)");
  app.add_option("--fusion_switch_file", fusion_switch_file,
                 "ATC-style JSON switching fusion passes on/off: {\"Switch\":{\"GraphFusion\":{\"NAME\":\"off\"}}}");
  app.add_option("--buffer_optimize", buffer_optimize,
                 "Feature-map memory reuse between tensors with disjoint lifetimes: on (default) or off")
      ->check(CLI::IsMember({"on", "off"}));
  std::string stream_num = "1";
  app.add_option("--stream_num", stream_num,
                 "Streams to run independent branches on (1 = one stream, the default; at most the backend's, 8 on "
                 "the CPU): branches go to up to N streams by estimated cost, event record/wait tasks order "
                 "cross-stream edges (docs/streams.md)");
  std::string max_memory;
  app.add_option("--max_memory", max_memory,
                 "Refuse a model with a tensor, memory segment or total above SIZE (bytes, or with K, M, G, T: 24G; "
                 "at most 1T), which a loader with that much memory could not load. Default: this machine's memory");
  CLI11_PARSE(app, argc, argv);

  if (auto s = ge::app::SetupLogging(log); !s.ok()) return ge::app::Fail(kTool, s);
  auto memory_limit = ge::app::ParseMaxMemory(max_memory);
  if (!memory_limit.ok()) return ge::app::Fail(kTool, memory_limit.status());

  if (mode == 1) {
    if (om.empty() || json.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--mode 1 needs --om FILE and --json FILE"));
    auto text = ge::OmToJson(om);
    if (!text.ok()) return ge::app::Fail(kTool, text.status());
    if (auto s = ge::WriteFileAtomically(json, *text); !s.ok()) return ge::app::Fail(kTool, s);
    std::printf("ge-atc: wrote %s\n", json.c_str());
    return 0;
  }

  if (model.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--model is required (see --help)"));
  if (framework < 0) return ge::app::Fail(kTool, ge::InvalidArgument("--framework is required: 5 (ONNX) or 3 (TensorFlow)"));
  if (mode == 3) {
    auto report_path = ge::tools::PrecheckReportPath(json, output);
    if (!report_path.ok()) return ge::app::Fail(kTool, report_path.status());
    ge::CompileOptions options;
    options.model_name = BaseName(output.empty() ? model : output);
    options.max_memory = *memory_limit;
    if (auto s = ge::app::ApplyPassFlags(disable_pass, fusion_switch_file, buffer_optimize, options); !s.ok())
      return ge::app::Fail(kTool, s);
    auto report = ge::app::Precheck(model, framework, input_shape, out_nodes, options);
    // A model that cannot even be read has no report: the one error line says why.
    if (!report.ok()) return ge::app::Fail(kTool, report.status());
    if (auto s = ge::WriteFileAtomically(*report_path, report->ToJson()); !s.ok()) return ge::app::Fail(kTool, s);
    std::printf("%s", report->Summary(kTool).c_str());
    std::printf("%s: wrote %s\n", kTool, report_path->c_str());
    std::fflush(stdout);
    return report->passed() ? 0 : ge::app::Fail(kTool, report->ToStatus());
  }
  if (output.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--output is required (path without .om)"));
  const std::string om_path = output + ".om";

  ge::CompileOptions options;
  options.model_name = BaseName(output);
  options.max_memory = *memory_limit;
  options.verify_each_pass = spdlog::get_level() <= spdlog::level::debug;
  if (auto s = ge::app::ApplyPassFlags(disable_pass, fusion_switch_file, buffer_optimize, options); !s.ok())
    return ge::app::Fail(kTool, s);
  if (auto s = ge::app::ApplyStreamFlag(stream_num, options); !s.ok()) return ge::app::Fail(kTool, s);
  auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "[1/2] converting %s\n", model.c_str());
  auto compiled = ge::app::ConvertModel(model, framework, input_shape, out_nodes, options);
  if (!compiled.ok()) return ge::app::Fail(kTool, compiled.status());
  std::printf("memory: %s\n", ge::MemoryReport(compiled->memory).c_str());
  if (compiled->streams.size() > 1) {
    int events = 0;
    for (const ge::StreamTasks& st : compiled->streams)
      for (const ge::Task& t : st.tasks) events += t.kind == ge::Task::Kind::kEventRecord;
    std::printf("streams: %zu streams, %d events\n", compiled->streams.size(), events);
  }
  std::fprintf(stderr, "[2/2] writing %s (%zu nodes)\n", om_path.c_str(), compiled->graph->num_nodes());
  if (auto s = ge::WriteOmFile(*compiled, om_path); !s.ok()) return ge::app::Fail(kTool, s);
  std::printf("ge-atc: wrote %s in %.2f s\n", om_path.c_str(), Seconds(t0));
  return 0;
}

}  // namespace
