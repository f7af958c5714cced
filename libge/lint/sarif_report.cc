// The SARIF 2.1.0 report (OASIS Static Analysis Results Interchange Format):
// one run, the tool's rules (every code of the table, with a help link to
// its section of docs/lint.md) and one result per finding. A result's
// physical location is the model file (a model has no source lines); its
// logical locations are the nodes, "graph/node" fully qualified.
#include <cctype>
#include <nlohmann/json.hpp>

#include "ge/lint/lint.h"
#include "ge/lint/report.h"

namespace ge::lint {
namespace {

// A path as a URI reference: percent-encodes what may not appear bare.
std::string UriOf(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string("-._~/:").find(static_cast<char>(c)) != std::string::npos) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string SarifReport(const ReportInfo& info, const Diagnostics& d) {
  using json = nlohmann::ordered_json;
  const std::vector<Rule> rules = Rules();
  json jrules = json::array();
  std::map<std::string, int> index;
  for (const Rule& r : rules) {
    index[r.code] = static_cast<int>(jrules.size());
    jrules.push_back({{"id", r.code},
                      {"shortDescription", {{"text", r.title}}},
                      {"helpUri", "docs/lint.md#" + Lower(r.code)},
                      {"defaultConfiguration", {{"level", SeverityName(r.severity)}}}});
  }
  const std::string uri = UriOf(info.file);
  json results = json::array();
  for (const Diagnostic& x : d) {
    const std::string graph = x.graph.empty() ? info.root_graph : x.graph;
    json logical = json::array();
    for (const std::string& n : x.nodes) logical.push_back({{"name", n}, {"fullyQualifiedName", graph + "/" + n}, {"kind", "object"}});
    if (logical.empty()) logical.push_back({{"name", graph}, {"fullyQualifiedName", graph}, {"kind", "module"}});
    json result = {{"ruleId", x.code}};
    if (index.count(x.code)) result["ruleIndex"] = index[x.code];
    result["level"] = SeverityName(x.severity);  // SARIF levels are our severity names
    result["message"] = {{"text", x.message}};
    result["locations"] = json::array({{{"physicalLocation", {{"artifactLocation", {{"uri", uri}}}}}, {"logicalLocations", logical}}});
    results.push_back(std::move(result));
  }
  json driver = {{"name", info.tool},
                 {"version", info.version},
                 {"informationUri", "docs/lint.md"},
                 {"rules", jrules}};
  json run = {{"tool", {{"driver", driver}}},
              {"artifacts", json::array({{{"location", {{"uri", uri}}}}})},
              {"results", results}};
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  return log.dump(2) + "\n";
}

}  // namespace ge::lint
