#include "atc/atc_command_line.h"

#include "atc/atc_flags.h"
#include "atc/atc_gears.h"
#include "atc/atc_precision.h"
#include "common/app_common.h"
#include "common/io_type_flags.h"

namespace ge::atc {
namespace {

// The model, what to do with it (--mode, --list_ops), where the results go.
void AddModelModeFlags(CLI::App& app, AtcFlags& f) {
  app.add_option(
      "--model", f.model,
      "Source model file (.onnx, a TensorFlow frozen .pb, or .ge: the IR's text form, no --framework needed)");
  app.add_option("--framework", f.framework, "Source framework: 5 = ONNX; 3 = TensorFlow frozen GraphDef");
  app.add_option("--output", f.output,
                 "Output path without the .om extension (as ATC): --output out/m writes out/m.om");
  app.add_option(
      "--input_shape", f.input_shape,
      "Override input shapes: \"name:1,3,224,224;name2:1,128\". A fixed shape makes a dynamic input static (the "
      "fastest plan); -1 leaves a dim dynamic; LO~HI (\"x:1~8,3,224,224\", HI -1: no bound) leaves it dynamic "
      "and ge-run refuses sizes outside the range");
  app.add_option(
      "--dynamic_batch_size", f.dynamic_batch_size,
      "Gears of the batch: \"1,2,4,8\". One static plan per batch size, all in one .om sharing one copy of "
      "the weights; the inputs' -1 dims (the batch, dim 0; from --input_shape or the model) take each value. "
      "ge-run picks the gear from the input dims or --dymBatch, in sink and v2 mode");
  app.add_option("--dynamic_image_size", f.dynamic_image_size,
                 "Gears of the image size: \"224,224;320,320\" (H,W per gear): each dynamic input's two -1 dims take H "
                 "and W (ge-run --dymHW picks one)");
  app.add_option("--dynamic_dims", f.dynamic_dims,
                 "Gears of ND inputs (with --input_format ND): \"1,40;2,40\": each gear gives every -1 dim of the "
                 "inputs, in --input_shape's order (ge-run --dymDims picks one)");
  app.add_option(
      "--out_nodes", f.out_nodes,
      "Graph outputs to keep instead of the model's own: \"name1;name2\" (TensorFlow: \"node\" or \"node:k\")");
  app.add_option("--mode", f.mode,
                 "0: convert (default); 1: write the .om given by --om as JSON to --json; 3: pre-check --model "
                 "(report to --check_report or --json, else <--output>.precheck.json; exit 1 if any node is "
                 "unsupported); 6: print the model information of the .om given by --om")
      ->check(CLI::IsMember({0, 1, 3, 6}));
  app.add_flag("--list_ops", f.list_ops,
               "Print the op types this build supports (ONNX names plus the IR's own), with arity and whether the CPU "
               "backend has a kernel; with --json FILE also as JSON. docs/onnx-support.md is generated from it");
  app.add_option("--om", f.om, "--mode 1 and 6: the .om file to show");
  app.add_option("--json", f.json, "--mode 1: the JSON file to write; --mode 3: the check report");
  app.add_option("--check_report", f.check_report, "--mode 3: the check report (atc's name; same as --json)");
}

// Target, input layout, AIPP, precision and IO dtypes: atc's flags and their CPU meaning.
void AddTargetPrecisionFlags(CLI::App& app, AtcFlags& f) {
  app.add_option("--soc_version", f.soc_version,
                 "Target CPU: native (default: this machine), cpu (plain layouts, any x86-64), cpu_avx2, cpu_avx512. "
                 "It decides the activation layouts and is recorded in the .om; an Ascend name (Ascend310P3, "
                 "Ascend910B, ...) means native, with a warning");
  app.add_option("--input_format", f.input_format,
                 "The inputs' layout, as atc: ONNX NCHW (default), ND, NCDHW; TensorFlow NHWC (default), NCHW, ND, "
                 "NDHWC, NCDHW. Checked against the framework and recorded");
  app.add_option("--insert_op_conf", f.insert_op_conf,
                 "AIPP: atc's configuration file (protobuf text, aipp_op { aipp_mode: static input_format: "
                 "YUV420SP_U8 ... }). The named input becomes the raw uint8 image ([N,H,W,C], YUV420SP: "
                 "[N,H*3/2,W,1]) and a preprocessing node (crop, swaps, colour conversion, normalisation, padding) "
                 "feeds the model (docs/aipp.md)");
  app.add_option("--precision_mode", f.precision_mode,
                 "atc's precision mode. force_fp32 (default), must_keep_origin_dtype, allow_fp32_to_bf16 and "
                 "allow_fp32_to_fp16 compute in float32 (every CPU kernel supports it). allow_mix_precision (or "
                 "allow_mix_precision_bf16) runs convolutions and matrix products in bfloat16, norms, softmax and "
                 "reductions in float32, on a CPU with AVX512-BF16 or AMX (an error elsewhere; docs/precision.md). "
                 "float16 modes (force_fp16, allow_mix_precision_fp16) are accepted with a warning: float32");
  app.add_option("--precision_mode_v2", f.precision_mode_v2,
                 "atc's precision mode v2: fp32/origin (float32), mixed_bfloat16 (= allow_mix_precision), "
                 "mixed_float16/fp16 (warning: float32)");
  app.add_option("--keep_dtype", f.keep_dtype,
                 "With a mixed precision mode: a file of nodes that keep float32, one per line: OpName::conv1 or "
                 "OpType::Conv");
  app.add_option("--modify_mixlist", f.modify_mixlist,
                 "With a mixed precision mode: atc's JSON editing the op lists, {\"allow_mix_precision\": "
                 "{\"white-list\": {\"to-add\": [...], \"to-remove\": [...]}, \"gray-list\": ..., "
                 "\"black-list\": ...}}");
  app.add_option("--op_select_implmode", f.implmode,
                 "high_performance | high_precision (| *_for_all): every CPU kernel has one implementation, in full "
                 "float32 precision; high_performance is accepted with a warning")
      ->check(
          CLI::IsMember({"high_performance", "high_precision", "high_performance_for_all", "high_precision_for_all"}));
  app.add_option("--optypelist_for_implmode", f.implmode_ops,
                 "Op types --op_select_implmode applies to: \"Sigmoid,Gelu\"");
  app.add_option("--output_type", f.output_type,
                 "Output data type of the float32 outputs: FP32 (default), FP16, UINT8 or INT8, for all outputs "
                 "(FP16) or per output (\"node:index:FP16;node2:0:UINT8\"): a Cast at the model's boundary (integers "
                 "truncate towards zero and saturate)");
  app.add_option("--input_fp16_nodes", f.input_fp16_nodes,
                 "Float32 inputs that take float16 data instead: \"input1;input2\" (a Cast to float32 follows them)");
  app.add_option("--disable_reuse_memory", f.disable_reuse_memory,
                 "1: every tensor its own memory (atc's name for --buffer_optimize off); 0: reuse (default)")
      ->check(CLI::IsMember({"0", "1"}));
  app.add_option("--enable_single_stream", f.enable_single_stream,
                 "true: one stream (atc's name; same as --stream_num 1)")
      ->check(CLI::IsMember({"true", "false"}));
}

// Logging, passes, memory reuse, streams, control flow, lint, memory limit.
void AddCompileFlags(CLI::App& app, AtcFlags& f) {
  app.add_option("--log", f.log, "Log level on stderr: debug, info, warning (default), error, null");
  app.add_option(
      "--disable_pass", f.disable_pass,
      "Switch off optimisation/fusion passes by name: \"cse,conv_bn_fold\" (ge-dump --list_passes lists them)");
  app.add_option("--fusion_switch_file", f.fusion_switch_file,
                 "ATC-style JSON switching fusion passes on/off: {\"Switch\":{\"GraphFusion\":{\"NAME\":\"off\"}}}");
  app.add_option("--buffer_optimize", f.buffer_optimize,
                 "Feature-map memory reuse between tensors with disjoint lifetimes: on (default) or off; atc's "
                 "l2_optimize and off_optimize mean on and off")
      ->check(CLI::IsMember({"on", "off", "l2_optimize", "off_optimize"}));
  app.add_option("--stream_num", f.stream_num,
                 "Streams to run independent branches on (1 = one stream, the default; at most the backend's, 8 on "
                 "the CPU): branches go to up to N streams by estimated cost, event record/wait tasks order "
                 "cross-stream edges (docs/streams.md)");
  app.add_option("--control_flow", f.control_flow,
                 "If / Loop nodes whose subgraphs are all static: sink (default) plans them with the model, linked "
                 "into label tasks so sink mode runs a whole loop in one call; v2 leaves every one to the v2 "
                 "runtime (the model is dynamic). Others always run in v2 (docs/control-flow.md)")
      ->check(CLI::IsMember({"sink", "v2"}));
  app.add_option("--lint", f.lint,
                 "on (default): after compiling, run ge-lint's checks (docs/lint.md) on the compiled model and print "
                 "each finding as a warning line on stderr; never a failure, the .om is written. off: skip them")
      ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--max_memory", f.max_memory,
                 "Refuse a model with a tensor, memory segment or total above SIZE (bytes, or with K, M, G, T: 24G; "
                 "at most 1T), which a loader with that much memory could not load. Default: this machine's memory");
  // atc's spellings (-flag, --flag-name) become ours before CLI11 sees them.
}

}  // namespace

