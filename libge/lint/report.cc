// The text report: one line per finding, then the counts.
#include "ge/lint/report.h"

#ifndef GE_VERSION_STRING
#define GE_VERSION_STRING "unknown"
#endif

namespace ge::lint {

const char* ToolVersion() { return GE_VERSION_STRING; }

std::string FindingLine(const ReportInfo& info, const Diagnostic& d) {
  std::string nodes;
  for (const std::string& n : d.nodes) nodes += (nodes.empty() ? "" : ",") + n;
  return info.file + ": " + SeverityName(d.severity) + " " + d.code + " [" + (d.graph.empty() ? info.root_graph : d.graph) +
         "] " + (nodes.empty() ? "-" : nodes) + ": " + d.message;
}

namespace {
std::string Count(size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }
}  // namespace

std::string TextReport(const ReportInfo& info, const Diagnostics& d) {
  std::string out;
  size_t counts[3] = {0, 0, 0};
  for (const Diagnostic& x : d) {
    out += FindingLine(info, x) + "\n";
    ++counts[static_cast<int>(x.severity)];
  }
  return out + info.file + ": " + Count(counts[2], "error") + ", " + Count(counts[1], "warning") + ", " +
         Count(counts[0], "note") + "\n";
}

}  // namespace ge::lint
