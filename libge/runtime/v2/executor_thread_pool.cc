#include "v2/executor_thread_pool.h"

#include <algorithm>
#include <string>
#include <system_error>

namespace ge::v2 {

Result<std::unique_ptr<ExecutorThreadPool>> ExecutorThreadPool::Create(size_t threads) {
  if (threads == 0) return InvalidArgument("executor thread pool: 0 threads (the caller is one: at least 1)");
  std::unique_ptr<ExecutorThreadPool> pool(new ExecutorThreadPool());
  pool->workers_.reserve(threads - 1);
  for (size_t i = 1; i < threads; ++i) {
    try {
      pool->workers_.emplace_back([p = pool.get()] {
        std::unique_lock<std::mutex> lock(p->mu_);
        p->Work(lock, /*caller=*/false);
      });
    } catch (const std::system_error& e) {  // the destructor joins the ones started
      return Internal("executor thread pool: cannot start thread " + std::to_string(i) + " of " +
                      std::to_string(threads) + ": " + e.what());
    }
  }
  return pool;
}

ExecutorThreadPool::~ExecutorThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

long ParallelTopologicalExecute(const TopologicalExecutionData* data, TopologicalScratch* scratch,
                                ExecutorThreadPool* pool) {
  return pool->Execute(data, scratch);
}

long ExecutorThreadPool::Execute(const TopologicalExecutionData* data, TopologicalScratch* scratch) {
  scratch->Reserve(data->node_num);
  std::unique_lock<std::mutex> lock(mu_);
  data_ = data;
  pending_ = scratch->pending.data();
  ready_ = ReadyHeap(scratch->ready.data(), data->priority);
  ready_.Start(*data, pending_);
  failed_ = -1;
  Wake(ready_.size() > 0 ? ready_.size() - 1 : 0);  // the caller takes one
  Work(lock, /*caller=*/true);
  data_ = nullptr;  // workers woken from now on find no run
  pending_ = nullptr;
  return failed_;
}

// With mu_ held: runs ready nodes, the lock released around each. The
// caller returns when the run is over (nothing ready, nothing running);
// workers when the pool stops. A thread that makes nodes ready loops and
// takes one itself, so the run always progresses; waking others only adds
// parallelism.
void ExecutorThreadPool::Work(std::unique_lock<std::mutex>& lock, bool caller) {
  for (;;) {
    if (data_ != nullptr && !ready_.empty()) {
      const uint32_t n = ready_.Pop();
      const ExecNode node = data_->nodes[n];
      ++running_;
      lock.unlock();
      const int rc = node.func(node.context);
      lock.lock();
      Finish(n, rc);
      continue;
    }
    if (caller ? running_ == 0 : stop_) return;
    ++sleepers_;
    if (caller) caller_asleep_ = true;
    cv_.wait(lock);
    if (caller) caller_asleep_ = false;
    --sleepers_;
  }
}

void ExecutorThreadPool::Finish(uint32_t node, int rc) {
  --running_;
  if (rc != 0) {
    if (failed_ < 0) failed_ = static_cast<long>(node);
    ready_.Clear();  // start no new node
  } else if (failed_ < 0) {
    ready_.Release(*data_, node, pending_);
  }
  if (ready_.empty() && running_ == 0) {
    if (caller_asleep_) cv_.notify_all();  // the run is over: wake the caller (among the workers)
  } else {
    Wake(ready_.empty() ? 0 : ready_.size() - 1);  // this thread takes one
  }
}

void ExecutorThreadPool::Wake(size_t ready_for_others) {
  for (size_t i = std::min(ready_for_others, sleepers_); i > 0; --i) cv_.notify_one();
}

}  // namespace ge::v2
