// ge-atc: convert a model to .om (--mode 0), show a .om as JSON (--mode 1), or
// pre-check a model (--mode 3, atc/precheck.h).
// Flag names follow CANN's atc.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>

#include <spdlog/spdlog.h>

#include "atc/atc_command_line.h"
#include "atc/atc_flags.h"
#include "atc/atc_gears.h"
#include "atc/atc_model_info.h"
#include "atc/atc_precision.h"
#include "atc/atc_target.h"
#include "common/app_common.h"
#include "common/io_type_flags.h"
#include "common/text_model.h"
#include "ge/lint/lint.h"
#include "ge/lint/report.h"
#include "hal/device.h"
#include "ge/tools/op_list.h"
#include "ge/tools/precheck.h"
#include "ge_base/file_io.h"
#include "ge/om.h"

namespace {

constexpr const char* kTool = "ge-atc";

constexpr const char* kAtcHelp =
    "ge-atc: convert an ONNX model or a TensorFlow frozen graph into a .om file that ge-run executes,\n"
    "print a .om as JSON, or pre-check a model.\n\n"
    "  ge-atc --model m.onnx --framework 5 --output out/m      # writes out/m.om\n"
    "  ge-atc --model m.pb --framework 3 --output out/m        # TensorFlow frozen GraphDef\n"
    "  ge-atc --mode 1 --om out/m.om --json out/m.json        # .om -> JSON\n"
    "  ge-atc --mode 3 --model m.pb --framework 3 --json r.json  # pre-check: every unsupported node\n"
    "  ge-atc --mode 6 --om out/m.om                            # model information\n"
    "  ge-atc --list_ops [--json ops.json]                      # the op types this build runs\n\n"
    "Conversion parses the model (ONNX: the onnx library's checker, version converter outside opsets\n"
    "11-17, shape inference; TensorFlow: our GraphDef parser, NHWC converted to NCHW at the\n"
    "boundaries), infers every shape, checks that the CPU backend supports every node\n"
    "(listing all that are not), and writes the .om atomically (no partial file on failure).\n"
    "The same model and flags give a byte-identical .om.\n\n"
    "atc command lines run unchanged: atc's single-dash and dash-separated spellings are accepted, and atc flags\n"
    "that mean nothing on a CPU are accepted with one warning line, or refused with the reason\n"
    "(docs/compatibility.md lists every one).";

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}


// --soc_version, --input_format and --insert_op_conf into the compile options
// (recorded in the .om).
ge::Status ApplyTargetFlags(const std::string& soc_version, const std::string& input_format,
                            const std::string& insert_op_conf, int framework, ge::CompileOptions& options,
                            const std::function<void(const std::string&)>& warn) {
  auto device = ge::hal::GetDevice(options.device);
  if (!device.ok()) return device.status();
  auto target = ge::atc::ResolveSocVersion(soc_version, (*device)->capabilities().channel_block);
  if (!target.ok()) return target.status();
  if (!target->warning.empty()) warn(target->warning);
  options.channel_block = target->channel_block;
  options.recorded_options.emplace_back("soc_version", target->name);
  auto format = ge::atc::CheckInputFormat(input_format, framework);
  if (!format.ok()) return format.status();
  if (!input_format.empty()) options.recorded_options.emplace_back("input_format", *format);
  if (insert_op_conf.empty()) return ge::Status::Ok();
  auto aipp = ge::ReadAippConfigFile(insert_op_conf);
  if (!aipp.ok()) return aipp.status();
  options.aipp = std::move(*aipp);
  // TensorFlow images are NHWC unless the user says the placeholder is NCHW.
  options.aipp_nhwc = framework == 3 && *format != "NCHW";
  options.recorded_options.emplace_back("insert_op_conf", BaseName(insert_op_conf));
  return ge::Status::Ok();
}

void WarnLine(const std::string& w) { std::fprintf(stderr, "%s: warning: %s\n", kTool, w.c_str()); }

