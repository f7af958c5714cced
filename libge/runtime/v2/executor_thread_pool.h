// The multi-thread topological executor: the ready heap of
// topological_executor.h shared by a few persistent threads under one lock.
// A node costs one lock round (take it, later release its successors and
// take the next), so it pays where nodes are kernels, not where they are a
// few instructions (the figures are in tests/unit/runtime).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ge_base/status.h"
#include "v2/ready_heap.h"
#include "v2/topological_executor.h"

namespace ge::v2 {

// Threads that run nodes for ParallelTopologicalExecute: `threads` in all,
// the caller being one, so threads - 1 are started here and sleep when
// nothing is ready. They live as long as the pool; one run at a time.
//
// Choosing `threads`: CPU kernels take their threads from oneDNN's OpenMP
// pool, and every thread that calls a kernel leads its own OpenMP team, so
// `threads` workers each running a kernel made for all cores use threads x
// cores threads. Either keep threads = 1 (TopologicalExecute; oneDNN
// parallelises inside each kernel: large kernels), or create the model's
// kernels while a hal::Device::ShareCompute(threads) lives, which gives each
// kernel threads-th of the cores (many small, independent kernels), with
// threads no more than the graph's width and the cores.
class ExecutorThreadPool {
 public:
  // Errors: threads == 0, or a thread the system would not start.
  static Result<std::unique_ptr<ExecutorThreadPool>> Create(size_t threads);
  ~ExecutorThreadPool();
  ExecutorThreadPool(const ExecutorThreadPool&) = delete;
  ExecutorThreadPool& operator=(const ExecutorThreadPool&) = delete;

  size_t threads() const { return workers_.size() + 1; }

 private:
  friend long ParallelTopologicalExecute(const TopologicalExecutionData*, TopologicalScratch*, ExecutorThreadPool*);
  ExecutorThreadPool() = default;
  long Execute(const TopologicalExecutionData* data, TopologicalScratch* scratch);
  void Work(std::unique_lock<std::mutex>& lock, bool caller);
  void Finish(uint32_t node, int rc);
  void Wake(size_t ready_for_others);

  std::vector<std::thread> workers_;
  // Everything below is read and written under mu_: one lock per node run.
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  size_t sleepers_ = 0;
  bool caller_asleep_ = false;
  // The run in progress (data_ is null between runs).
  const TopologicalExecutionData* data_ = nullptr;
  uint32_t* pending_ = nullptr;
  ReadyHeap ready_;
  size_t running_ = 0;
  long failed_ = -1;
};

// TopologicalExecute on the pool's threads and the caller's: the same
// result; when nodes fail on several threads at once, the first to report.
// After a failure no node starts; the call returns when the running ones
// have finished.
long ParallelTopologicalExecute(const TopologicalExecutionData* data, TopologicalScratch* scratch,
                                ExecutorThreadPool* pool);

}  // namespace ge::v2
