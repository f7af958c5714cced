// What a lint check reports: one finding per Diagnostic, printed by ge-lint
// as text, JSON or SARIF and by ge-atc as warnings (docs/lint.md lists the
// codes). Checks append to a vector; they never print and never fail.
#pragma once

#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::lint {

enum class Severity { kNote = 0, kWarning = 1, kError = 2 };

const char* SeverityName(Severity s);  // "note", "warning", "error"
// "note" | "warning" | "error"; anything else is kInvalidArgument naming `flag`.
Status ParseSeverity(const std::string& text, const std::string& flag, Severity* out);

struct Diagnostic {
  std::string code;                // e.g. "W18888": stable, documented in docs/lint.md
  Severity severity = Severity::kWarning;
  std::string graph;               // subgraph path ("" for the root graph), as in Model::partitions
  std::vector<std::string> nodes;  // the nodes involved, most relevant first
  std::string message;             // one line, names the nodes, says why
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace ge::lint
