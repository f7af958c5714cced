// A HAL model: task lists pre-distributed to streams once, then run whole by
// one call (GE's task sink, a CUDA graph, an IREE command buffer replayed).
//
// The HAL knows no graph: a model is, per stream, a flat array of tasks —
// a kernel with its argument arrays, an event record / wait, or a label
// task (GE's LabelSet / LabelGoto / LabelSwitch) that moves the stream to
// another point of its own array, so branches and loops run inside the one
// call too. Everything is resolved when the model is created; a run only
// walks the arrays.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "hal/kernel.h"
#include "ge_base/status.h"

namespace ge::hal {

struct ModelTask {
  enum class Kind : uint8_t { kKernel, kEventRecord, kEventWait, kLabelSet, kLabelGoto, kLabelSwitch };
  Kind kind = Kind::kKernel;
  int32_t event = -1;  // record / wait: 0 <= event < ModelDesc::num_events
  // LabelSet: marks its position as `label` (does nothing when run).
  // LabelGoto: continues at the LabelSet of `label`, on the same stream.
  // LabelSwitch: reads an int32 index at inputs[0] (device memory a kernel
  // wrote earlier in the run; refreshable like kernel arguments) and
  // continues at labels[index]; an index outside [0, num_labels) takes the
  // last label, as GE's LabelSwitchByIndex takes its last branch.
  int32_t label = -1;  // set / goto: 0 <= label < ModelDesc::num_labels
  const int32_t* labels = nullptr;  // switch: owned by the caller, outlives the model
  int32_t num_labels = 0;
  // Kernel: not owned, outlives the model. The argument arrays are owned by
  // the caller and must outlive the model too; the caller may rewrite their
  // entries between runs (address refresh), never during one.
  Kernel* kernel = nullptr;
  const void* const* inputs = nullptr;
  void* const* outputs = nullptr;
};

struct ModelDesc {
  std::vector<std::vector<ModelTask>> streams;  // one task list per stream
  // Event ids are 0..num_events-1. Each event is recorded at most once per
  // run and every waited event is recorded somewhere (checked at creation,
  // together with the absence of a wait cycle: no model can deadlock).
  int32_t num_events = 0;
  // Label ids are 0..num_labels-1, each set exactly once, and every jump
  // stays on the stream that sets its label. A stream with label tasks has
  // no event tasks: a jump could skip a record or repeat one, and an event
  // is recorded once per run (checked at creation).
  int32_t num_labels = 0;
};

// Begin/end of one task in the last run, in steady_clock nanoseconds; for a
// wait, how long the stream was held; {0, 0} for a task that did not run.
struct TaskTime {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
};

class Model {
 public:
  using Timeout = std::chrono::nanoseconds;
  static constexpr Timeout kNoTimeout = Timeout::max();

  virtual ~Model() = default;

  // Runs every stream once and returns when all have finished, or when
  // `timeout` expires: then the run is aborted (Abort()), the call waits for
  // the tasks in flight to finish (a CPU kernel cannot be pre-empted; no task
  // writes anything after the call returns) and returns kTimeout. The model is
  // reusable after a timeout, an abort or a failed kernel. A failing kernel
  // stops the run; the status names the stream and task ("stream 0 task 12:
  // ..."). Not reentrant: one run at a time.
  virtual Status Execute(Timeout timeout = kNoTimeout) = 0;

  // The split form of Execute: Launch starts the run and returns at once;
  // Wait blocks as Execute does. Every Launch must be followed by one Wait.
  virtual Status Launch() = 0;
  virtual Status Wait(Timeout timeout = kNoTimeout) = 0;

  // Asks the run in flight to stop at the next task boundary (event waits
  // included); the run reports kAborted. Callable from any thread.
  virtual void Abort() = 0;

  // Per-task timing of every run from now on (off by default; the timing
  // arrays are allocated here, so a run allocates nothing). Call between
  // runs. Costs nothing while off: the run loop without timing is a separate
  // instantiation.
  virtual void EnableTiming(bool on) = 0;
  // The timings of the last run, per stream, one entry per task (a task run
  // several times, inside a loop, keeps its last run).
  virtual const std::vector<std::vector<TaskTime>>& timings() const = 0;

  virtual size_t num_streams() const = 0;
};

}  // namespace ge::hal
