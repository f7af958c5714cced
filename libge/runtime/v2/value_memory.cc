// Value memory on the caching allocator: a repeated shape finds its block
// again in its size class, so steady-state runs take nothing from the device.
#include "v2/caching_allocator.h"
#include "v2/value.h"

namespace ge::v2 {

struct ValueMemory::Impl {
  Impl(hal::Device& d, bool thread_safe) : allocator(d, CachingAllocator::Options{0, thread_safe}) {}
  CachingAllocator allocator;
};

ValueMemory::ValueMemory(hal::Device& device, bool thread_safe) : impl_(new Impl(device, thread_safe)) {}
ValueMemory::~ValueMemory() { delete impl_; }

Status ValueMemory::Alloc(Value& v) {
  GE_ASSIGN_OR_RETURN(MemBlock * b, impl_->allocator.Alloc(v.bytes));
  v.block = b;
  v.data = b->addr();
  return Status::Ok();
}

void ValueMemory::Free(Value& v) {
  if (!v.block) return;
  // A block this allocator handed out and v still holds: Free cannot fail.
  (void)impl_->allocator.Free(static_cast<MemBlock*>(v.block));
  v.block = nullptr;
  v.data = nullptr;
}

size_t ValueMemory::bytes_in_use() const { return impl_->allocator.stats().bytes_in_use; }
size_t ValueMemory::peak_bytes() const { return impl_->allocator.stats().peak_bytes_in_use; }
size_t ValueMemory::device_bytes() const { return impl_->allocator.stats().peak_bytes_held; }
size_t ValueMemory::device_allocations() const { return impl_->allocator.stats().device_allocations; }

}  // namespace ge::v2
