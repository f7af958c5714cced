// ge-lint: GraphLint and the plan checks (docs/lint.md) on a model, as text,
// JSON or SARIF. Exit 0: clean (or only findings below --fail_on); 1: a
// finding at or above --fail_on; 2: bad usage or a model that cannot be read.
#include <cstdio>

#include "common/app_common.h"
#include "common/text_model.h"
#include "ge/lint/lint.h"
#include "ge/lint/report.h"
#include "ge_base/file_io.h"

namespace {

constexpr const char* kTool = "ge-lint";
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

int Usage(const ge::Status& s) {
  ge::app::Fail(kTool, s);
  return kExitUsage;
}

std::string HelpText() {
  std::string s =
      "ge-lint: check a model for memory read/write conflicts, structural errors and broken plans.\n\n"
      "  ge-lint m.onnx                          # text report on stdout\n"
      "  ge-lint --model m.om --format sarif --output m.sarif\n"
      "  ge-lint case.ge --fail_on warning       # a repro graph in the IR's text form\n\n"
      "Inputs: .onnx and .pb are parsed and compiled as ge-atc would, then the graph checks run on the\n"
      "compiled graph and the plan checks on its plan; .om is loaded and checked the same way; .ge (the\n"
      "IR's text form, what ge-dump prints) gets the graph checks only, on the graph as written.\n\n"
      "Checks (docs/lint.md explains each, with an example and the fix):\n";
  for (const ge::lint::Rule& r : ge::lint::Rules())
    s += "  " + r.code + "  " + ge::lint::SeverityName(r.severity) + (r.plan ? ", plan:  " : ", graph: ") + r.title + "\n";
  s +=
      "  (E = error, W = warning. Graph checks run on every input; plan checks on compiled models.)\n\n"
      "Output: --format text (one line per finding: FILE: SEVERITY CODE [GRAPH] NODES: MESSAGE, then\n"
      "a count line), json (tool, version, file, findings[], counts) or sarif (SARIF 2.1.0, for code\n"
      "scanning UIs). --output FILE writes it atomically (FILE.tmp, then rename); stdout otherwise.\n\n"
      "Exit codes: 0 no finding at or above --fail_on (default error); 1 at least one; 2 bad usage, a\n"
      "missing file or a model that cannot be read or compiled (one error line on stderr).\n"
      "ge-atc runs the same checks after compiling (--lint on, the default) and prints findings as warnings.";
  return s;
}

int Main(CLI::App& app, int argc, char** argv) {
  std::string model, format = "text", output, fail_on = "error", log = "warning";
  app.add_option("--model,model", model, "Model to check: .onnx, .pb, .om or .ge (also accepted as the first argument)");
  app.add_option("--format", format, "Report format: text (default), json, sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_option("--output", output, "Write the report to FILE (atomically) instead of stdout");
  app.add_option("--fail_on", fail_on, "Exit 1 when a finding is at least this severe: error (default), warning, note");
  app.add_option("--log", log, "Log level on stderr: debug, info, warning (default), error, null");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and exits 0; every parse error is a usage error (2).
    return app.exit(e) == 0 ? 0 : kExitUsage;
  }
  if (auto s = ge::app::SetupLogging(log); !s.ok()) return Usage(s);
  ge::lint::Severity threshold;
  if (auto s = ge::lint::ParseSeverity(fail_on, "--fail_on", &threshold); !s.ok()) return Usage(s);
  if (model.empty()) return Usage(ge::InvalidArgument("--model FILE is required (see --help)"));

  ge::lint::ReportInfo info;
  info.version = ge::lint::ToolVersion();
  info.file = model;
  ge::lint::Diagnostics findings;
  if (ge::app::IsGraphTextPath(model)) {
    auto graph = ge::app::LoadGraphText(model);
    if (!graph.ok()) return Usage(graph.status());
    info.root_graph = (*graph)->name();
    findings = ge::lint::LintGraph(**graph);
  } else {
    ge::CompileOptions options;
    auto m = ge::app::LoadAnyModel(model, options);
    if (!m.ok()) return Usage(m.status().message().find(model) == std::string::npos ? m.status().Annotated(model) : m.status());
    info.root_graph = m->graph ? m->graph->name() : "";
    findings = ge::lint::LintModel(*m);
  }

  std::string report = format == "json"    ? ge::lint::JsonReport(info, findings)
                       : format == "sarif" ? ge::lint::SarifReport(info, findings)
                                           : ge::lint::TextReport(info, findings);
  if (output.empty()) {
    std::fputs(report.c_str(), stdout);
    std::fflush(stdout);
  } else {
    if (auto s = ge::WriteFileAtomically(output, report); !s.ok()) return Usage(s.Annotated("--output"));
    if (format != "text" || !findings.empty())
      std::fprintf(stderr, "%s: %zu finding(s), wrote %s\n", kTool, findings.size(), output.c_str());
  }
  return ge::lint::CountAtLeast(findings, threshold) > 0 ? kExitFindings : 0;
}

}  // namespace

int main(int argc, char** argv) { return ge::app::RunMain(kTool, HelpText(), Main, argc, argv); }
