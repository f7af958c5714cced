// --output_type and --input_fp16_nodes: ATC's model IO dtypes, parsed into
// the compile options (the compiler's insert_io_casts pass applies them).
// Shared by ge-atc and ge-dump, which compiles as ge-atc does.
#pragma once

#include <string>
#include <vector>

#include "ge/compiler.h"

namespace ge::app {

// "FP16" (every float32 output) or "node:index:TYPE;node:index:TYPE", TYPE
// one of FP32, FP16, UINT8, INT8. Errors name the flag and the entry.
Result<std::vector<CompileOptions::OutputType>> ParseOutputType(const std::string& flag);

// "input1;input2": names of float32 model inputs that take float16.
std::vector<std::string> ParseFp16Nodes(const std::string& flag);

}  // namespace ge::app
