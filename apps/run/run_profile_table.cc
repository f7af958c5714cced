#include "run/run_profile_table.h"

#include <algorithm>
#include <cstdio>

#include "ge/ops/flop_count.h"

namespace ge::run {

ProfileTable::ProfileTable(const Graph& graph) {
  for (const NodeFlops& r : CountGraphFlops(graph))
    if (r.flops) flops_[r.name + " (" + r.type + ")"] = *r.flops;
}

void ProfileTable::Add(const std::vector<TaskProfile>& run) {
  ++runs_;
  for (const TaskProfile& t : run) {
    if (t.kernel == "event" || t.kernel == "label" || t.end_ns <= t.begin_ns) continue;
    auto [it, added] = index_.try_emplace(t.name, tasks_.size());
    if (added) {
      auto f = flops_.find(t.name);
      tasks_.push_back({t.name, t.kernel, 0, f == flops_.end() ? -1 : f->second});
    }
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

std::vector<ProfileTable::OpRow> ProfileTable::SortedOps() const {
  std::map<std::string, OpRow> by_op;
  for (const Row& r : tasks_) {
    OpRow& o = by_op[r.op];
    o.op = r.op;
    ++o.tasks;
    o.ns += r.ns;
    if (r.flops > 0) o.flops += r.flops;
  }
  std::vector<OpRow> ops;
  for (auto& [name, o] : by_op) ops.push_back(o);
  std::stable_sort(ops.begin(), ops.end(), [](const OpRow& a, const OpRow& b) { return a.ns > b.ns; });
  return ops;
}

namespace {

// FLOPs per run over the mean ns per run: GFLOP/s, or -1 without a count.
double Gflops(int64_t flops, double mean_ns) { return flops < 0 || mean_ns <= 0 ? -1 : static_cast<double>(flops) / mean_ns; }

std::string Line(const std::string& a, const std::string& b, double ms, double share, double gflops) {
  char buf[512], rate[32] = "-";
  if (gflops >= 0) std::snprintf(rate, sizeof(rate), "%.1f", gflops);
  std::snprintf(buf, sizeof(buf), "  %-44s %-22s %10.4f %6.1f%% %9s\n", a.c_str(), b.c_str(), ms, share, rate);
  return buf;
}

nlohmann::ordered_json Rate(double gflops) { return gflops < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(gflops); }

}  // namespace

std::string ProfileTable::Text(size_t top) const {
  if (runs_ == 0) return "profile: no timed run\n";
  const double total = TotalNs(), runs = static_cast<double>(runs_);
  std::string s = "profile: kernel time per inference, mean of " + std::to_string(runs_) + " run(s): " +
                  std::to_string(total / runs * 1e-6).substr(0, 8) + " ms in " + std::to_string(tasks_.size()) + " tasks\n";
  char head[256];
  std::snprintf(head, sizeof(head), "  %-44s %-22s %10s %7s %9s\n", "task", "op", "ms", "share", "GFLOP/s");
  s += head;
  const std::vector<Row> rows = SortedTasks();
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const Row& r = rows[i];
    std::string name = r.name.size() > 44 ? "..." + r.name.substr(r.name.size() - 41) : r.name;
    s += Line(name, r.op, r.ns / runs * 1e-6, total > 0 ? 100 * r.ns / total : 0, Gflops(r.flops, r.ns / runs));
  }
  if (rows.size() > top) s += "  ... " + std::to_string(rows.size() - top) + " more task(s)\n";
  std::snprintf(head, sizeof(head), "  %-44s %-22s %10s %7s %9s\n", "op type", "tasks", "ms", "share", "GFLOP/s");
  s += head;
  for (const OpRow& o : SortedOps())
    s += Line(o.op, std::to_string(o.tasks), o.ns / runs * 1e-6, total > 0 ? 100 * o.ns / total : 0,
              Gflops(o.flops, o.ns / runs));
  return s;
}

nlohmann::ordered_json ProfileTable::Json() const {
  nlohmann::ordered_json j;
  const double total = TotalNs(), runs = runs_ ? static_cast<double>(runs_) : 1;
  int64_t flops = 0;
  for (const Row& r : tasks_) flops += std::max<int64_t>(r.flops, 0);
  j["runs"] = runs_;
  j["kernel_ms"] = total / runs * 1e-6;
  j["flops"] = flops;
  j["gflops_per_s"] = Rate(Gflops(flops, total / runs));
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (const Row& r : SortedTasks())
    tasks.push_back({{"task", r.name}, {"op", r.op}, {"ms", r.ns / runs * 1e-6}, {"share", total > 0 ? r.ns / total : 0},
                     {"flops", r.flops < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(r.flops)},
                     {"gflops_per_s", Rate(Gflops(r.flops, r.ns / runs))}});
  j["tasks"] = tasks;
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (const OpRow& o : SortedOps())
    ops.push_back({{"op", o.op}, {"tasks", o.tasks}, {"ms", o.ns / runs * 1e-6}, {"share", total > 0 ? o.ns / total : 0},
                   {"flops", o.flops}, {"gflops_per_s", Rate(Gflops(o.flops, o.ns / runs))}});
  j["ops"] = ops;
  return j;
}

}  // namespace ge::run
