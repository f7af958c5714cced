// The limits of a dynamic model's runs in v2 (LoadOptions timeout,
// max_loop_iterations, max_memory), shared by the model and every subgraph
// model its control flow loads: a Loop body's kernels and allocations count
// against the deadline and the memory of the call that runs the Loop.
#pragma once

#include <time.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "ge/runtime.h"
#include "ge_base/status.h"
#include "v2/execute_graph.h"
#include "v2/value.h"

namespace ge::v2 {

// Bytes held against the memory limit, from any thread: the device blocks
// of every caching allocator of the model tree (in use or cached) and the
// host bytes a Loop or Scan keeps between iterations.
class MemoryBudget {
 public:
  explicit MemoryBudget(size_t limit) : limit_(limit) {}
  // Adds `bytes` unless that passes the limit (then nothing changes).
  bool TryCharge(size_t bytes);
  void Release(size_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }
  size_t held() const { return held_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_; }
  // The value memories of the tree, for in_use(): registered at their
  // construction (load), not counted per allocation (no atomic on the hot
  // path).
  void Track(ValueMemory* m);
  void Untrack(ValueMemory* m);
  // Gives every cached block of the tree back to the device: after a failed
  // call, so what the failure left cached in one subgraph's allocator does
  // not count against the next call's allocations elsewhere. Between calls.
  void TrimCaches();
  // Bytes of live value blocks in the tree (the caches excluded), for
  // LoadedModel::bytes_in_use; between calls (it reads every allocator).
  size_t in_use() const;
  // "a request of 1.0 GiB passes the memory limit of 64.0 MiB (--max_memory) with 60.0 MiB held"
  std::string Exhausted(size_t request) const;

 private:
  const size_t limit_;
  std::atomic<size_t> held_{0};
  mutable std::mutex mu_;
  std::vector<ValueMemory*> memories_;
};

class RunLimits {
 public:
  explicit RunLimits(const LoadOptions& options);

  // The top-level Execute starts the clock; subgraph runs inside it share
  // its deadline.
  void Start() {
    if (has_deadline_) deadline_ns_ = NowNs(CLOCK_MONOTONIC) + timeout_ns_;
  }
  bool has_deadline() const { return has_deadline_; }
  // Read before every Main node, so from the coarse clock: the same
  // timebase as CLOCK_MONOTONIC (steady_clock), trailing it by at most a
  // tick (4 ms here), in about 10 ns where the precise clock takes 55
  // (kvm-clock). A deadline is never seen early, at most a tick late.
  bool Expired() const { return has_deadline_ && NowNs(CLOCK_MONOTONIC_COARSE) >= deadline_ns_; }
  // kTimeout: "timeout after 100 ms " + where.
  Status TimedOut(const std::string& where) const;
  // Iteration `i` (0-based) may start, or a clear error naming the limit
  // (and the deadline, when it passed). Inline, no Status on the way that
  // passes: it runs per iteration.
  Status CheckIteration(int64_t i) const {
    if (!Expired() && (max_loop_iterations_ == 0 || i < max_loop_iterations_)) [[likely]]
      return Status::Ok();
    return IterationRefused(i);
  }
  // A Scan of `iterations` may start.
  Status CheckIterations(int64_t iterations) const;
  int64_t max_loop_iterations() const { return max_loop_iterations_; }
  MemoryBudget& memory() { return memory_; }

 private:
  const bool has_deadline_;
  Status IterationRefused(int64_t i) const;
  static int64_t NowNs(clockid_t clock) {
    timespec ts;
    clock_gettime(clock, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
  }

  const std::chrono::milliseconds timeout_;
  const int64_t timeout_ns_;  // at most 2^40 ms (35 years): no overflow
  int64_t deadline_ns_ = 0;
  const int64_t max_loop_iterations_;  // 0: none
  MemoryBudget memory_;
};

// With a deadline, every Main node runs through a guard that reads the clock
// first: the executors (sequential, topological, parallel) check it between
// nodes without a branch of their own, and a model without a timeout runs
// its nodes as they are. `labels[i]` names Main node i in the error.
class DeadlineGuards {
 public:
  // Rewrites `main` to run through guards that report to `state`.
  void Install(std::vector<ExecNode>& main, const std::vector<std::string>& labels, const RunLimits& limits,
               RunState& state);

 private:
  struct Guard {
    ExecNode node;
    const std::string* label;
    const RunLimits* limits;
    RunState* state;
  };
  static int RunGuarded(void* context);
  std::vector<Guard> guards_;
  std::vector<std::string> labels_;
};

}  // namespace ge::v2
