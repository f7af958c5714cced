// A CPU event: a generation counter. Record() bumps the target at issue time
// and the stream signals it when reached; Wait() waits for the target that was
// current when Wait() was issued, so record/wait pairs match like CUDA events.
#include <condition_variable>
#include <memory>
#include <mutex>

#include "cpu_backend.h"

namespace ge::hal {
namespace {

struct EventState {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t issued = 0;
  uint64_t signaled = 0;
};

class CpuEvent final : public Event {
 public:
  void Record(Stream& stream) override {
    uint64_t gen;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      gen = ++state_->issued;
    }
    auto st = state_;
    stream.Enqueue([st, gen] {
      {
        std::lock_guard<std::mutex> lock(st->mu);
        if (st->signaled < gen) st->signaled = gen;
      }
      st->cv.notify_all();
      return Status::Ok();
    }, /*run_after_error=*/true);
  }

  void Wait(Stream& stream) override {
    uint64_t gen;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      gen = state_->issued;
    }
    auto st = state_;
    stream.Enqueue([st, gen] {
      std::unique_lock<std::mutex> lock(st->mu);
      st->cv.wait(lock, [&] { return st->signaled >= gen; });
      return Status::Ok();
    }, /*run_after_error=*/true);
  }

  void HostWait() override {
    std::unique_lock<std::mutex> lock(state_->mu);
    uint64_t gen = state_->issued;
    state_->cv.wait(lock, [&] { return state_->signaled >= gen; });
  }

 private:
  std::shared_ptr<EventState> state_ = std::make_shared<EventState>();
};

}  // namespace

std::unique_ptr<Event> CreateCpuEvent() { return std::make_unique<CpuEvent>(); }

}  // namespace ge::hal
