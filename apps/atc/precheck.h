// ge-atc --mode 3: ATC's pre-check. Lists every node of the model whose op
// ge cannot convert (op type and node name), then — when there is none —
// converts the model without writing it, so backend and shape problems are
// reported too. Writes a JSON report and prints a readable summary.
#pragma once

#include <string>

#include "ge/compiler.h"

namespace ge::app {

struct PrecheckRequest {
  std::string model;
  int framework = -1;       // 3 TensorFlow, 5 ONNX
  std::string input_shape;  // the --input_shape / --out_nodes flags, as given
  std::string out_nodes;
  std::string report_path;  // the JSON report
  CompileOptions options;
};

// The report path for --json FILE, else next to --output ("<output>.precheck.json").
Result<std::string> PrecheckReportPath(const std::string& json, const std::string& output);

// Runs the check, writes the report, prints the summary on stdout; returns
// the exit code: 0 when the model converts, 1 (with the one error line
// listing every unsupported node on stderr) when it does not.
int RunPrecheck(const PrecheckRequest& request, const std::string& tool);

}  // namespace ge::app
