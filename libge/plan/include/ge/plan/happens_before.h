// Happens-before over a multi-stream schedule: vector clocks computed by
// replaying the streams with their event record/wait tasks. Task a happens
// before task b in every legal interleaving iff a precedes b on its stream,
// or a path of stream order and record -> wait edges leads from a to b.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ge/plan.h"

namespace ge::streams {

struct TaskPos {
  int32_t stream = 0;  // index into the schedule
  int32_t index = 0;   // task index on that stream (event tasks count)
};

class HappensBefore {
 public:
  // Fails with CheckEventGraph's error (cycle, unrecorded event ...).
  static Result<HappensBefore> Build(const std::vector<StreamTasks>& streams);

  int32_t num_streams() const { return static_cast<int32_t>(clocks_.size()); }
  // clock[t]: the highest task index on stream t known complete when task
  // `p` starts (-1: none). For p's own stream that is p.index - 1.
  const std::vector<int32_t>& Clock(TaskPos p) const { return clocks_[p.stream][p.index]; }
  bool Before(TaskPos a, TaskPos b) const { return Clock(b)[a.stream] >= a.index; }
  // The kernel task of a node, if the schedule has one.
  std::optional<TaskPos> Find(const std::string& node) const;

 private:
  std::vector<std::vector<std::vector<int32_t>>> clocks_;  // [stream][task][stream]
  std::map<std::string, TaskPos> kernel_of_;
};

// Replays the streams as the runtime would: each advances until it meets a
// wait whose record has not run. `on_task` sees every task in that replay
// order (a record before any of its waits), then `on_wait` each wait with
// its record's position. Either may be null. Fails (after CheckEventGraph's
// other checks) when a stream is stuck forever, naming the cycle of waits.
Status Replay(const std::vector<StreamTasks>& streams, const std::function<void(TaskPos)>& on_task,
              const std::function<void(TaskPos wait, TaskPos record)>& on_wait);

}  // namespace ge::streams
