#include "dump/dump_flops.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace ge::dump {
namespace {

struct OpSum {
  std::string op;
  size_t nodes = 0;
  int64_t flops = 0;
};

// Per op type, most FLOPs first.
std::vector<OpSum> ByOp(const std::vector<NodeFlops>& rows) {
  std::map<std::string, OpSum> m;
  for (const NodeFlops& r : rows) {
    OpSum& s = m[r.type];
    s.op = r.type;
    ++s.nodes;
    s.flops += r.flops.value_or(0);
  }
  std::vector<OpSum> v;
  for (auto& [k, s] : m) v.push_back(s);
  std::stable_sort(v.begin(), v.end(), [](const OpSum& a, const OpSum& b) { return a.flops > b.flops; });
  return v;
}

double Share(int64_t part, int64_t total) { return total > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(total) : 0; }

}  // namespace

std::string FlopsText(const std::vector<NodeFlops>& rows, const std::string& model) {
  const int64_t total = TotalFlops(rows);
  std::string s = "flops of " + model + " (a multiply-add counts 2)\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-48s %-20s %14s %7s\n", "node", "op", "MFLOP", "share");
  s += line;
  size_t unknown = 0;
  for (const NodeFlops& r : rows) {
    if (r.flops && *r.flops == 0) continue;
    unknown += !r.flops;
    const std::string name = r.name.size() > 48 ? "..." + r.name.substr(r.name.size() - 45) : r.name;
    if (r.flops)
      std::snprintf(line, sizeof line, "  %-48s %-20s %14.3f %6.2f%%\n", name.c_str(), r.type.c_str(),
                    static_cast<double>(*r.flops) * 1e-6, Share(*r.flops, total));
    else
      std::snprintf(line, sizeof line, "  %-48s %-20s %14s %7s\n", name.c_str(), r.type.c_str(), "?", "-");
    s += line;
  }
  std::snprintf(line, sizeof line, "  %-48s %-20s %14s %7s\n", "op type", "nodes", "MFLOP", "share");
  s += line;
  for (const OpSum& o : ByOp(rows)) {
    std::snprintf(line, sizeof line, "  %-48s %-20zu %14.3f %6.2f%%\n", o.op.c_str(), o.nodes,
                  static_cast<double>(o.flops) * 1e-6, Share(o.flops, total));
    s += line;
  }
  std::snprintf(line, sizeof line, "total: %.4f GFLOP in %zu nodes%s\n", static_cast<double>(total) * 1e-9, rows.size(),
                unknown ? (" (" + std::to_string(unknown) + " with unknown shapes not counted)").c_str() : "");
  s += line;
  return s;
}

std::string FlopsJson(const std::vector<NodeFlops>& rows, const std::string& model) {
  const int64_t total = TotalFlops(rows);
  nlohmann::ordered_json j;
  j["model"] = model;
  j["flops"] = total;
  j["gflop"] = static_cast<double>(total) * 1e-9;
  nlohmann::ordered_json unknown = nlohmann::ordered_json::array(), nodes = nlohmann::ordered_json::array(),
                         ops = nlohmann::ordered_json::array();
  for (const NodeFlops& r : rows) {
    if (!r.flops) unknown.push_back(r.name);
    nodes.push_back({{"name", r.name}, {"type", r.type},
                     {"flops", r.flops ? nlohmann::ordered_json(*r.flops) : nlohmann::ordered_json()}});
  }
  for (const OpSum& o : ByOp(rows)) ops.push_back({{"op", o.op}, {"nodes", o.nodes}, {"flops", o.flops}});
  j["unknown"] = unknown;
  j["nodes"] = nodes;
  j["ops"] = ops;
  return j.dump(2) + "\n";
}

}  // namespace ge::dump
