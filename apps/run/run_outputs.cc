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

std::string LocalTime(std::time_t now, const char* format) {
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace

std::string AisBenchDirName(std::time_t now) { return LocalTime(now, "%Y_%m_%d-%H_%M_%S"); }
std::string MsameDirName(std::time_t now) { return LocalTime(now, "%Y%m%d_%H%M%S"); }

Result<OutputStyle> ResolveOutputStyle(const std::string& layout_flag, const std::string& argv0, bool ais_bench_flag,
                                       bool dirname_given) {
  OutputStyle style = OutputStyle::kGe;
  if (layout_flag == "msame") {
    style = OutputStyle::kMsame;
  } else if (layout_flag == "ais_bench") {
    style = OutputStyle::kAisBench;
  } else if (layout_flag == "ge") {
    style = OutputStyle::kGe;
  } else if (!layout_flag.empty()) {
    return InvalidArgument("--output_layout " + layout_flag + ": expected ge, msame or ais_bench");
  } else if (fs::path(argv0).filename() == "msame") {
    style = OutputStyle::kMsame;
  } else if (ais_bench_flag) {
    style = OutputStyle::kAisBench;
  }
  if (dirname_given && style != OutputStyle::kAisBench)
    return InvalidArgument(std::string("--output_dirname is ais_bench's: ") +
                           (style == OutputStyle::kMsame ? "msame writes into --output/YYYYMMDD_HHMMSS"
                                                         : "--output_layout ge writes into --output itself"));
  return style;
}

Result<OutputLayout> PrepareOutputs(const OutputFlags& flags, bool by_input_name, std::time_t now) {
  OutputLayout layout;
  layout.style = flags.style;
  if (!flags.dirname.empty() && flags.output.empty())
    return InvalidArgument("--output_dirname " + flags.dirname + " needs --output (it names a folder inside it)");
  if (!flags.dirname.empty() && (flags.dirname.find('/') != std::string::npos || flags.dirname == "." ||
                                 flags.dirname == ".."))
    return InvalidArgument("--output_dirname " + flags.dirname + ": a folder name, not a path");
  layout.by_input_name = by_input_name;
  layout.format = flags.style == OutputStyle::kGe ? tools::TensorFileFormat::kNpy : tools::TensorFileFormat::kBin;
  if (!flags.outfmt.empty()) {
    auto f = tools::ParseTensorFileFormat(flags.outfmt);
    if (!f.ok()) return f.status().Annotated("--outfmt");
    layout.format = *f;
  }
  layout.model_stem = fs::path(flags.model).stem().string();
  if (flags.output.empty()) return layout;
  layout.dir = flags.output;
  if (flags.style == OutputStyle::kAisBench) {
    const std::string name = flags.dirname.empty() ? AisBenchDirName(now) : flags.dirname;
    layout.dir = (fs::path(flags.output) / name).string();
    layout.summary_path = (fs::path(flags.output) / (name + "_summary.json")).string();
  } else if (flags.style == OutputStyle::kMsame) {
    layout.dir = (fs::path(flags.output) / MsameDirName(now)).string();
  }
  std::error_code ec;
  fs::create_directories(layout.dir, ec);
  if (ec) return IoError("--output " + layout.dir + ": " + ec.message());
  if (!fs::is_directory(layout.dir, ec)) return IoError("--output " + layout.dir + ": not a directory");
  return layout;
}

std::string OutputPath(const OutputLayout& layout, const std::string& input_file, size_t k, const IoDesc& io) {
  const std::string ext = tools::TensorFileExtension(layout.format);
  switch (layout.style) {
    case OutputStyle::kMsame: {
      const std::string stem = input_file.empty() ? layout.model_stem : fs::path(input_file).stem().string();
      return (fs::path(layout.dir) / (stem + "_output_" + std::to_string(k) + "." + ext)).string();
    }
    case OutputStyle::kAisBench:
    case OutputStyle::kGe:
      break;
  }
  if (layout.style == OutputStyle::kGe && !layout.by_input_name)
    return (fs::path(layout.dir) / (SafeFileName(io.name) + "." + ext)).string();
  const std::string stem = input_file.empty() ? "pure_infer_data" : fs::path(input_file).stem().string();
  return (fs::path(layout.dir) / (stem + "_" + std::to_string(k) + "." + ext)).string();
}

Result<std::vector<std::string>> WriteOutputs(const OutputLayout& layout, const std::string& input_file,
                                              const std::vector<IoDesc>& outputs, const std::vector<void*>& data) {
  std::vector<std::string> written;
  if (layout.dir.empty()) return written;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::string path = OutputPath(layout, input_file, k, outputs[k]);
    if (auto s = tools::WriteTensorFile(path, layout.format, outputs[k].desc, data[k]); !s.ok()) return s;
    written.push_back(path);
  }
  return written;
}

}  // namespace ge::run
