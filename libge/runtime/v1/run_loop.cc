#include "v1/run_loop.h"

namespace ge::v1 {

RunLoop::RunLoop(size_t capacity, size_t num_inputs, size_t num_outputs, RunFn run)
    : run_(std::move(run)), slots_(std::max<size_t>(capacity, 1)) {
  for (Job& j : slots_) {
    j.in.reserve(num_inputs);
    j.out.reserve(num_outputs);
  }
  thread_ = std::thread([this] { Loop(); });
}

RunLoop::~RunLoop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  not_empty_.notify_all();
  thread_.join();
  for (; count_ > 0; --count_, head_ = (head_ + 1) % slots_.size())
    Deliver(slots_[head_], Status(StatusCode::kAborted, "model unloaded before the job ran"));
}

void RunLoop::Deliver(Job& job, Status s) {
  if (job.has_promise) {
    job.promise.set_value(std::move(s));
    job.has_promise = false;
  } else if (job.done) {
    job.done(std::move(s));
  }
  job.done = nullptr;
}

void RunLoop::Submit(const std::vector<DataBuffer>& in, const std::vector<MutableBuffer>& out, ExecuteCallback done,
                     std::promise<Status>* promise) {
  std::unique_lock<std::mutex> lock(mu_);
  not_full_.wait(lock, [&] { return count_ < slots_.size() || stopping_; });
  if (stopping_) {
    lock.unlock();
    Status s(StatusCode::kAborted, "model is being unloaded");
    if (promise) promise->set_value(s);
    else if (done) done(s);
    return;
  }
  Job& j = slots_[(head_ + count_) % slots_.size()];
  j.in.assign(in.begin(), in.end());  // within the reserved capacity: no allocation
  j.out.assign(out.begin(), out.end());
  j.done = std::move(done);
  j.has_promise = promise != nullptr;
  if (promise) j.promise = std::move(*promise);
  ++count_;
  lock.unlock();
  not_empty_.notify_one();
}

void RunLoop::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [&] { return count_ == 0 && !busy_; });
}

void RunLoop::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    not_empty_.wait(lock, [&] { return count_ > 0 || stopping_; });
    if (stopping_) return;
    Job& j = slots_[head_];
    busy_ = true;
    lock.unlock();
    Status s = run_(j.in, j.out);
    Deliver(j, std::move(s));
    lock.lock();
    head_ = (head_ + 1) % slots_.size();
    --count_;
    busy_ = false;
    not_full_.notify_one();
    if (count_ == 0) idle_.notify_all();
  }
}

}  // namespace ge::v1
