// ge-atc: convert a model to .om (--mode 0), show a .om as JSON (--mode 1), or
// pre-check a model (--mode 3, atc/precheck.h).
// Flag names follow CANN's atc.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>

#include <spdlog/spdlog.h>

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
      "(docs/compatibility.md lists every one).",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, output, input_shape, out_nodes, om, json, log = "warning";
  int framework = -1, mode = 0;
  app.add_option("--model", model, "Source model file (.onnx, a TensorFlow frozen .pb, or .ge: the IR's text form, no --framework needed)");
  app.add_option("--framework", framework, "Source framework: 5 = ONNX; 3 = TensorFlow frozen GraphDef");
  app.add_option("--output", output, "Output path without the .om extension (as ATC): --output out/m writes out/m.om");
  app.add_option("--input_shape", input_shape,
                 "Override input shapes: \"name:1,3,224,224;name2:1,128\". A fixed shape makes a dynamic input static (the "
                 "fastest plan); -1 leaves a dim dynamic; LO~HI (\"x:1~8,3,224,224\", HI -1: no bound) leaves it dynamic "
                 "and ge-run refuses sizes outside the range");
  std::string dynamic_batch_size, dynamic_image_size, dynamic_dims;
  app.add_option("--dynamic_batch_size", dynamic_batch_size,
                 "Gears of the batch: \"1,2,4,8\". One static plan per batch size, all in one .om sharing one copy of "
                 "the weights; the inputs' -1 dims (the batch, dim 0; from --input_shape or the model) take each value. "
                 "ge-run picks the gear from the input dims or --dymBatch, in sink and v2 mode");
  app.add_option("--dynamic_image_size", dynamic_image_size,
                 "Gears of the image size: \"224,224;320,320\" (H,W per gear): each dynamic input's two -1 dims take H "
                 "and W (ge-run --dymHW picks one)");
  app.add_option("--dynamic_dims", dynamic_dims,
                 "Gears of ND inputs (with --input_format ND): \"1,40;2,40\": each gear gives every -1 dim of the "
                 "inputs, in --input_shape's order (ge-run --dymDims picks one)");
  app.add_option("--out_nodes", out_nodes, "Graph outputs to keep instead of the model's own: \"name1;name2\" (TensorFlow: \"node\" or \"node:k\")");
  app.add_option("--mode", mode,
                 "0: convert (default); 1: write the .om given by --om as JSON to --json; 3: pre-check --model "
                 "(report to --check_report or --json, else <--output>.precheck.json; exit 1 if any node is "
                 "unsupported); 6: print the model information of the .om given by --om")
      ->check(CLI::IsMember({0, 1, 3, 6}));
  bool list_ops = false;
  app.add_flag("--list_ops", list_ops,
               "Print the op types this build supports (ONNX names plus the IR's own), with arity and whether the CPU "
               "backend has a kernel; with --json FILE also as JSON. docs/onnx-support.md is generated from it");
  app.add_option("--om", om, "--mode 1 and 6: the .om file to show");
  app.add_option("--json", json, "--mode 1: the JSON file to write; --mode 3: the check report");
  std::string check_report;
  app.add_option("--check_report", check_report, "--mode 3: the check report (atc's name; same as --json)");
  std::string soc_version, input_format, precision_mode, precision_mode_v2, implmode, implmode_ops, output_type;
  std::string disable_reuse_memory, enable_single_stream, insert_op_conf, input_fp16_nodes;
  app.add_option("--soc_version", soc_version,
                 "Target CPU: native (default: this machine), cpu (plain layouts, any x86-64), cpu_avx2, cpu_avx512. "
                 "It decides the activation layouts and is recorded in the .om; an Ascend name (Ascend310P3, "
                 "Ascend910B, ...) means native, with a warning");
  app.add_option("--input_format", input_format,
                 "The inputs' layout, as atc: ONNX NCHW (default), ND, NCDHW; TensorFlow NHWC (default), NCHW, ND, "
                 "NDHWC, NCDHW. Checked against the framework and recorded");
  app.add_option("--insert_op_conf", insert_op_conf,
                 "AIPP: atc's configuration file (protobuf text, aipp_op { aipp_mode: static input_format: "
                 "YUV420SP_U8 ... }). The named input becomes the raw uint8 image ([N,H,W,C], YUV420SP: "
                 "[N,H*3/2,W,1]) and a preprocessing node (crop, swaps, colour conversion, normalisation, padding) "
                 "feeds the model (docs/aipp.md)");
  app.add_option("--precision_mode", precision_mode,
                 "atc's precision mode. force_fp32 (default), must_keep_origin_dtype, allow_fp32_to_bf16 and "
                 "allow_fp32_to_fp16 compute in float32 (every CPU kernel supports it). allow_mix_precision (or "
                 "allow_mix_precision_bf16) runs convolutions and matrix products in bfloat16, norms, softmax and "
                 "reductions in float32, on a CPU with AVX512-BF16 or AMX (an error elsewhere; docs/precision.md). "
                 "float16 modes (force_fp16, allow_mix_precision_fp16) are accepted with a warning: float32");
  app.add_option("--precision_mode_v2", precision_mode_v2,
                 "atc's precision mode v2: fp32/origin (float32), mixed_bfloat16 (= allow_mix_precision), "
                 "mixed_float16/fp16 (warning: float32)");
  std::string keep_dtype, modify_mixlist;
  app.add_option("--keep_dtype", keep_dtype,
                 "With a mixed precision mode: a file of nodes that keep float32, one per line: OpName::conv1 or "
                 "OpType::Conv");
  app.add_option("--modify_mixlist", modify_mixlist,
                 "With a mixed precision mode: atc's JSON editing the op lists, {\"allow_mix_precision\": "
                 "{\"white-list\": {\"to-add\": [...], \"to-remove\": [...]}, \"gray-list\": ..., "
                 "\"black-list\": ...}}");
  app.add_option("--op_select_implmode", implmode,
                 "high_performance | high_precision (| *_for_all): every CPU kernel has one implementation, in full "
                 "float32 precision; high_performance is accepted with a warning")
      ->check(CLI::IsMember({"high_performance", "high_precision", "high_performance_for_all", "high_precision_for_all"}));
  app.add_option("--optypelist_for_implmode", implmode_ops, "Op types --op_select_implmode applies to: \"Sigmoid,Gelu\"");
  app.add_option("--output_type", output_type,
                 "Output data type of the float32 outputs: FP32 (default), FP16, UINT8 or INT8, for all outputs "
                 "(FP16) or per output (\"node:index:FP16;node2:0:UINT8\"): a Cast at the model's boundary (integers "
                 "truncate towards zero and saturate)");
  app.add_option("--input_fp16_nodes", input_fp16_nodes,
                 "Float32 inputs that take float16 data instead: \"input1;input2\" (a Cast to float32 follows them)");
  app.add_option("--disable_reuse_memory", disable_reuse_memory,
                 "1: every tensor its own memory (atc's name for --buffer_optimize off); 0: reuse (default)")
      ->check(CLI::IsMember({"0", "1"}));
  app.add_option("--enable_single_stream", enable_single_stream, "true: one stream (atc's name; same as --stream_num 1)")
      ->check(CLI::IsMember({"true", "false"}));
  std::map<std::string, std::string> compat_values;
  ge::atc::AddCompatOptions(app, compat_values);
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  std::string disable_pass, fusion_switch_file, buffer_optimize = "on";
  app.add_option("--disable_pass", disable_pass,
                 "Switch off optimisation/fusion passes by name: \"cse,conv_bn_fold\" (ge-dump --list_passes lists them)");
  app.add_option("--fusion_switch_file", fusion_switch_file,
                 "ATC-style JSON switching fusion passes on/off: {\"Switch\":{\"GraphFusion\":{\"NAME\":\"off\"}}}");
  app.add_option("--buffer_optimize", buffer_optimize,
                 "Feature-map memory reuse between tensors with disjoint lifetimes: on (default) or off; atc's "
                 "l2_optimize and off_optimize mean on and off")
      ->check(CLI::IsMember({"on", "off", "l2_optimize", "off_optimize"}));
  std::string stream_num = "1";
  app.add_option("--stream_num", stream_num,
                 "Streams to run independent branches on (1 = one stream, the default; at most the backend's, 8 on "
                 "the CPU): branches go to up to N streams by estimated cost, event record/wait tasks order "
                 "cross-stream edges (docs/streams.md)");
  std::string control_flow = "sink";
  app.add_option("--control_flow", control_flow,
                 "If / Loop nodes whose subgraphs are all static: sink (default) plans them with the model, linked "
                 "into label tasks so sink mode runs a whole loop in one call; v2 leaves every one to the v2 "
                 "runtime (the model is dynamic). Others always run in v2 (docs/control-flow.md)")
      ->check(CLI::IsMember({"sink", "v2"}));
  std::string lint = "on";
  app.add_option("--lint", lint,
                 "on (default): after compiling, run ge-lint's checks (docs/lint.md) on the compiled model and print "
                 "each finding as a warning line on stderr; never a failure, the .om is written. off: skip them")
      ->check(CLI::IsMember({"on", "off"}));
  std::string max_memory;
  app.add_option("--max_memory", max_memory,
                 "Refuse a model with a tensor, memory segment or total above SIZE (bytes, or with K, M, G, T: 24G; "
                 "at most 1T), which a loader with that much memory could not load. Default: this machine's memory");
  // atc's spellings (-flag, --flag-name) become ours before CLI11 sees them.
  std::vector<std::string> args = ge::atc::NormalizeArgs(argc, argv);
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  CLI11_PARSE(app, static_cast<int>(arg_ptrs.size()), arg_ptrs.data());

  if (auto s = ge::app::SetupLogging(log); !s.ok()) return ge::app::Fail(kTool, s);
  auto memory_limit = ge::app::ParseMaxMemory(max_memory);
  if (!memory_limit.ok()) return ge::app::Fail(kTool, memory_limit.status());
  auto warnings = ge::atc::CheckCompatOptions(compat_values);
  if (!warnings.ok()) return ge::app::Fail(kTool, warnings.status());
  auto warn = [](const std::string& w) { std::fprintf(stderr, "%s: warning: %s\n", kTool, w.c_str()); };
  for (const std::string& w : *warnings) warn(w);
  if (buffer_optimize == "l2_optimize") buffer_optimize = "on";
  if (buffer_optimize == "off_optimize" || disable_reuse_memory == "1") buffer_optimize = "off";
  if (!check_report.empty()) {
    if (!json.empty() && json != check_report)
      return ge::app::Fail(kTool, ge::InvalidArgument("--check_report and --json name different report files"));
    json = check_report;
  }
  auto precision = ge::atc::ParsePrecision(precision_mode, precision_mode_v2, keep_dtype, modify_mixlist, warn);
  if (!precision.ok()) return ge::app::Fail(kTool, precision.status());
  if (implmode.rfind("high_performance", 0) == 0)
    warn("--op_select_implmode " + implmode + ": every CPU kernel has one implementation, in full float32 precision");
  auto gears = ge::atc::ParseGearFlags(dynamic_batch_size, dynamic_image_size, dynamic_dims, input_shape, input_format);
  if (!gears.ok()) return ge::app::Fail(kTool, gears.status());
  auto output_types = ge::app::ParseOutputType(output_type);
  if (!output_types.ok()) return ge::app::Fail(kTool, output_types.status());
  // Model IO dtypes and their record in the .om.
  auto apply_io_types = [&](ge::CompileOptions& o) {
    o.output_types = *output_types;
    o.fp16_inputs = ge::app::ParseFp16Nodes(input_fp16_nodes);
    if (!output_type.empty()) o.recorded_options.emplace_back("output_type", output_type);
    if (!input_fp16_nodes.empty()) o.recorded_options.emplace_back("input_fp16_nodes", input_fp16_nodes);
    o.gears = *gears;
    for (const auto& [flag, value] : {std::pair<const char*, const std::string*>{"dynamic_batch_size", &dynamic_batch_size},
                                      {"dynamic_image_size", &dynamic_image_size},
                                      {"dynamic_dims", &dynamic_dims}})
      if (!value->empty()) o.recorded_options.emplace_back(flag, *value);
  };

  if (list_ops) {
    auto device = ge::hal::GetDevice();
    if (!device.ok()) return ge::app::Fail(kTool, device.status());
    const auto ops = ge::tools::ListOps((*device)->kernels());
    if (!json.empty()) {
      if (auto s = ge::WriteFileAtomically(json, ge::tools::OpListJson(ops)); !s.ok()) return ge::app::Fail(kTool, s);
      std::fprintf(stderr, "%s: wrote %s\n", kTool, json.c_str());
    }
    std::printf("%s", ge::tools::OpListText(ops).c_str());
    return 0;
  }

  if (mode == 6) {
    if (om.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--mode 6 needs --om FILE"));
    auto loaded = ge::ReadOmFile(om);
    if (!loaded.ok()) return ge::app::Fail(kTool, loaded.status());
    std::printf("%s", ge::atc::ModelInfo(loaded->model).c_str());
    return 0;
  }

  if (mode == 1) {
    if (om.empty() || json.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--mode 1 needs --om FILE and --json FILE"));
    auto text = ge::OmToJson(om);
    if (!text.ok()) return ge::app::Fail(kTool, text.status());
    if (auto s = ge::WriteFileAtomically(json, *text); !s.ok()) return ge::app::Fail(kTool, s);
    std::printf("ge-atc: wrote %s\n", json.c_str());
    return 0;
  }

  if (model.empty()) return ge::app::Fail(kTool, ge::InvalidArgument("--model is required (see --help)"));
  const bool graph_text = ge::app::IsGraphTextPath(model);  // a .ge: the IR's text form, no framework
  if (graph_text && framework < 0) framework = 5;
  if (framework < 0) return ge::app::Fail(kTool, ge::InvalidArgument("--framework is required: 5 (ONNX) or 3 (TensorFlow)"));
  if (mode == 3) {
    auto report_path = ge::tools::PrecheckReportPath(json, output);
    if (!report_path.ok()) return ge::app::Fail(kTool, report_path.status());
    ge::CompileOptions options;
    options.model_name = BaseName(output.empty() ? model : output);
    options.max_memory = *memory_limit;
    if (auto s = ge::app::ApplyPassFlags(disable_pass, fusion_switch_file, buffer_optimize, options); !s.ok())
      return ge::app::Fail(kTool, s);
    if (auto s = ApplyTargetFlags(soc_version, input_format, insert_op_conf, framework, options, warn); !s.ok())
      return ge::app::Fail(kTool, s);
    apply_io_types(options);
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
  options.sink_control_flow = control_flow == "sink";
  options.precision = *precision;
  if (!precision_mode.empty()) options.recorded_options.emplace_back("precision_mode", precision_mode);
  if (!precision_mode_v2.empty()) options.recorded_options.emplace_back("precision_mode_v2", precision_mode_v2);
  if (auto s = ge::app::ApplyPassFlags(disable_pass, fusion_switch_file, buffer_optimize, options); !s.ok())
    return ge::app::Fail(kTool, s);
  if (enable_single_stream == "true") stream_num = "1";
  if (auto s = ge::app::ApplyStreamFlag(stream_num, options); !s.ok()) return ge::app::Fail(kTool, s);
  if (auto s = ApplyTargetFlags(soc_version, input_format, insert_op_conf, framework, options, warn); !s.ok())
    return ge::app::Fail(kTool, s);
  apply_io_types(options);
  auto t0 = std::chrono::steady_clock::now();
  std::fprintf(stderr, "[1/2] converting %s\n", model.c_str());
  auto compiled = graph_text ? ge::app::CompileGraphText(model, options)
                             : ge::app::ConvertModel(model, framework, input_shape, out_nodes, options);
  if (!compiled.ok()) return ge::app::Fail(kTool, compiled.status());
  if (lint == "on") {
    // As GE's GraphLint: findings are warnings, never a failure.
    ge::lint::ReportInfo info;
    info.file = model;
    info.root_graph = compiled->graph ? compiled->graph->name() : "";
    const auto lint_t0 = std::chrono::steady_clock::now();
    const ge::lint::Diagnostics findings = ge::lint::LintModel(*compiled);
    spdlog::info("lint: {} finding(s) in {:.3f} s", findings.size(), Seconds(lint_t0));
    for (const ge::lint::Diagnostic& d : findings) warn(ge::lint::FindingLine(info, d));
  }
  std::fputs(ge::atc::MemoryLines(*compiled).c_str(), stdout);
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
