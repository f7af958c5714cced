// The run loop (GE's model thread in run-loop mode): a dedicated thread takes
// jobs (inputs, outputs, a callback) from a bounded queue, executes them in
// order and calls back. The queue's slots are allocated at load; Submit
// blocks while the queue is full (back-pressure, never unbounded memory).
#pragma once

#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "ge/runtime.h"

namespace ge::v1 {

class RunLoop {
 public:
  using RunFn = std::function<Status(const std::vector<DataBuffer>&, const std::vector<MutableBuffer>&)>;
  RunLoop(size_t capacity, size_t num_inputs, size_t num_outputs, RunFn run);
  // Jobs still queued are delivered kAborted.
  ~RunLoop();

  // Exactly one of `done` / `promise` is used.
  void Submit(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out, ExecuteCallback done,
              std::promise<Status>* promise);
  void Drain();

 private:
  struct Job {
    std::vector<DataBuffer> in;
    std::vector<MutableBuffer> out;
    ExecuteCallback done;
    std::promise<Status> promise;
    bool has_promise = false;
  };
  void Loop();
  static void Deliver(Job& job, Status s);

  RunFn run_;
  std::vector<Job> slots_;  // a ring: head_ is next to run, count_ queued
  size_t head_ = 0, count_ = 0;
  bool busy_ = false, stopping_ = false;
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_, idle_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace ge::v1
