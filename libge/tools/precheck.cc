#include "ge/tools/precheck.h"

#include <nlohmann/json.hpp>

namespace ge::tools {

std::string PrecheckReport::ToJson() const {
  nlohmann::ordered_json j;
  j["model"] = model;
  j["framework"] = framework;
  j["result"] = passed() ? "success" : "failed";
  j["nodes_checked"] = num_nodes;
  j["unsupported_count"] = unsupported.size();
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& u : unsupported) list.push_back({{"op_type", u.op}, {"node_name", u.name}, {"reason", u.reason}});
  j["unsupported"] = list;
  if (!error.empty()) j["error"] = error;
  return j.dump(2) + "\n";
}

std::string PrecheckReport::Summary(const std::string& tool) const {
  std::string s = tool + " pre-check of " + model + " (" + framework + ", " + std::to_string(num_nodes) +
                  " nodes): " + (passed() ? "PASS" : "FAILED") + "\n";
  if (!unsupported.empty()) {
    s += "  " + std::to_string(unsupported.size()) + " unsupported node" + (unsupported.size() == 1 ? "" : "s") + ":\n";
    for (const auto& u : unsupported)
      s += "    " + u.op + std::string(u.op.size() < 24 ? 24 - u.op.size() : 0, ' ') + " " + u.name + "\n";
  }
  if (!error.empty()) s += "  conversion fails: " + error + "\n";
  return s;
}

Status PrecheckReport::ToStatus() const {
  if (passed()) return Status::Ok();
  return unsupported.empty() ? Unsupported(error) : Unsupported(model + ": " + unsupported_line);
}

Result<std::string> PrecheckReportPath(const std::string& json, const std::string& output) {
  if (!json.empty()) return json;
  if (!output.empty()) return output + ".precheck.json";
  return InvalidArgument("--mode 3 needs --json FILE or --output PATH for the report");
}

}  // namespace ge::tools
