// The JSON report (nlohmann): findings and counts for scripts.
#include <nlohmann/json.hpp>

#include "ge/lint/lint.h"
#include "ge/lint/report.h"

namespace ge::lint {

std::string JsonReport(const ReportInfo& info, const Diagnostics& d) {
  std::map<std::string, std::string> titles;
  for (const Rule& r : Rules()) titles[r.code] = r.title;
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  nlohmann::ordered_json counts = {{"error", 0}, {"warning", 0}, {"note", 0}};
  for (const Diagnostic& x : d) {
    findings.push_back({{"code", x.code},
                        {"severity", SeverityName(x.severity)},
                        {"title", titles.count(x.code) ? titles[x.code] : ""},
                        {"graph", x.graph.empty() ? info.root_graph : x.graph},
                        {"nodes", x.nodes},
                        {"message", x.message}});
    counts[SeverityName(x.severity)] = counts[SeverityName(x.severity)].get<int>() + 1;
  }
  nlohmann::ordered_json j = {{"tool", info.tool}, {"version", info.version}, {"file", info.file},
                              {"findings", findings}, {"counts", counts}};
  return j.dump(2) + "\n";
}

}  // namespace ge::lint
