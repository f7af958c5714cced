#include <algorithm>
#include <map>
#include <memory>

#include "v2/value.h"

namespace ge::v2 {

// Blocks are cached by their exact rounded size: a repeated shape finds its
// block again, a new shape allocates once.
struct ValueMemory::Impl {
  explicit Impl(hal::Device& d) : device(d) {}
  struct Block {
    hal::DeviceBuffer buffer;
    size_t size = 0;
  };
  hal::Device& device;
  std::multimap<size_t, std::unique_ptr<Block>> free;
  std::map<void*, std::unique_ptr<Block>> used;
  size_t in_use = 0, peak = 0, from_device = 0, allocations = 0;
};

ValueMemory::ValueMemory(hal::Device& device) : impl_(new Impl(device)) {}
ValueMemory::~ValueMemory() { delete impl_; }

Status ValueMemory::Alloc(Value& v) {
  const size_t size = std::max<size_t>(64, (v.bytes + 63) / 64 * 64);
  std::unique_ptr<Impl::Block> b;
  auto it = impl_->free.find(size);
  if (it != impl_->free.end()) {
    b = std::move(it->second);
    impl_->free.erase(it);
  } else {
    auto buf = impl_->device.Allocate(size);
    if (!buf.ok()) return buf.status();
    b = std::make_unique<Impl::Block>();
    b->buffer = std::move(buf).value();
    b->size = size;
    impl_->from_device += size;
    ++impl_->allocations;
  }
  v.data = b->buffer.data();
  v.block = b.get();
  impl_->in_use += size;
  impl_->peak = std::max(impl_->peak, impl_->in_use);
  impl_->used.emplace(v.block, std::move(b));
  return Status::Ok();
}

void ValueMemory::Free(Value& v) {
  if (!v.block) return;
  auto it = impl_->used.find(v.block);
  if (it != impl_->used.end()) {
    impl_->in_use -= it->second->size;
    const size_t size = it->second->size;
    impl_->free.emplace(size, std::move(it->second));
    impl_->used.erase(it);
  }
  v.block = nullptr;
  v.data = nullptr;
}

size_t ValueMemory::bytes_in_use() const { return impl_->in_use; }
size_t ValueMemory::peak_bytes() const { return impl_->peak; }
size_t ValueMemory::device_bytes() const { return impl_->from_device; }
size_t ValueMemory::device_allocations() const { return impl_->allocations; }

}  // namespace ge::v2
