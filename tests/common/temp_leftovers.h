// The temporary files a write of PATH left in PATH's folder. Writers write
// PATH.<pid>.tmp first (ge_base/temp_files.h) and rename it; the pid is the
// writing process's, which a test of a tool run as a child does not know, so
// this matches any pid. PATH.tmp, the name before that, counts too.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace ge::test {

// True for "tmp" and "<digits>.tmp": what may follow "PATH." in a temp name.
inline bool IsTempSuffix(const std::string& rest) {
  if (rest == "tmp") return true;
  const std::string tail = ".tmp";
  if (rest.size() <= tail.size() || rest.compare(rest.size() - tail.size(), tail.size(), tail) != 0) return false;
  return std::all_of(rest.begin(), rest.end() - static_cast<std::ptrdiff_t>(tail.size()),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// Sorted paths of PATH.tmp and PATH.<pid>.tmp files beside `path`.
inline std::vector<std::string> TempFilesLeftFor(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> left;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return left;  // no folder, no file in it
  const std::string prefix = path.filename().string() + ".";
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) == 0 && IsTempSuffix(name.substr(prefix.size())))
      left.push_back(e.path().string());
  }
  std::sort(left.begin(), left.end());
  return left;
}

}  // namespace ge::test