// --list_ops: the op types this build supports, as text (and JSON to --json).
int ListOps(const ge::atc::AtcFlags& f) {
  auto device = ge::hal::GetDevice();
  if (!device.ok()) return ge::app::Fail(kTool, device.status());
  const auto ops = ge::tools::ListOps((*device)->kernels());
  if (!f.json.empty()) {
    if (auto s = ge::WriteFileAtomically(f.json, ge::tools::OpListJson(ops)); !s.ok()) return ge::app::Fail(kTool, s);
    std::fprintf(stderr, "%s: wrote %s\n", kTool, f.json.c_str());
  }
  std::printf("%s", ge::tools::OpListText(ops).c_str());
  return 0;
}

// --mode 6: a .om's model information.
int ShowModelInfo(const ge::atc::AtcFlags& f) {
  if (f.om.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--mode 6 needs --om FILE"));
  auto loaded = ge::ReadOmFile(f.om);
  if (!loaded.ok()) return ge::app::Fail(kTool, loaded.status());
  std::printf("%s", ge::atc::ModelInfo(loaded->model).c_str());
  return 0;
}

// --mode 1: a .om as JSON.
int WriteOmJson(const ge::atc::AtcFlags& f) {
  if (f.om.empty() || f.json.empty())
    return ge::app::Fail(kTool, ge::InvalidArgument("--mode 1 needs --om FILE and --json FILE"));
  auto text = ge::OmToJson(f.om);
  if (!text.ok()) return ge::app::Fail(kTool, text.status());
  if (auto s = ge::WriteFileAtomically(f.json, *text); !s.ok()) return ge::app::Fail(kTool, s);
  std::printf("ge-atc: wrote %s\n", f.json.c_str());
  return 0;
}

// --mode 3: atc's pre-check, its report written as JSON.
int PrecheckModel(const ge::atc::AtcFlags& f, const ge::atc::AtcSettings& settings) {
  auto report_path = ge::tools::PrecheckReportPath(f.json, f.output);
  if (!report_path.ok()) return ge::app::Fail(kTool, report_path.status());
  ge::CompileOptions options;
  options.model_name = BaseName(f.output.empty() ? f.model : f.output);
  options.max_memory = settings.memory_limit;
  if (auto s = ge::app::ApplyPassFlags(f.disable_pass, f.fusion_switch_file, f.buffer_optimize, options); !s.ok())
    return ge::app::Fail(kTool, s);
  if (auto s = ApplyTargetFlags(f.soc_version, f.input_format, f.insert_op_conf, f.framework, options, WarnLine); !s.ok())
    return ge::app::Fail(kTool, s);
  ge::atc::ApplyIoTypes(f, settings, options);
  auto report = ge::app::Precheck(f.model, f.framework, f.input_shape, f.out_nodes, options);
  // A model that cannot even be read has no report: the one error line says why.
  if (!report.ok()) return ge::app::Fail(kTool, report.status());
  if (auto s = ge::WriteFileAtomically(*report_path, report->ToJson()); !s.ok()) return ge::app::Fail(kTool, s);
  std::printf("%s", report->Summary(kTool).c_str());
  std::printf("%s: wrote %s\n", kTool, report_path->c_str());
  std::fflush(stdout);
  return report->passed() ? 0 : ge::app::Fail(kTool, report->ToStatus());
}

// The compile options of a conversion, each flag's record in the .om.
ge::Status ApplyConvertFlags(ge::atc::AtcFlags& f, const ge::atc::AtcSettings& settings, ge::CompileOptions& options) {
  options.model_name = BaseName(f.output);
  options.max_memory = settings.memory_limit;
  options.verify_each_pass = spdlog::get_level() <= spdlog::level::debug;
  options.sink_control_flow = f.control_flow == "sink";
  options.precision = settings.precision;
  if (!f.precision_mode.empty()) options.recorded_options.emplace_back("precision_mode", f.precision_mode);
  if (!f.precision_mode_v2.empty()) options.recorded_options.emplace_back("precision_mode_v2", f.precision_mode_v2);
  GE_RETURN_IF_ERROR(ge::app::ApplyPassFlags(f.disable_pass, f.fusion_switch_file, f.buffer_optimize, options));
  if (f.enable_single_stream == "true") f.stream_num = "1";
  GE_RETURN_IF_ERROR(ge::app::ApplyStreamFlag(f.stream_num, options));
  GE_RETURN_IF_ERROR(ApplyTargetFlags(f.soc_version, f.input_format, f.insert_op_conf, f.framework, options, WarnLine));
  ge::atc::ApplyIoTypes(f, settings, options);
  return ge::Status::Ok();
}

// --lint on: as GE's GraphLint, findings are warnings, never a failure.
void LintCompiled(const std::string& model, const ge::Model& compiled) {
  ge::lint::ReportInfo info;
  info.file = model;
  info.root_graph = compiled.graph ? compiled.graph->name() : "";
  const auto lint_t0 = std::chrono::steady_clock::now();
  const ge::lint::Diagnostics findings = ge::lint::LintModel(compiled);
  spdlog::info("lint: {} finding(s) in {:.3f} s", findings.size(), Seconds(lint_t0));
  for (const ge::lint::Diagnostic& d : findings) WarnLine(ge::lint::FindingLine(info, d));
}

void PrintStreams(const ge::Model& compiled) {
  if (compiled.streams.size() <= 1) return;
  int events = 0;
  for (const ge::StreamTasks& st : compiled.streams)
    for (const ge::Task& t : st.tasks) events += t.kind == ge::Task::Kind::kEventRecord;
  std::printf("streams: %zu streams, %d events\n", compiled.streams.size(), events);
}

// --mode 0: compile the model and write OUTPUT.om.
int ConvertToOm(ge::atc::AtcFlags& f, const ge::atc::AtcSettings& settings, bool graph_text) {
  if (f.output.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--output is required (path without .om)"));
  const std::string om_path = f.output + ".om";
  ge::CompileOptions options;
  if (auto s = ApplyConvertFlags(f, settings, options); !s.ok()) return ge::app::Fail(kTool, s);
  auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "[1/2] converting %s\n", f.model.c_str());
  auto compiled = graph_text ? ge::app::CompileGraphText(f.model, options)
                             : ge::app::ConvertModel(f.model, f.framework, f.input_shape, f.out_nodes, options);
  if (!compiled.ok()) return ge::app::Fail(kTool, compiled.status());
  if (f.lint == "on") LintCompiled(f.model, *compiled);
  std::fputs(ge::atc::MemoryLines(*compiled).c_str(), stdout);
  PrintStreams(*compiled);
  std::fprintf(stderr, "[2/2] writing %s (%zu nodes)\n", om_path.c_str(), compiled->graph->num_nodes());
  if (auto s = ge::WriteOmFile(*compiled, om_path); !s.ok()) return ge::app::Fail(kTool, s);
  std::printf("ge-atc: wrote %s in %.2f s\n", om_path.c_str(), Seconds(t0));
  return 0;
}

int Main(CLI::App& app, int argc, char** argv) {
  ge::atc::AtcFlags f;
  ge::atc::AddAtcFlags(app, f);
  // atc's spellings (-flag, --flag-name) become ours before CLI11 sees them.
  std::vector<std::string> args = ge::atc::NormalizeArgs(argc, argv);
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  CLI11_PARSE(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data());

  auto settings = ge::atc::ResolveAtcFlags(f, WarnLine);
  if (!settings.ok()) return ge::app::Fail(kTool, settings.status());
  if (f.list_ops) return ListOps(f);
  if (f.mode == 6) return ShowModelInfo(f);
  if (f.mode == 1) return WriteOmJson(f);
  if (f.model.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--model is required (see --help)"));
  const bool graph_text = ge::app::IsGraphTextPath(f.model);  // a .ge: the IR's text form, no framework
  if (graph_text && f.framework < 0) f.framework = 5;
  if (f.framework < 0)
    return ge::app::Fail(kTool, ge::InvalidArgument("--framework is required: 5 (ONNX) or 3 (TensorFlow)"));
  if (f.mode == 3) return PrecheckModel(f, *settings);
  return ConvertToOm(f, *settings, graph_text);
}

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, kAtcHelp, Main, argc, argv); }
