// --precision_mode, --precision_mode_v2, --keep_dtype, --modify_mixlist:
// ATC's precision flags into CompileOptions::Precision (docs/precision.md).
#pragma once

#include <functional>
#include <string>

#include "ge/compiler.h"

namespace ge::atc {

// `warn` gets one line for a mode the CPU computes in float32 instead (the
// float16 ones). A bad value, a file that cannot be read, or list files
// without a mixed mode are errors naming the flag.
Result<CompileOptions::Precision> ParsePrecision(const std::string& mode, const std::string& mode_v2,
                                                 const std::string& keep_dtype, const std::string& modify_mixlist,
                                                 const std::function<void(const std::string&)>& warn);

}  // namespace ge::atc
