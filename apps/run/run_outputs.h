// Where and how ge-run writes outputs: --output DIR directly (ge-run's own
// layout, NAME.npy), or ais_bench's layout DIR/NAME (--output_dirname) or
// DIR/YYYY_MM_DD-HH_MM_SS, files named STEM_K.EXT after the input file of
// the inference, in --outfmt NPY, BIN or TXT.
#pragma once

#include <string>
#include <vector>

#include "ge/runtime.h"
#include "ge/tools/tensor_file.h"

namespace ge::run {

struct OutputFlags {
  std::string output;      // --output DIR ("" = write nothing)
  std::string dirname;     // --output_dirname NAME (ais_bench)
  std::string outfmt;      // --outfmt NPY|BIN|TXT ("" = the layout's default)
  bool ais_bench = false;  // an ais_bench-only flag was given
};

struct OutputLayout {
  std::string dir;           // where output files go ("" = nowhere)
  std::string summary_path;  // ais_bench's DIR/NAME_summary.json ("" = none)
  tools::TensorFileFormat format = tools::TensorFileFormat::kNpy;
  bool by_input_name = false;  // STEM_K.EXT (ais_bench) rather than NAME.npy
};

// Resolves the layout and creates the output directory. ais_bench's layout
// (a subdirectory, STEM_K names, BIN by default) when an ais_bench-only flag
// is given; STEM_K names also when `by_input_name` (inputs from files other
// than a single .npy set). `now` names the timestamped subdirectory.
Result<OutputLayout> PrepareOutputs(const OutputFlags& flags, bool by_input_name, const std::string& now);

// "YYYY_MM_DD-HH_MM_SS" in local time, as ais_bench names its result folders.
std::string TimestampDirName();

// The file for output k of an inference whose first input file is
// `input_file` ("" for generated data): DIR/STEM_K.EXT, or DIR/NAME.npy in
// ge-run's own layout.
std::string OutputPath(const OutputLayout& layout, const std::string& input_file, size_t k, const IoDesc& io);

// Writes every output; returns the paths written. Errors name the file.
Result<std::vector<std::string>> WriteOutputs(const OutputLayout& layout, const std::string& input_file,
                                              const std::vector<IoDesc>& outputs, const std::vector<void*>& data);

}  // namespace ge::run
