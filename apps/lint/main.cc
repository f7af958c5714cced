// ge-lint: today the structural checks only (see --help); GraphLint's memory
// and layout conflict checks are their own issue.
#include <cstdio>

#include "common/app_common.h"
#include "ge/ir/verifier.h"

int main(int argc, char** argv) {
  constexpr const char* kTool = "ge-lint";
  CLI::App app{
      "ge-lint: check a model.\n\n"
      "  ge-lint --model m.onnx | m.om\n\n"
      "What it checks today: the IR verifier (edges, names, Data indices, one NetOutput, no cycles,\n"
      "constant sizes), shape inference, and that the CPU backend supports every node (an .onnx is\n"
      "converted as ge-atc would). GraphLint's memory read/write and layout conflict checks (the\n"
      "W18888 family) are NOT implemented yet.",
      kTool};
  ge::app::InstallOneLineErrors(app, kTool);
  std::string model, log = "warning";
  app.add_option("--model", model, "Model to check (.onnx or .om)")->required();
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  CLI11_PARSE(app, argc, argv);
  if (auto s = ge::app::SetupLogging(log); !s.ok()) return ge::app::Fail(kTool, s);
  ge::CompileOptions options;
  options.verify_each_pass = true;
  auto m = ge::app::LoadAnyModel(model, options);
  if (!m.ok()) return ge::app::Fail(kTool, m.status());
  if (auto s = ge::VerifyGraph(*m->graph); !s.ok()) return ge::app::Fail(kTool, s.Annotated(model));
  std::printf("%s: ok (%zu nodes; structural checks only)\n", model.c_str(), m->graph->num_nodes());
  return 0;
}
