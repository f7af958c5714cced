// Streams: ordered queues of work. On the CPU backend each stream is a worker
// thread; work enqueued on one stream runs in order, streams run in parallel.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "ge_base/status.h"

namespace ge::hal {

class Event;

class Stream {
 public:
  using Work = std::function<Status()>;
  virtual ~Stream() = default;
  // Queues work; never blocks. The first failing work's status is kept and
  // returned by Synchronize(); later work on the stream is skipped, except
  // work marked run_after_error (event signals, so waiters on other streams
  // never hang on a failed stream).
  virtual void Enqueue(Work work, bool run_after_error = false) = 0;
  // Blocks until everything queued so far has run, or the timeout passes
  // (then returns kTimeout and the work keeps running). Clears the sticky error.
  virtual Status Synchronize(std::chrono::milliseconds timeout = std::chrono::milliseconds::max()) = 0;
};

}  // namespace ge::hal
