#include "run/run_outputs.h"

#include <cctype>
#include <ctime>
#include <filesystem>

namespace ge::run {
namespace {

namespace fs = std::filesystem;

std::string SafeFileName(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return s.empty() ? "output" : s;
}

}  // namespace

std::string TimestampDirName() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y_%m_%d-%H_%M_%S", &tm);
  return buf;
}

Result<OutputLayout> PrepareOutputs(const OutputFlags& flags, bool by_input_name, const std::string& now) {
  OutputLayout layout;
  if (!flags.dirname.empty() && flags.output.empty())
    return InvalidArgument("--output_dirname " + flags.dirname + " needs --output (it names a folder inside it)");
  if (!flags.dirname.empty() && (flags.dirname.find('/') != std::string::npos || flags.dirname == "." ||
                                 flags.dirname == ".."))
    return InvalidArgument("--output_dirname " + flags.dirname + ": a folder name, not a path");
  layout.by_input_name = by_input_name || flags.ais_bench;
  layout.format = flags.ais_bench ? tools::TensorFileFormat::kBin : tools::TensorFileFormat::kNpy;
  if (!flags.outfmt.empty()) {
    auto f = tools::ParseTensorFileFormat(flags.outfmt);
    if (!f.ok()) return f.status().Annotated("--outfmt");
    layout.format = *f;
  }
  if (flags.output.empty()) return layout;
  layout.dir = flags.output;
  if (flags.ais_bench) {
    const std::string name = flags.dirname.empty() ? now : flags.dirname;
    layout.dir = (fs::path(flags.output) / name).string();
    layout.summary_path = (fs::path(flags.output) / (name + "_summary.json")).string();
  }
  std::error_code ec;
  fs::create_directories(layout.dir, ec);
  if (ec) return IoError("--output " + layout.dir + ": " + ec.message());
  if (!fs::is_directory(layout.dir, ec)) return IoError("--output " + layout.dir + ": not a directory");
  return layout;
}

std::string OutputPath(const OutputLayout& layout, const std::string& input_file, size_t k, const IoDesc& io) {
  if (!layout.by_input_name) return (fs::path(layout.dir) / (SafeFileName(io.name) + ".npy")).string();
  const std::string stem = input_file.empty() ? "pure_infer_data" : fs::path(input_file).stem().string();
  return (fs::path(layout.dir) / (stem + "_" + std::to_string(k) + "." + tools::TensorFileExtension(layout.format)))
      .string();
}

Result<std::vector<std::string>> WriteOutputs(const OutputLayout& layout, const std::string& input_file,
                                              const std::vector<IoDesc>& outputs, const std::vector<void*>& data) {
  std::vector<std::string> written;
  if (layout.dir.empty()) return written;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::string path = OutputPath(layout, input_file, k, outputs[k]);
    const auto format = layout.by_input_name ? layout.format : tools::TensorFileFormat::kNpy;
    if (auto s = tools::WriteTensorFile(path, format, outputs[k].desc, data[k]); !s.ok()) return s;
    written.push_back(path);
  }
  return written;
}

}  // namespace ge::run
