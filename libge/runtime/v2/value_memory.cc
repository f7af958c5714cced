#include "v2/value.h"

#include "v2/run_limits.h"

namespace ge::v2 {

ValueMemory::ValueMemory(hal::Device& device, bool thread_safe, MemoryBudget* budget)
    : allocator_(device, CachingAllocator::Options{0, thread_safe, budget}), budget_(budget) {
  if (budget_) budget_->Track(this);
}

ValueMemory::~ValueMemory() {
  if (budget_) budget_->Untrack(this);
}

Status ValueMemory::Alloc(Value& v) {
  GE_ASSIGN_OR_RETURN(MemBlock * b, allocator_.Alloc(v.bytes));
  v.block = b;
  v.data = b->addr();
  return Status::Ok();
}

void ValueMemory::Free(Value& v) {
  if (!v.block) return;
  // A block this allocator handed out and v still holds: Free cannot fail.
  (void)allocator_.Free(v.block);
  v.block = nullptr;
  v.data = nullptr;
}

}  // namespace ge::v2
