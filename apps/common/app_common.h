// What the four tools share: logging set-up, flag parsing helpers, the one
// error line, and loading a model from .onnx or .om.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge_base/logging.h"
#include "ge/model.h"
#include "ge/tools/precheck.h"

namespace ge::app {

using ge::SetupLogging;  // ge_base/logging.h: --log debug | info | warning | error | null
// Prints "TOOL: error: MESSAGE" to stderr; returns the exit code (1).
int Fail(const std::string& tool, const Status& s);
// Makes CLI11 report a bad flag as one line: "TOOL: error: MESSAGE (see --help)".
void InstallOneLineErrors(CLI::App& app, const std::string& tool);

// "input:1,3,224,224;mask:1,128" -> {input: [1,3,224,224], mask: [1,128]}; -1 allowed.
Result<std::map<std::string, std::vector<int64_t>>> ParseInputShapes(const std::string& flag);
// The same in the flag's order, with atc's ranges: "x:1~8,3,224,224" makes
// dim 0 unknown (-1) with range (1, 8); "1~-1" has no upper bound.
struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
  std::vector<std::pair<int64_t, int64_t>> ranges;  // per dim; (-1, -1): none
};
Result<std::vector<InputShape>> ParseInputShapeList(const std::string& flag);
std::vector<std::string> SplitList(const std::string& s, char sep);
// ASCII lower case: flag values compared without regard to case.
std::string ToLower(std::string s);

// --max_memory SIZE: bytes, or a number with K, M, G or T (powers of 1024,
// "24G", "512MiB"), in 1 B..1 TiB; "" is 0 (the machine's memory).
Result<int64_t> ParseMaxMemory(const std::string& flag);

// Runs a tool's main with the tool's CLI::App (`description` heads --help,
// InstallOneLineErrors' one-line errors); an allocation nobody foresaw
// (std::bad_alloc) becomes the one error line instead of an abort.
int RunMain(const std::string& tool, const std::string& description, int (*main)(CLI::App&, int, char**), int argc,
            char** argv);

// --disable_pass A,B / --fusion_switch_file F / --buffer_optimize on|off into
// options (recorded in the .om); errors name the flag.
Status ApplyPassFlags(const std::string& disable_pass, const std::string& fusion_switch_file,
                      const std::string& buffer_optimize, CompileOptions& options);

// --stream_num N: an integer in 1..the target device's max streams (recorded
// in the .om when not 1); errors name the flag and the range.
Status ApplyStreamFlag(const std::string& stream_num, CompileOptions& options);

// Parses a source model (framework 5: .onnx, 3: TensorFlow frozen .pb) and compiles it.
Result<Model> ConvertModel(const std::string& path, int framework, const std::string& input_shape,
                           const std::string& out_nodes, CompileOptions options);
// ATC's pre-check: the parser lists the nodes ge cannot convert; when there
// is none the model is converted (not written) so backend and shape problems
// are reported too. An error only when the file cannot be read as a model.
Result<tools::PrecheckReport> Precheck(const std::string& path, int framework, const std::string& input_shape,
                                       const std::string& out_nodes, const CompileOptions& options);
// .om → loaded model; .ge (the IR's text form) → parsed and compiled;
// .pb → ConvertModel with framework 3; anything else → framework 5.
Result<Model> LoadAnyModel(const std::string& path, CompileOptions options);

}  // namespace ge::app
