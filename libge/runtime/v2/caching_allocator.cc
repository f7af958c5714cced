#include "v2/caching_allocator.h"

#include <algorithm>
#include <bit>
#include <string>

#include "v2/run_limits.h"

namespace ge::v2 {
namespace {

// The size classes (caching_allocator.h): 512-byte steps up to 2^kSmallBits,
// then four classes per power of two.
constexpr size_t kGranule = 512;
constexpr unsigned kSmallBits = 14;
constexpr uint32_t kSmallClasses = (size_t{1} << kSmallBits) / kGranule;

constexpr uint32_t ClassOf(size_t bytes) {
  if (bytes <= (size_t{1} << kSmallBits)) return bytes == 0 ? 0 : static_cast<uint32_t>((bytes - 1) / kGranule);
  // 2^k < bytes <= 2^(k+1); the class is the quarter step m * 2^(k-2), m in 5..8.
  const unsigned k = static_cast<unsigned>(std::bit_width(bytes - 1)) - 1;
  const size_t m = (bytes - 1) >> (k - 2);  // 4..7
  return kSmallClasses + 4 * (k - kSmallBits) + static_cast<uint32_t>(m - 4);
}

constexpr size_t SizeOfClass(uint32_t cls) {
  if (cls < kSmallClasses) return (cls + 1) * kGranule;
  const uint32_t j = cls - kSmallClasses;
  const unsigned k = kSmallBits + j / 4;
  return (5 + size_t{j % 4}) << (k - 2);
}

static_assert(ClassOf(CachingAllocator::kMaxRequest) + 1 == CachingAllocator::kNumClasses);
static_assert(SizeOfClass(ClassOf(CachingAllocator::kMaxRequest)) == CachingAllocator::kMaxRequest);

std::string Bytes(size_t n) { return std::to_string(n) + " B"; }

}  // namespace

CachingAllocator::CachingAllocator(hal::Device& device, Options options) : device_(device), options_(options) {}

// blocks_ owns every DeviceBuffer: they go back to the device here.
CachingAllocator::~CachingAllocator() {
  if (options_.budget) options_.budget->Release(stats_.bytes_in_use + stats_.bytes_cached);
}

std::unique_lock<std::mutex> CachingAllocator::Lock() const {
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  if (options_.thread_safe) lock.lock();
  return lock;
}

size_t CachingAllocator::ClassSize(size_t bytes) { return bytes > kMaxRequest ? 0 : SizeOfClass(ClassOf(bytes)); }

Result<MemBlock*> CachingAllocator::Alloc(size_t bytes) {
  if (bytes > kMaxRequest) return InvalidArgument("caching allocator: a request of " + Bytes(bytes) + " is impossible");
  const uint32_t cls = ClassOf(bytes);
  auto lock = Lock();
  MemBlock* b = free_[cls];
  if (b != nullptr) {
    free_[cls] = b->next_free_;
    b->next_free_ = nullptr;
    stats_.bytes_cached -= b->size_;
    ++stats_.cache_hits;
  } else {
    GE_ASSIGN_OR_RETURN(b, AllocFromDevice(cls, bytes));
  }
  b->live_ = true;
  b->requested_ = bytes;
  stats_.bytes_in_use += b->size_;
  stats_.bytes_requested += bytes;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  return b;
}

Result<MemBlock*> CachingAllocator::AllocFromDevice(uint32_t cls, size_t bytes) {
  const size_t size = SizeOfClass(cls);
  // Held bytes never pass the limit, so `limit - held` cannot wrap.
  const size_t limit = options_.limit == 0 ? SIZE_MAX : options_.limit;
  auto held = [this] { return stats_.bytes_in_use + stats_.bytes_cached; };
  if (size > limit - held()) TrimLocked();
  if (size > limit - held())
    return InvalidArgument("caching allocator: a request of " + Bytes(bytes) + " (a block of " + Bytes(size) +
                           ") passes the limit of " + Bytes(options_.limit) + " with " + Bytes(held()) +
                           " in use after trimming the cache");
  GE_RETURN_IF_ERROR(ChargeBudget(bytes, size));
  auto buffer = device_.Allocate(size, kAlignment);
  if (!buffer.ok() && stats_.bytes_cached > 0) {
    TrimLocked();  // the device may be short of what the cache holds
    buffer = device_.Allocate(size, kAlignment);
  }
  if (!buffer.ok()) {
    if (options_.budget) options_.budget->Release(size);
    return buffer.status().Annotated("caching allocator: a request of " + Bytes(bytes));
  }

  auto block = std::make_unique<MemBlock>();
  block->owner_ = this;
  block->buffer_ = std::move(buffer).value();
  block->size_ = size;
  block->cls_ = cls;
  block->index_ = blocks_.size();
  blocks_.push_back(std::move(block));
  ++stats_.device_allocations;
  stats_.peak_bytes_held = std::max(stats_.peak_bytes_held, held() + size);
  return blocks_.back().get();
}

// The shared budget (other allocators hold part of it) takes `size` more
// device bytes, after this cache is trimmed if it must.
Status CachingAllocator::ChargeBudget(size_t bytes, size_t size) {
  MemoryBudget* budget = options_.budget;
  if (!budget || budget->TryCharge(size)) return Status::Ok();
  TrimLocked();
  if (budget->TryCharge(size)) return Status::Ok();
  return InvalidArgument(budget->Exhausted(bytes));
}

Status CachingAllocator::Free(MemBlock* block) {
  if (block == nullptr) return Status::Ok();
  auto lock = Lock();
  if (block->owner_ != this || !block->live_)
    return Internal("caching allocator: block of " + Bytes(block->size_) + " freed twice or not its own");
  block->live_ = false;
  stats_.bytes_in_use -= block->size_;
  stats_.bytes_requested -= block->requested_;
  stats_.bytes_cached += block->size_;
  block->next_free_ = free_[block->cls_];
  free_[block->cls_] = block;
  return Status::Ok();
}

size_t CachingAllocator::Trim() {
  auto lock = Lock();
  return TrimLocked();
}

size_t CachingAllocator::TrimLocked() {
  size_t released = 0;
  for (MemBlock*& head : free_) {
    while (head != nullptr) {
      MemBlock* b = head;
      head = b->next_free_;
      released += b->size_;
      ++stats_.device_frees;
      // Swap-remove from the table; the block's DeviceBuffer goes back to the device.
      const size_t i = b->index_;
      std::swap(blocks_[i], blocks_.back());
      blocks_[i]->index_ = i;
      blocks_.pop_back();
    }
  }
  stats_.bytes_cached -= released;
  if (options_.budget) options_.budget->Release(released);
  return released;
}

CachingAllocatorStats CachingAllocator::stats() const {
  auto lock = Lock();
  return stats_;
}

}  // namespace ge::v2
