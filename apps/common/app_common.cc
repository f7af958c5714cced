#include "common/app_common.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <new>
#include <cstdlib>

#include "common/text_model.h"
#include "ge/om.h"
#include "ge/plan/memory_limit.h"
#include "hal/device.h"
#include "ge_base/sha256.h"
#include "ge_parsers/onnx_parser.h"
#include "ge_parsers/source_check.h"
#include "ge_parsers/tf_parser.h"

namespace ge::app {

int Fail(const std::string& tool, const Status& s) {
  std::fprintf(stderr, "%s: error: %s\n", tool.c_str(), s.message().c_str());
  return 1;
}

void InstallOneLineErrors(CLI::App& app, const std::string& tool) {
  app.failure_message([tool](const CLI::App*, const CLI::Error& e) {
    return tool + ": error: " + std::string(e.what()) + " (see --help)\n";
  });
}

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> SplitList(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t next = s.find(sep, pos);
    std::string item = s.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    if (!item.empty()) out.push_back(item);
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  return out;
}

Result<int64_t> ParseMaxMemory(const std::string& flag) {
  if (flag.empty()) return int64_t{0};
  auto bad = [&](const std::string& why) {
    return InvalidArgument("--max_memory: '" + flag + "' " + why + " (bytes, or a number with K, M, G or T: 24G)");
  };
  size_t digits = 0;
  while (digits < flag.size() && std::isdigit(static_cast<unsigned char>(flag[digits]))) ++digits;
  if (digits == 0 || digits > 15) return bad("is not a size");
  int64_t value = std::stoll(flag.substr(0, digits));
  std::string unit = flag.substr(digits);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::pair<const char*, int> kUnits[] = {{"", 0}, {"B", 0}, {"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}};
  int shift = -1;
  for (const auto& [name, s] : kUnits) {
    const std::string n = name;
    if (unit == n || (!n.empty() && n != "B" && (unit == n + "B" || unit == n + "IB"))) shift = s;
  }
  if (shift < 0) return bad("has an unknown unit");
  if (value == 0) return bad("is zero");
  if (value > (kMaxMemoryLimit >> shift)) return bad("is more than " + HumanBytes(kMaxMemoryLimit) + ", the largest limit");
  return value << shift;
}

int RunMain(const std::string& tool, const std::string& description, int (*main)(CLI::App&, int, char**), int argc,
            char** argv) {
  try {
    CLI::App app{description, tool};
    InstallOneLineErrors(app, tool);
    return main(app, argc, argv);
  } catch (const std::bad_alloc&) {
    return Fail(tool, Internal("out of memory"));
  }
}

Result<std::vector<InputShape>> ParseInputShapeList(const std::string& flag) {
  std::vector<InputShape> shapes;
  for (const std::string& entry : SplitList(flag, ';')) {
    size_t colon = entry.rfind(':');
    if (colon == std::string::npos || colon == 0)
      return InvalidArgument("--input_shape: '" + entry + "' is not NAME:D1,D2,...");
    InputShape shape;
    shape.name = entry.substr(0, colon);
    for (const std::string& d : SplitList(entry.substr(colon + 1), ',')) {
      auto bad = [&] { return InvalidArgument("--input_shape: '" + d + "' in '" + entry + "' is not a dimension (N, -1 or LO~HI)"); };
      auto number = [](const std::string& t, long long& v) {
        char* end = nullptr;
        v = std::strtoll(t.c_str(), &end, 10);
        return !t.empty() && end != t.c_str() && *end == '\0';
      };
      long long v = 0, hi = 0;
      const size_t tilde = d.find('~');
      if (tilde == std::string::npos) {
        if (!number(d, v) || v < -1) return bad();
        shape.dims.push_back(v);
        shape.ranges.emplace_back(-1, -1);
        continue;
      }
      // atc's range: LO~HI, HI -1 for no upper bound; LO~LO is that dim.
      if (!number(d.substr(0, tilde), v) || !number(d.substr(tilde + 1), hi) || v < 1 || hi < -1 || hi == 0 ||
          (hi != -1 && hi < v))
        return bad();
      shape.dims.push_back(v == hi ? v : kUnknownDim);
      shape.ranges.emplace_back(v == hi ? -1 : v, v == hi ? -1 : hi);
    }
    for (const InputShape& s : shapes)
      if (s.name == shape.name) return InvalidArgument("--input_shape names " + shape.name + " twice");
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

Result<std::map<std::string, std::vector<int64_t>>> ParseInputShapes(const std::string& flag) {
  GE_ASSIGN_OR_RETURN(std::vector<InputShape> list, ParseInputShapeList(flag));
  std::map<std::string, std::vector<int64_t>> shapes;
  for (InputShape& s : list) shapes[s.name] = std::move(s.dims);
  return shapes;
}

Status ApplyPassFlags(const std::string& disable_pass, const std::string& fusion_switch_file,
                      const std::string& buffer_optimize, CompileOptions& options) {
  std::vector<std::string> off = SplitList(disable_pass, ',');
  // Validate the names here so the error names the flag.
  const std::vector<PassInfo> passes = ListPasses();
  for (const std::string& name : off) {
    auto it = std::find_if(passes.begin(), passes.end(), [&](const PassInfo& p) { return p.name == name; });
    if (it == passes.end()) {
      std::string known;
      for (const PassInfo& p : passes)
        if (!p.required) known += (known.empty() ? "" : ", ") + p.name;
      return InvalidArgument("--disable_pass: unknown pass '" + name + "' (switchable passes: " +
                             (known.empty() ? "none" : known) + ")");
    }
    if (it->required)
      return InvalidArgument("--disable_pass: pass '" + name + "' is required (" + it->stage +
                             ") and cannot be switched off");
  }
  if (!fusion_switch_file.empty()) {
    auto more = ReadFusionSwitchFile(fusion_switch_file);
    if (!more.ok()) return more.status().Annotated("--fusion_switch_file");
    off.insert(off.end(), more->begin(), more->end());
  }
  std::sort(off.begin(), off.end());
  off.erase(std::unique(off.begin(), off.end()), off.end());
  options.disabled_passes = off;
  options.buffer_reuse = buffer_optimize != "off";
  std::string joined;
  for (const auto& n : off) joined += (joined.empty() ? "" : ",") + n;
  if (!joined.empty()) options.recorded_options.emplace_back("disable_pass", joined);
  if (!options.buffer_reuse) options.recorded_options.emplace_back("buffer_optimize", "off");
  return Status::Ok();
}

Status ApplyStreamFlag(const std::string& stream_num, CompileOptions& options) {
  GE_ASSIGN_OR_RETURN(hal::Device * device, hal::GetDevice(options.device));
  const hal::Capabilities& caps = device->capabilities();
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(stream_num.c_str(), &end, 10);
  if (stream_num.empty() || end == stream_num.c_str() || *end != '\0' || errno != 0 || v < 1 || v > caps.max_streams)
    return InvalidArgument("--stream_num: '" + stream_num + "' is not a stream count in 1.." + std::to_string(caps.max_streams) +
                           " (the " + caps.name + " backend's streams)");
  options.stream_num = static_cast<int32_t>(v);
  if (v != 1) options.recorded_options.emplace_back("stream_num", std::to_string(v));
  return Status::Ok();
}

namespace {

// --input_shape's LO~HI dims: unknown in the graph, their ranges on the
// Data node (attr "dim_range": LO,HI per dim, -1,-1 where none) for the
// runtime to check per call.
Status ApplyDimRanges(const std::string& input_shape, Graph& graph) {
  GE_ASSIGN_OR_RETURN(std::vector<InputShape> list, ParseInputShapeList(input_shape));
  for (const InputShape& s : list) {
    std::vector<int64_t> flat;
    bool any = false;
    for (const auto& [lo, hi] : s.ranges) {
      flat.push_back(lo);
      flat.push_back(hi);
      any |= lo >= 0;
    }
    if (!any) continue;
    for (Node* d : graph.InputNodes())
      if (d->name() == s.name) d->SetAttr("dim_range", flat);
  }
  return Status::Ok();
}

Result<ParseOptions> ParseFlags(const std::string& input_shape, const std::string& out_nodes) {
  ParseOptions popts;
  GE_ASSIGN_OR_RETURN(popts.input_shapes, ParseInputShapes(input_shape));
  popts.out_nodes = SplitList(out_nodes, ';');
  if (popts.out_nodes.size() == 1 && popts.out_nodes[0].find(',') != std::string::npos) popts.out_nodes = SplitList(out_nodes, ',');
  return popts;
}

}  // namespace

Result<Model> ConvertModel(const std::string& path, int framework, const std::string& input_shape,
                           const std::string& out_nodes, CompileOptions options) {
  if (framework != 3 && framework != 5) return InvalidArgument("--framework " + std::to_string(framework) + " is not one of 3 (TensorFlow), 5 (ONNX)");
  GE_ASSIGN_OR_RETURN(ParseOptions popts, ParseFlags(input_shape, out_nodes));
  GE_ASSIGN_OR_RETURN(auto graph, framework == 3 ? ParseTfFile(path, popts) : ParseOnnxFile(path, popts));
  GE_RETURN_IF_ERROR(ApplyDimRanges(input_shape, *graph));
  GE_ASSIGN_OR_RETURN(options.source_sha256, Sha256File(path));
  options.framework = framework == 3 ? "tensorflow" : "onnx";
  if (!input_shape.empty()) options.recorded_options.emplace_back("input_shape", input_shape);
  if (!out_nodes.empty()) options.recorded_options.emplace_back("out_nodes", out_nodes);
  auto model = Compile(std::move(graph), options);
  if (!model.ok()) return model.status().Annotated(path);
  return model;
}

Result<tools::PrecheckReport> Precheck(const std::string& path, int framework, const std::string& input_shape,
                                       const std::string& out_nodes, const CompileOptions& options) {
  GE_ASSIGN_OR_RETURN(ParseOptions popts, ParseFlags(input_shape, out_nodes));
  GE_ASSIGN_OR_RETURN(SourceCheck check, CheckSourceFile(path, framework, popts));
  tools::PrecheckReport r;
  r.model = path;
  r.framework = check.framework;
  r.num_nodes = check.num_nodes;
  for (const auto& u : check.unsupported) r.unsupported.push_back({u.name, u.op, u.reason});
  r.unsupported_line = check.summary;
  if (r.unsupported.empty()) {
    auto model = ConvertModel(path, framework, input_shape, out_nodes, options);
    if (!model.ok()) r.error = model.status().message();
  }
  return r;
}

Result<Model> LoadAnyModel(const std::string& path, CompileOptions options) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".om") == 0) {
    GE_ASSIGN_OR_RETURN(LoadedOm om, ReadOmFile(path));
    return std::move(om.model);
  }
  if (IsGraphTextPath(path)) return CompileGraphText(path, std::move(options));
  const bool pb = path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
  return ConvertModel(path, pb ? 3 : 5, "", "", std::move(options));
}

}  // namespace ge::app
