#include "run/run_profile_table.h"

#include <algorithm>
#include <cstdio>

namespace ge::run {

void ProfileTable::Add(const std::vector<TaskProfile>& run) {
  ++runs_;
  for (const TaskProfile& t : run) {
    if (t.kernel == "event" || t.kernel == "label" || t.end_ns <= t.begin_ns) continue;
    auto [it, added] = index_.try_emplace(t.name, tasks_.size());
    if (added) tasks_.push_back({t.name, t.kernel, 0});
    tasks_[it->second].ns += static_cast<double>(t.end_ns - t.begin_ns);
  }
}

double ProfileTable::TotalNs() const {
  double s = 0;
  for (const Row& r : tasks_) s += r.ns;
  return s;
}

std::vector<ProfileTable::Row> ProfileTable::SortedTasks() const {
  std::vector<Row> rows = tasks_;
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.ns > b.ns; });
  return rows;
}

std::vector<std::pair<std::string, double>> ProfileTable::SortedOps() const {
  std::map<std::string, double> by_op;
  for (const Row& r : tasks_) by_op[r.op] += r.ns;
  std::vector<std::pair<std::string, double>> ops(by_op.begin(), by_op.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return ops;
}

namespace {

std::string Line(const char* fmt, const std::string& a, const std::string& b, double ms, double share) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), fmt, a.c_str(), b.c_str(), ms, share);
  return buf;
}

}  // namespace

std::string ProfileTable::Text(size_t top) const {
  if (runs_ == 0) return "profile: no timed run\n";
  const double total = TotalNs(), per_run = 1e-6 / static_cast<double>(runs_);
  std::string s = "profile: kernel time per inference, mean of " + std::to_string(runs_) + " run(s): " +
                  std::to_string(total * per_run).substr(0, 8) + " ms in " + std::to_string(tasks_.size()) + " tasks\n";
  char head[256];
  std::snprintf(head, sizeof(head), "  %-44s %-22s %10s %7s\n", "task", "op", "ms", "share");
  s += head;
  const std::vector<Row> rows = SortedTasks();
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    std::string name = rows[i].name.size() > 44 ? "..." + rows[i].name.substr(rows[i].name.size() - 41) : rows[i].name;
    s += Line("  %-44s %-22s %10.4f %6.1f%%\n", name, rows[i].op, rows[i].ns * per_run, total > 0 ? 100 * rows[i].ns / total : 0);
  }
  if (rows.size() > top) s += "  ... " + std::to_string(rows.size() - top) + " more task(s)\n";
  std::snprintf(head, sizeof(head), "  %-44s %-22s %10s %7s\n", "op type", "tasks", "ms", "share");
  s += head;
  std::map<std::string, size_t> count;
  for (const Row& r : tasks_) ++count[r.op];
  for (const auto& [op, ns] : SortedOps())
    s += Line("  %-44s %-22s %10.4f %6.1f%%\n", op, std::to_string(count[op]), ns * per_run, total > 0 ? 100 * ns / total : 0);
  return s;
}

nlohmann::ordered_json ProfileTable::Json() const {
  nlohmann::ordered_json j;
  const double total = TotalNs(), per_run = runs_ ? 1e-6 / static_cast<double>(runs_) : 0;
  j["runs"] = runs_;
  j["kernel_ms"] = total * per_run;
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const Row& r : SortedTasks())
    tasks.push_back({{"task", r.name}, {"op", r.op}, {"ms", r.ns * per_run}, {"share", total > 0 ? r.ns / total : 0}});
  j["tasks"] = tasks;
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const auto& [op, ns] : SortedOps()) ops.push_back({{"op", op}, {"ms", ns * per_run}, {"share", total > 0 ? ns / total : 0}});
  j["ops"] = ops;
  return j;
}

}  // namespace ge::run
