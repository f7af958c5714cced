// ge-lint: the structural checks and the model check every load runs (see
// --help); GraphLint's memory and layout conflict checks are their own issue.
#include <cstdio>

#include "common/app_common.h"
#include "ge/ir/verifier.h"
#include "ge/plan/verify.h"

int main(int argc, char** argv) {
  constexpr const char* kTool = "ge-lint";
  CLI::App app{
      "ge-lint: check a model.\n\n"
      "  ge-lint --model m.onnx | m.om\n\n"
      "What it checks today: the IR verifier (edges, names, Data indices, one NetOutput, no cycles,\n"
      "constant sizes), shape inference, and that the CPU backend supports every node (an .onnx is\n"
      "converted as ge-atc would); then the model check the runtimes run at every load: descs\n"
      "re-inferred, one task per kernel node with its tensors' buffers, dependencies ordered by\n"
      "streams and events, no memory shared while in use, IO bindings (docs/om-format.md).\n"
      "GraphLint's memory read/write and layout conflict checks (the W18888 family) are NOT\n"
      "implemented yet.",
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
  if (auto s = ge::VerifyModel(*m); !s.ok()) return ge::app::Fail(kTool, s.Annotated(model));
  if (m->dynamic)
    std::printf("%s: ok (dynamic: %zu root nodes, %zu planned partition(s); structural checks and the model check of each)\n",
                model.c_str(), m->graph->num_nodes(), m->partitions.size());
  else
    std::printf("%s: ok (%zu nodes, %zu streams; structural checks and the model check)\n", model.c_str(),
                m->graph->num_nodes(), m->streams.size());
  return 0;
}
