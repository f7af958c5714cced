// ATC-style fusion switch file -> fusion passes to switch off.
#include <map>
#include <optional>

#include "config_json.h"
#include "pass.h"

namespace ge {
namespace {

Status Collect(const std::string& path, const nlohmann::json& obj, std::map<std::string, bool>& on,
               std::optional<bool>& all) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.value().is_object()) {
      GE_RETURN_IF_ERROR(Collect(path, it.value(), on, all));  // "Switch", "GraphFusion", "UBFusion"
      continue;
    }
    if (!it.value().is_string() || (it.value() != "on" && it.value() != "off"))
      return InvalidArgument(path + ": entry '" + it.key() + "' must be \"on\" or \"off\"");
    const bool v = it.value() == "on";
    if (it.key() == "ALL")
      all = v;
    else
      on[it.key()] = v;
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<std::string>> ReadFusionSwitchFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(const nlohmann::json j, ReadConfigJsonObject(path, "fusion switch file"));
  std::map<std::string, bool> on;
  std::optional<bool> all;
  GE_RETURN_IF_ERROR(Collect(path, j, on, all));

  std::vector<std::string> off;
  const std::vector<PassInfo> passes = ListPasses();
  for (const auto& [name, v] : on) {
    const PassInfo* p = nullptr;
    for (const PassInfo& q : passes)
      if (q.name == name) p = &q;
    if (!p) {
      std::string known;
      for (const PassInfo& q : passes)
        if (q.fusion) known += (known.empty() ? "" : ", ") + q.name;
      return InvalidArgument(path + ": unknown fusion pass '" + name + "' (fusion passes: " + known + ")");
    }
    if (!p->fusion) return InvalidArgument(path + ": '" + name + "' is not a fusion pass (use --disable_pass)");
    if (!v) off.push_back(name);
  }
  if (all && !*all)
    for (const PassInfo& q : passes)
      if (q.fusion && !on.count(q.name)) off.push_back(q.name);
  return off;
}

}  // namespace ge
