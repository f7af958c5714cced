// Writing files the way every tool must: to PATH.<pid>.tmp, then rename, so a
// failed or interrupted write never leaves a half-written file at PATH.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ge_base/status.h"

namespace ge {

// Writes bytes to path atomically; on failure, SIGINT or SIGTERM nothing is
// left at the temporary path (ge_base/temp_files.h) and an existing file at
// path is untouched. Errors name the path.
Status WriteFileAtomically(const std::string& path, const std::string& bytes);
// The same for a file made of pieces, written one after the other (no
// joined copy of them is made).
Status WriteFileAtomically(const std::string& path, const std::vector<std::string_view>& pieces);

}  // namespace ge
