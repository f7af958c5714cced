// A CPU stream: one worker thread draining an ordered queue.
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "cpu_backend.h"

namespace ge::hal {
namespace {

class CpuStream final : public Stream {
 public:
  CpuStream() : worker_([this] { Loop(); }) {}
  ~CpuStream() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  void Enqueue(Work work, bool run_after_error) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(Item{std::move(work), run_after_error});
      ++enqueued_;
    }
    cv_.notify_all();
  }

  Status Synchronize(std::chrono::milliseconds timeout) override {
    std::unique_lock<std::mutex> lock(mu_);
    const uint64_t target = enqueued_;
    auto done = [&] { return completed_ >= target; };
    if (timeout == std::chrono::milliseconds::max()) {
      done_cv_.wait(lock, done);
    } else if (!done_cv_.wait_for(lock, timeout, done)) {
      return Status(StatusCode::kTimeout, "stream did not finish within " + std::to_string(timeout.count()) + " ms");
    }
    Status s = error_;
    error_ = Status::Ok();
    return s;
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      Item item = std::move(queue_.front());
      queue_.pop_front();
      bool skip = !error_.ok() && !item.run_after_error;
      lock.unlock();
      Status s = skip ? Status::Ok() : item.work();
      lock.lock();
      if (!s.ok() && error_.ok()) error_ = s;
      ++completed_;
      done_cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable done_cv_;
  struct Item {
    Work work;
    bool run_after_error;
  };
  std::deque<Item> queue_;
  uint64_t enqueued_ = 0;
  uint64_t completed_ = 0;
  Status error_;
  bool stopping_ = false;
  std::thread worker_;  // last: starts after the members above exist
};

}  // namespace

std::unique_ptr<Stream> CreateCpuStream() { return std::make_unique<CpuStream>(); }

}  // namespace ge::hal
