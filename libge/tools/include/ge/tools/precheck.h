// ATC's pre-check report (ge-atc --mode 3): which nodes of a model ge cannot
// convert (op type and node name) or, when there is none, why converting it
// fails, as a JSON report for scripts and a summary for people. Finding the
// nodes is the parsers' business (ge_parsers/source_check.h); the caller
// fills the report.
#pragma once

#include <string>
#include <vector>

#include "ge_base/status.h"

namespace ge::tools {

struct PrecheckNode {
  std::string name;
  std::string op;
  std::string reason;
};

struct PrecheckReport {
  std::string model;      // the file checked
  std::string framework;  // "onnx" | "tensorflow"
  size_t num_nodes = 0;
  std::vector<PrecheckNode> unsupported;
  std::string unsupported_line;  // one line listing them ("2 unsupported nodes: a (Foo); b (Bar)")
  std::string error;             // why conversion fails, when every node is supported

  bool passed() const { return unsupported.empty() && error.empty(); }
  // {"model", "framework", "result": "success"|"failed", "nodes_checked",
  //  "unsupported_count", "unsupported": [{"op_type", "node_name", "reason"}], "error"?}
  std::string ToJson() const;
  // The lines for people: "TOOL pre-check of M (onnx, N nodes): PASS|FAILED", the
  // unsupported nodes, the conversion error; each line ends in '\n'.
  std::string Summary(const std::string& tool) const;
  // Ok when passed; else the one error line (kUnsupported).
  Status ToStatus() const;
};

// The report path: --json FILE, else next to --output ("<output>.precheck.json").
Result<std::string> PrecheckReportPath(const std::string& json, const std::string& output);

}  // namespace ge::tools
