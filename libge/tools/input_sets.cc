#include "ge/tools/input_sets.h"

#include <algorithm>
#include <filesystem>

namespace ge::tools {
namespace {

namespace fs = std::filesystem;

// Regular files directly in dir (hidden ones skipped), sorted by name.
Result<std::vector<std::string>> ListFiles(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code fec;
    if (it->is_regular_file(fec)) files.push_back(it->path().string());
  }
  if (ec) return IoError(dir + ": cannot list the directory: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<std::vector<InputSet>> ResolveInputSets(const std::vector<std::string>& entries, size_t num_inputs) {
  if (entries.size() != num_inputs)
    return InvalidArgument("the model takes " + std::to_string(num_inputs) + " inputs, " +
                           std::to_string(entries.size()) + " given");
  if (entries.empty()) return std::vector<InputSet>{};
  std::vector<bool> is_dir;
  for (const std::string& e : entries) {
    std::error_code ec;
    const fs::file_status st = fs::status(e, ec);
    if (ec || !fs::exists(st)) return NotFound(e + ": no such file or directory");
    is_dir.push_back(fs::is_directory(st));
    if (is_dir.back() != is_dir.front())
      return InvalidArgument(e + " is a " + (is_dir.back() ? "directory" : "file") + " but " + entries.front() +
                             " is a " + (is_dir.front() ? "directory" : "file") +
                             ": give a file for every input or a directory for every input");
  }
  if (!is_dir.front()) return std::vector<InputSet>{entries};
  std::vector<std::vector<std::string>> lists;
  for (const std::string& dir : entries) {
    auto files = ListFiles(dir);
    if (!files.ok()) return files.status();
    if (files->empty()) return InvalidArgument(dir + ": the directory holds no files");
    if (!lists.empty() && files->size() != lists.front().size())
      return InvalidArgument(dir + " holds " + std::to_string(files->size()) + " files but " + entries.front() +
                             " holds " + std::to_string(lists.front().size()) +
                             ": every input directory must hold one file per inference");
    lists.push_back(std::move(files).value());
  }
  std::vector<InputSet> sets(lists.front().size());
  for (size_t k = 0; k < sets.size(); ++k)
    for (const auto& l : lists) sets[k].push_back(l[k]);
  return sets;
}

}  // namespace ge::tools
