#include "v2/value.h"

namespace ge::v2 {

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
