// The event graph of a schedule: replaying the streams, the cycle check
// (a cycle would deadlock the runtime, so it is a compile and load error),
// and the vector clocks of happens-before.
#include <algorithm>
#include <map>
#include <set>

#include "ge/plan/happens_before.h"

namespace ge::streams {
namespace {

Status Bad(const std::string& msg) { return InvalidArgument("event graph: " + msg); }

std::string Where(const std::vector<StreamTasks>& streams, TaskPos p) {
  const Task& t = streams[p.stream].tasks[p.index];
  return "stream " + std::to_string(p.stream) + " task " + std::to_string(p.index) + (t.node.empty() ? "" : " (" + t.node + ")");
}

// Each event recorded exactly once; every wait's event recorded somewhere.
Result<std::map<int32_t, TaskPos>> Records(const std::vector<StreamTasks>& streams) {
  std::map<int32_t, TaskPos> records;
  for (size_t s = 0; s < streams.size(); ++s) {
    if (streams[s].stream != static_cast<int32_t>(s))
      return Bad("stream " + std::to_string(streams[s].stream) + " is listed at position " + std::to_string(s) +
                 " (streams are numbered 0..S-1 in order)");
    const auto& tasks = streams[s].tasks;
    for (size_t i = 0; i < tasks.size(); ++i) {
      const Task& t = tasks[i];
      const TaskPos pos{static_cast<int32_t>(s), static_cast<int32_t>(i)};
      if (t.kind == Task::Kind::kKernel) continue;
      if (t.kind != Task::Kind::kEventRecord && t.kind != Task::Kind::kEventWait)
        return Bad(Where(streams, pos) + " has the unknown kind " + std::to_string(static_cast<int>(t.kind)));
      if (t.event < 0) return Bad(Where(streams, pos) + " has the bad event id " + std::to_string(t.event));
      if (t.kind == Task::Kind::kEventRecord) {
        auto [it, fresh] = records.insert({t.event, pos});
        if (!fresh)
          return Bad("event " + std::to_string(t.event) + " is recorded twice: " + Where(streams, it->second) + " and " +
                     Where(streams, pos));
      }
    }
  }
  for (size_t s = 0; s < streams.size(); ++s)
    for (size_t i = 0; i < streams[s].tasks.size(); ++i) {
      const Task& t = streams[s].tasks[i];
      if (t.kind == Task::Kind::kEventWait && !records.count(t.event))
        return Bad(Where(streams, {static_cast<int32_t>(s), static_cast<int32_t>(i)}) + " waits for event " +
                   std::to_string(t.event) + ", which no stream records");
    }
  return records;
}

// Replay, and when streams are stuck the cycle of waits in `cycle`.
Status ReplayFindingCycle(const std::vector<StreamTasks>& streams, const std::function<void(TaskPos)>& on_task,
                          const std::function<void(TaskPos wait, TaskPos record)>& on_wait, std::vector<CycleWait>* cycle) {
  GE_ASSIGN_OR_RETURN(auto records, Records(streams));
  const size_t n = streams.size();
  std::vector<int32_t> next(n, 0);
  std::set<int32_t> done;  // events whose record has run
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t s = 0; s < n; ++s) {
      const auto& tasks = streams[s].tasks;
      while (next[s] < static_cast<int32_t>(tasks.size())) {
        const Task& t = tasks[next[s]];
        const TaskPos pos{static_cast<int32_t>(s), next[s]};
        if (t.kind == Task::Kind::kEventWait && !done.count(t.event)) break;
        if (on_task) on_task(pos);
        if (t.kind == Task::Kind::kEventWait && on_wait) on_wait(pos, records.at(t.event));
        if (t.kind == Task::Kind::kEventRecord) done.insert(t.event);
        ++next[s];
        progress = true;
      }
    }
  }
  // Stuck streams each wait for a record behind another stuck stream's
  // wait: follow them from the first until a stream repeats.
  int32_t start = -1;
  for (size_t s = 0; s < n && start < 0; ++s)
    if (next[s] < static_cast<int32_t>(streams[s].tasks.size())) start = static_cast<int32_t>(s);
  if (start < 0) return Status::Ok();
  std::vector<int32_t> path;
  std::vector<int> seen(n, -1);
  for (int32_t s = start; seen[s] < 0;) {
    seen[s] = static_cast<int>(path.size());
    path.push_back(s);
    s = records.at(streams[s].tasks[next[s]].event).stream;
  }
  const int32_t again = records.at(streams[path.back()].tasks[next[path.back()]].event).stream;
  std::string text;
  for (size_t k = static_cast<size_t>(seen[again]); k < path.size(); ++k) {
    const int32_t s = path[k];
    const Task& w = streams[s].tasks[next[s]];
    const TaskPos rec = records.at(w.event);
    text += (text.empty() ? "" : ", ") + Where(streams, {s, next[s]}) + " waits for event " + std::to_string(w.event) +
            " recorded at " + Where(streams, rec);
    if (cycle)
      cycle->push_back(CycleWait{s, next[s], w.event, rec.stream, rec.index, w.node, streams[rec.stream].tasks[rec.index].node});
  }
  return Bad("the streams would deadlock, the waits form a cycle: " + text);
}

}  // namespace

Status Replay(const std::vector<StreamTasks>& streams, const std::function<void(TaskPos)>& on_task,
              const std::function<void(TaskPos wait, TaskPos record)>& on_wait) {
  return ReplayFindingCycle(streams, on_task, on_wait, nullptr);
}

Result<HappensBefore> HappensBefore::Build(const std::vector<StreamTasks>& streams) {
  HappensBefore hb;
  const size_t n = streams.size();
  hb.clocks_.resize(n);
  for (size_t s = 0; s < n; ++s) hb.clocks_[s].resize(streams[s].tasks.size());
  std::vector<std::vector<int32_t>> cur(n, std::vector<int32_t>(n, -1));
  auto on_task = [&](TaskPos p) {
    hb.clocks_[p.stream][p.index] = cur[p.stream];
    cur[p.stream][p.stream] = p.index;
  };
  auto on_wait = [&](TaskPos w, TaskPos r) {
    // Everything before the record, and the record itself, has run.
    const std::vector<int32_t>& c = hb.clocks_[r.stream][r.index];
    for (size_t t = 0; t < n; ++t) cur[w.stream][t] = std::max(cur[w.stream][t], c[t]);
    cur[w.stream][r.stream] = std::max(cur[w.stream][r.stream], r.index);
  };
  GE_RETURN_IF_ERROR(Replay(streams, on_task, on_wait));
  for (size_t s = 0; s < n; ++s)
    for (size_t i = 0; i < streams[s].tasks.size(); ++i)
      if (streams[s].tasks[i].kind == Task::Kind::kKernel)
        hb.kernel_of_[streams[s].tasks[i].node] = TaskPos{static_cast<int32_t>(s), static_cast<int32_t>(i)};
  return hb;
}

std::optional<TaskPos> HappensBefore::Find(const std::string& node) const {
  auto it = kernel_of_.find(node);
  if (it == kernel_of_.end()) return std::nullopt;
  return it->second;
}

}  // namespace ge::streams

namespace ge {

Status CheckEventGraph(const std::vector<StreamTasks>& streams) { return streams::Replay(streams, nullptr, nullptr); }

Result<std::vector<CycleWait>> FindWaitCycle(const std::vector<StreamTasks>& streams) {
  std::vector<CycleWait> cycle;
  Status s = streams::ReplayFindingCycle(streams, nullptr, nullptr, &cycle);
  if (!cycle.empty()) return cycle;
  if (!s.ok()) return s;
  return cycle;
}

}  // namespace ge
