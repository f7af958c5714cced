// The HAL model both static runtimes run: sink hands it the plan's streams,
// v2 one host sequence, and the HAL's one interpreter and one validation
// (hal/model.h: labels, events, deadlocks) serve both. Here: the task lists
// each runtime gives it, the HAL model made of them for one instance, and
// the profile of its last run.
#pragma once

#include <memory>
#include <vector>

#include "common/instance_memory.h"
#include "common/program.h"
#include "ge/runtime.h"
#include "hal/model.h"

namespace ge::rt {

// Per HAL stream, the program's tasks it runs, in order.
using TaskLists = std::vector<std::vector<const ProgramTask*>>;

// Sink: one HAL stream per plan stream, its tasks as they are.
TaskLists StreamTaskLists(const Program& p);

// v2: one stream on the calling thread. A linked model's one stream as it is
// (its label tasks included); otherwise the kernel tasks of every stream in
// the plan's order, which every stream's order and every event already
// respect (events then have nothing to order).
Result<TaskLists> HostTaskList(const Program& p);

// The HAL model of `lists` for one instance: kernel task k runs kernels[k]
// on its argument arrays in `mem`; a label switch reads its index there.
// `profile` turns the HAL's per-task timing on.
Result<std::unique_ptr<hal::Model>> CreateHalModel(const Program& p, const TaskLists& lists, const InstanceMemory& mem,
                                                   const std::vector<std::unique_ptr<hal::Kernel>>& kernels,
                                                   bool profile);

// One entry per task of `lists` (HAL stream s is TaskProfile::stream s) with
// the HAL's times of its last run; empty when the model does not time.
std::vector<TaskProfile> ProfileTasks(const Program& p, const TaskLists& lists, const hal::Model& model);

}  // namespace ge::rt
