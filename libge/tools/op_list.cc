#include "ge/tools/op_list.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ge/ops/op_registry.h"

namespace ge::tools {

std::vector<OpListEntry> ListOps(const hal::KernelRegistry& kernels) {
  std::vector<OpListEntry> out;
  const OpRegistry& registry = OpRegistry::Global();
  for (const std::string& type : registry.Types()) {
    const OpDef* def = registry.Find(type);
    OpListEntry e;
    e.type = type;
    e.kernel = kernels.HasOp(type);
    e.computed_shape = def->computed_shape;
    e.value_inputs = def->value_inputs;
    e.min_inputs = def->min_inputs;
    e.max_inputs = def->max_inputs;
    e.min_outputs = def->min_outputs;
    e.max_outputs = def->max_outputs;
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const OpListEntry& a, const OpListEntry& b) { return a.type < b.type; });
  return out;
}

std::string OpListJson(const std::vector<OpListEntry>& ops) {
  nlohmann::json list = nlohmann::json::array();
  for (const OpListEntry& e : ops)
    list.push_back({{"type", e.type},
                    {"kernel", e.kernel},
                    {"computed_shape", e.computed_shape},
                    {"value_inputs", e.value_inputs},
                    {"inputs", {e.min_inputs, e.max_inputs}},
                    {"outputs", {e.min_outputs, e.max_outputs}}});
  return nlohmann::json{{"ops", list}}.dump(1) + "\n";
}

namespace {

std::string Arity(int lo, int hi) {
  if (hi < 0) return std::to_string(lo) + "+";
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

}  // namespace

std::string OpListText(const std::vector<OpListEntry>& ops) {
  const auto kernels = std::count_if(ops.begin(), ops.end(), [](const OpListEntry& e) { return e.kernel; });
  std::string out = std::to_string(ops.size()) + " op types (" + std::to_string(kernels) + " with a CPU kernel):\n";
  for (const OpListEntry& e : ops) {
    std::string line = "  " + e.type;
    line.resize(std::max<size_t>(line.size() + 1, 30), ' ');
    line += "in " + Arity(e.min_inputs, e.max_inputs) + ", out " + Arity(e.min_outputs, e.max_outputs);
    if (!e.kernel) line += ", no kernel (structural or run by the runtime)";
    if (e.computed_shape) line += ", output shape computed at run time";
    out += line + "\n";
  }
  return out;
}

}  // namespace ge::tools