void AddAtcFlags(CLI::App& app, AtcFlags& f) {
  // In this order: --help lists the flags as they are added.
  AddModelModeFlags(app, f);
  AddTargetPrecisionFlags(app, f);
  AddCompatOptions(app, f.compat_values);
  AddCompileFlags(app, f);
}

Result<AtcSettings> ResolveAtcFlags(AtcFlags& f, const std::function<void(const std::string&)>& warn) {
  AtcSettings s;
  GE_RETURN_IF_ERROR(app::SetupLogging(f.log));
  GE_ASSIGN_OR_RETURN(s.memory_limit, app::ParseMaxMemory(f.max_memory));
  GE_ASSIGN_OR_RETURN(const std::vector<std::string> warnings, CheckCompatOptions(f.compat_values));
  for (const std::string& w : warnings) warn(w);
  if (f.buffer_optimize == "l2_optimize") f.buffer_optimize = "on";
  if (f.buffer_optimize == "off_optimize" || f.disable_reuse_memory == "1") f.buffer_optimize = "off";
  if (!f.check_report.empty()) {
    if (!f.json.empty() && f.json != f.check_report)
      return InvalidArgument("--check_report and --json name different report files");
    f.json = f.check_report;
  }
  GE_ASSIGN_OR_RETURN(s.precision,
                      ParsePrecision(f.precision_mode, f.precision_mode_v2, f.keep_dtype, f.modify_mixlist, warn));
  if (f.implmode.rfind("high_performance", 0) == 0)
    warn("--op_select_implmode " + f.implmode + ": every CPU kernel has one implementation, in full float32 precision");
  GE_ASSIGN_OR_RETURN(s.gears, ParseGearFlags(f.dynamic_batch_size, f.dynamic_image_size, f.dynamic_dims, f.input_shape,
                                              f.input_format));
  GE_ASSIGN_OR_RETURN(s.output_types, app::ParseOutputType(f.output_type));
  return s;
}

void ApplyIoTypes(const AtcFlags& f, const AtcSettings& s, CompileOptions& o) {
  o.output_types = s.output_types;
  o.fp16_inputs = app::ParseFp16Nodes(f.input_fp16_nodes);
  if (!f.output_type.empty()) o.recorded_options.emplace_back("output_type", f.output_type);
  if (!f.input_fp16_nodes.empty()) o.recorded_options.emplace_back("input_fp16_nodes", f.input_fp16_nodes);
  o.gears = s.gears;
  for (const auto& [flag, value] :
       {std::pair<const char*, const std::string*>{"dynamic_batch_size", &f.dynamic_batch_size},
        {"dynamic_image_size", &f.dynamic_image_size},
        {"dynamic_dims", &f.dynamic_dims}})
    if (!value->empty()) o.recorded_options.emplace_back(flag, *value);
}

}  // namespace ge::atc
