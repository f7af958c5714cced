// Where and how ge-run writes outputs, in one of three layouts:
//  - ge-run's own: --output DIR directly, NAME.npy per output;
//  - ais_bench's: DIR/NAME (--output_dirname) or DIR/YYYY_MM_DD-HH_MM_SS,
//    STEM_K.EXT named after the inference's first input file;
//  - msame's: DIR/YYYYMMDD_HHMMSS, STEM_output_K.EXT, STEM the input file
//    for folder inputs and the model otherwise.
// --outfmt NPY, BIN or TXT picks the format of the last two.
#pragma once

#include <string>
#include <vector>

#include "ge/runtime.h"
#include "ge/tools/tensor_file.h"

namespace ge::run {

enum class OutputStyle { kGe, kMsame, kAisBench };

struct OutputFlags {
  std::string output;   // --output DIR ("" = write nothing)
  std::string dirname;  // --output_dirname NAME (ais_bench)
  std::string outfmt;   // --outfmt NPY|BIN|TXT ("" = the layout's default)
  std::string model;    // --model, whose stem names msame's files
  OutputStyle style = OutputStyle::kGe;
};

// The layout asked for: --output_layout ge|msame|ais_bench when given; else
// msame's when ge-run runs under the name `msame` (the installed link, so
// msame scripts run unchanged), ais_bench's when an ais_bench-only flag is
// given, ge-run's own otherwise. --output_dirname exists in ais_bench only.
Result<OutputStyle> ResolveOutputStyle(const std::string& layout_flag, const std::string& argv0, bool ais_bench_flag,
                                       bool dirname_given);

struct OutputLayout {
  std::string dir;           // where output files go ("" = nowhere)
  std::string summary_path;  // ais_bench's DIR/NAME_summary.json ("" = none)
  tools::TensorFileFormat format = tools::TensorFileFormat::kNpy;
  OutputStyle style = OutputStyle::kGe;
  bool by_input_name = false;  // ge-run's layout: STEM_K.npy rather than NAME.npy
  std::string model_stem;      // msame's STEM when not named by an input file
};

// Resolves the layout and creates the output directory. ge-run's own layout
// names files STEM_K.npy when `by_input_name` (inputs from files other than
// a single .npy set). `now` is the time the run started.
Result<OutputLayout> PrepareOutputs(const OutputFlags& flags, bool by_input_name, std::time_t now);

// The timestamped folder names: "YYYY_MM_DD-HH_MM_SS" (ais_bench) and
// "YYYYMMDD_HHMMSS" (msame), in local time.
std::string AisBenchDirName(std::time_t now);
std::string MsameDirName(std::time_t now);

// The file for output k of an inference named after `input_file` ("" for
// generated data, and in msame's layout for inputs given as files).
std::string OutputPath(const OutputLayout& layout, const std::string& input_file, size_t k, const IoDesc& io);

// Writes every output; returns the paths written. Errors name the file.
Result<std::vector<std::string>> WriteOutputs(const OutputLayout& layout, const std::string& input_file,
                                              const std::vector<IoDesc>& outputs, const std::vector<void*>& data);

}  // namespace ge::run
