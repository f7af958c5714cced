// ge-lint's three report formats (docs/lint.md "Output"): text for people,
// JSON for scripts, SARIF 2.1.0 for code-scanning UIs (GitHub, VS Code).
#pragma once

#include <string>

#include "ge/lint/diagnostic.h"

namespace ge::lint {

struct ReportInfo {
  std::string tool = "ge-lint";
  std::string version;     // the tool's version (ToolVersion())
  std::string file;        // the model file, as given
  std::string root_graph;  // the root graph's name: what Diagnostic::graph "" means
};

// "0.1.0": the project's version.
const char* ToolVersion();

// "FILE: SEVERITY CODE [GRAPH] NODE,NODE: MESSAGE" ("-" when no node).
std::string FindingLine(const ReportInfo& info, const Diagnostic& d);
// One FindingLine per finding, then "FILE: N errors, N warnings, N notes".
std::string TextReport(const ReportInfo& info, const Diagnostics& d);
// {"tool", "version", "file", "findings": [{code, severity, title, graph,
// nodes, message}], "counts": {"error", "warning", "note"}}
std::string JsonReport(const ReportInfo& info, const Diagnostics& d);
// A sarifLog with one run: every rule of the table (ge/lint/lint.h) and one
// result per finding, located at the model file and its nodes.
std::string SarifReport(const ReportInfo& info, const Diagnostics& d);

}  // namespace ge::lint
