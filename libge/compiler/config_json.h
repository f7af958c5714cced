// The JSON configuration files of the compiler (--fusion_switch_file,
// --modify_mixlist): read as regular files and parsed with a nesting limit,
// so a file nested 50,000 levels deep is one error, not a stack overflow in
// the code that walks the parsed tree.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ge_base/status.h"

namespace ge {

// Deeper than any configuration file needs (they nest three levels).
inline constexpr int kMaxConfigJsonDepth = 16;

// The JSON object in the file at `path`; `what` names the file in errors
// ("fusion switch file"). InvalidArgument "PATH: not a JSON object" and
// "PATH: JSON nested deeper than 16 levels"; file errors as ReadRegularFile.
Result<nlohmann::json> ReadConfigJsonObject(const std::string& path, const std::string& what);

}  // namespace ge
