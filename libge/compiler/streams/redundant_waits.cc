// Redundant-wait removal: a wait is redundant when the stream already knows
// the record's stream has passed that point, through its own order and the
// waits it ran before (vector clocks of the replay).
#include <algorithm>
#include <map>
#include <set>

#include "ge/plan/happens_before.h"
#include "streams/streams.h"

namespace ge::streams {

Result<int> RemoveRedundantWaits(std::vector<StreamTasks>& streams) {
  const size_t n = streams.size();
  std::vector<std::vector<int32_t>> cur(n, std::vector<int32_t>(n, -1));
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> clock_at;  // clocks of record tasks
  std::set<std::pair<int32_t, int32_t>> redundant;
  auto on_task = [&](TaskPos p) {
    if (streams[p.stream].tasks[p.index].kind == Task::Kind::kEventRecord) clock_at[{p.stream, p.index}] = cur[p.stream];
    cur[p.stream][p.stream] = p.index;
  };
  auto on_wait = [&](TaskPos w, TaskPos r) {
    std::vector<int32_t>& c = cur[w.stream];
    if (c[r.stream] >= r.index) {
      redundant.insert({w.stream, w.index});  // already known: changes nothing
      return;
    }
    const std::vector<int32_t>& rc = clock_at.at({r.stream, r.index});
    for (size_t t = 0; t < n; ++t) c[t] = std::max(c[t], rc[t]);
    c[r.stream] = std::max(c[r.stream], r.index);
  };
  GE_RETURN_IF_ERROR(Replay(streams, on_task, on_wait));

  std::set<int32_t> waited;
  for (size_t s = 0; s < n; ++s) {
    auto& tasks = streams[s].tasks;
    std::vector<Task> kept;
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (redundant.count({static_cast<int32_t>(s), static_cast<int32_t>(i)})) continue;
      if (tasks[i].kind == Task::Kind::kEventWait) waited.insert(tasks[i].event);
      kept.push_back(std::move(tasks[i]));
    }
    tasks = std::move(kept);
  }
  // Records nobody waits for go too; the rest are renumbered densely.
  std::map<int32_t, int32_t> renumber;
  for (int32_t e : waited) renumber.emplace(e, static_cast<int32_t>(renumber.size()));
  for (StreamTasks& st : streams) {
    std::vector<Task> kept;
    for (Task& t : st.tasks) {
      if (t.kind != Task::Kind::kKernel) {
        auto it = renumber.find(t.event);
        if (it == renumber.end()) continue;
        t.event = it->second;
      }
      kept.push_back(std::move(t));
    }
    st.tasks = std::move(kept);
  }
  return static_cast<int>(redundant.size());
}

ScheduleStats Stats(const std::vector<StreamTasks>& streams) {
  ScheduleStats s;
  s.streams = static_cast<int32_t>(streams.size());
  int32_t max_event = -1;
  for (const StreamTasks& st : streams)
    for (const Task& t : st.tasks) {
      if (t.kind == Task::Kind::kKernel) ++s.kernels;
      else max_event = std::max(max_event, t.event);
    }
  s.events = max_event + 1;
  return s;
}

}  // namespace ge::streams
