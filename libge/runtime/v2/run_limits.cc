#include "v2/run_limits.h"

#include <algorithm>

#include "ge/plan/memory_limit.h"

namespace ge::v2 {

bool MemoryBudget::TryCharge(size_t bytes) {
  size_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ - held) return false;  // held never passes the limit: no wrap
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

void MemoryBudget::Track(ValueMemory* m) {
  std::lock_guard<std::mutex> lock(mu_);
  memories_.push_back(m);
}

void MemoryBudget::Untrack(ValueMemory* m) {
  std::lock_guard<std::mutex> lock(mu_);
  memories_.erase(std::remove(memories_.begin(), memories_.end(), m), memories_.end());
}

void MemoryBudget::TrimCaches() {
  std::lock_guard<std::mutex> lock(mu_);
  for (ValueMemory* m : memories_) m->Trim();
}

size_t MemoryBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const ValueMemory* m : memories_) n += m->bytes_in_use();
  return n;
}

std::string MemoryBudget::Exhausted(size_t request) const {
  return "a request of " + HumanBytes(static_cast<int64_t>(request)) + " passes the memory limit of " +
         HumanBytes(static_cast<int64_t>(limit_)) + " (--max_memory) with " +
         HumanBytes(static_cast<int64_t>(held())) + " held";
}

RunLimits::RunLimits(const LoadOptions& options)
    : has_deadline_(options.timeout.count() > 0),
      timeout_(options.timeout),
      timeout_ns_(std::min<int64_t>(options.timeout.count(), int64_t{1} << 40) * 1'000'000),
      max_loop_iterations_(options.max_loop_iterations),
      memory_(static_cast<size_t>(EffectiveMemoryLimit(options.max_memory))) {}

Status RunLimits::TimedOut(const std::string& where) const {
  return Status(StatusCode::kTimeout, "timeout after " + std::to_string(timeout_.count()) + " ms " + where);
}

Status RunLimits::IterationRefused(int64_t i) const {
  if (Expired()) return TimedOut("in iteration " + std::to_string(i));
  if (max_loop_iterations_ > 0 && i >= max_loop_iterations_)
    return InvalidArgument("iteration " + std::to_string(i) + " passes the limit of " +
                           std::to_string(max_loop_iterations_) + " iterations (--max_loop_iterations)");
  return Status::Ok();
}

Status RunLimits::CheckIterations(int64_t iterations) const {
  if (max_loop_iterations_ > 0 && iterations > max_loop_iterations_)
    return InvalidArgument(std::to_string(iterations) + " iterations pass the limit of " +
                           std::to_string(max_loop_iterations_) + " (--max_loop_iterations)");
  return Status::Ok();
}

void DeadlineGuards::Install(std::vector<ExecNode>& main, const std::vector<std::string>& labels,
                             const RunLimits& limits, RunState& state) {
  labels_ = labels;
  labels_.resize(main.size());
  guards_.clear();
  guards_.reserve(main.size());  // stable addresses: main points into guards_
  for (size_t i = 0; i < main.size(); ++i) {
    guards_.push_back(Guard{main[i], &labels_[i], &limits, &state});
    main[i] = ExecNode{RunGuarded, &guards_.back()};
  }
}

int DeadlineGuards::RunGuarded(void* context) {
  const auto* g = static_cast<const Guard*>(context);
  if (g->limits->Expired()) [[unlikely]]
    return g->state->Fail(g->limits->TimedOut("before " + *g->label));
  return g->node.func(g->node.context);
}

}  // namespace ge::v2
