#include "v2/value.h"

#include "v2/run_limits.h"

namespace ge::v2 {

Status ValueMemory::Alloc(Value& v) {
  GE_ASSIGN_OR_RETURN(MemBlock * b, allocator_.Alloc(v.bytes));
  v.block = b;
  v.data = b->addr();
  if (budget_) budget_->AddInUse(b->size());
  return Status::Ok();
}

void ValueMemory::Free(Value& v) {
  if (!v.block) return;
  if (budget_) budget_->SubInUse(v.block->size());
  // A block this allocator handed out and v still holds: Free cannot fail.
  (void)allocator_.Free(v.block);
  v.block = nullptr;
  v.data = nullptr;
}

}  // namespace ge::v2
