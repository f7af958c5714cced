// Turns a --input list (msame, ais_bench) into the inferences to run: one
// entry per model input, each a file or a directory. Files give one
// inference; directories give one inference per file, the k-th file (by
// sorted name) of every directory forming the k-th input set, as ais_bench
// pairs them.
#pragma once

#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::tools {

// One inference: a file per model input, in input order.
using InputSet = std::vector<std::string>;

// `entries` has one file or directory per model input (num_inputs of them;
// all files or all directories). Errors name the entry at fault: a count
// other than num_inputs, a missing path, files mixed with directories, an
// empty directory, directories holding different numbers of files.
// Directories are read one level deep (regular files only, hidden files
// skipped).
Result<std::vector<InputSet>> ResolveInputSets(const std::vector<std::string>& entries, size_t num_inputs);

}  // namespace ge::tools
