// ge-dump: the IR of a model, and the IR after every pass.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/app_common.h"
#include "ge/ir/text_form.h"

int main(int argc, char** argv) {
  constexpr const char* kTool = "ge-dump";
  CLI::App app{
      "ge-dump: show a model's IR in the stable text form.\n\n"
      "  ge-dump --model m.onnx               # the compiled IR on stdout\n"
      "  ge-dump --model m.onnx --out DIR     # DIR/00_parsed.txt, DIR/01_<pass>.txt, ... one per pass\n"
      "  ge-dump --model m.om                 # the IR stored in a .om\n\n"
      "Also prints the node count per op type. Pass diffs, --track, bisect, memory plots and --dot\n"
      "are not implemented yet.",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, out, log = "warning";
  app.add_option("--model", model, "Model (.onnx or .om)")->required();
  app.add_option("--out", out, "Directory for the IR after each pass (created if missing)");
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  CLI11_PARSE(app, argc, argv);
  if (auto s = ge::app::SetupLogging(log); !s.ok()) return ge::app::Fail(kTool, s);

  int step = 0;
  ge::Status write_status;
  auto write = [&](const std::string& name, const ge::Graph& g) {
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "%02d_", step++);
    const std::string path = out + "/" + prefix + name + ".txt";
    std::ofstream f(path, std::ios::trunc);
    f << ge::GraphToText(g);
    if (!f && write_status.ok()) write_status = ge::IoError(path + ": write failed");
  };
  ge::CompileOptions options;
  if (!out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) return ge::app::Fail(kTool, ge::IoError("--out " + out + ": " + ec.message()));
    options.after_pass = [&](const std::string& pass, const ge::Graph& g) { write(pass, g); };
  }
  auto m = ge::app::LoadAnyModel(model, options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  if (!write_status.ok()) return ge::app::Fail(kTool, write_status);
  if (out.empty()) std::printf("%s", ge::GraphToText(*m->graph).c_str());
  std::map<std::string, int> counts;
  for (ge::Node* n : m->graph->nodes()) ++counts[n->type()];
  std::fprintf(out.empty() ? stderr : stdout, "op counts:");
  for (const auto& [type, c] : counts) std::fprintf(out.empty() ? stderr : stdout, " %s=%d", type.c_str(), c);
  std::fprintf(out.empty() ? stderr : stdout, "\n");
  if (!out.empty()) std::printf("wrote %d pass dumps to %s\n", step, out.c_str());
  return 0;
}
