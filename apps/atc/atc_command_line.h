// ge-atc's command line: every flag registered on the CLI11 app (in the
// order --help lists them), and what they resolve to once parsed: atc's
// aliases folded into ours, the precision, gear and IO dtype flags parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ge/compiler.h"

namespace ge::atc {

// Every flag's value as parsed.
struct AtcFlags {
  std::string model, output, input_shape, out_nodes, om, json, log = "warning";
  int framework = -1, mode = 0;
  bool list_ops = false;
  std::string check_report;
  std::string dynamic_batch_size, dynamic_image_size, dynamic_dims;
  std::string soc_version, input_format, precision_mode, precision_mode_v2, implmode, implmode_ops, output_type;
  std::string disable_reuse_memory, enable_single_stream, insert_op_conf, input_fp16_nodes;
  std::string keep_dtype, modify_mixlist;
  std::map<std::string, std::string> compat_values;  // atc flags taken only to ignore or refuse
  std::string disable_pass, fusion_switch_file, buffer_optimize = "on";
  std::string stream_num = "1";
  std::string control_flow = "sink";
  std::string lint = "on";
  std::string max_memory;
};

void AddAtcFlags(CLI::App& app, AtcFlags& flags);

// What the flags resolve to beyond their values.
struct AtcSettings {
  int64_t memory_limit = 0;  // --max_memory in bytes (0: the machine's memory)
  CompileOptions::Precision precision;
  GearOptions gears;
  std::vector<CompileOptions::OutputType> output_types;
};

// After parsing: sets up logging, folds atc's aliases (--check_report,
// --disable_reuse_memory, l2_optimize, ...) into `flags` and parses what
// needs parsing; each warning goes to `warn` as it is found.
Result<AtcSettings> ResolveAtcFlags(AtcFlags& flags, const std::function<void(const std::string&)>& warn);

// The model's IO dtypes and gears, and their record in the .om.
void ApplyIoTypes(const AtcFlags& flags, const AtcSettings& settings, CompileOptions& options);

}  // namespace ge::atc
