// Device memory for dynamic-shape tensors (v2's AllocMemory / FreeMemory
// nodes): blocks of a few size classes, kept on a free list per class when
// freed, so a model that runs the same shapes again allocates nothing from
// the device after its first run.
//
// Size classes. Up to 16 KiB: multiples of 512 B, so a block wastes less
// than 512 B (a 0-byte request takes 512 B, all of it). Above: four classes
// per power of two (2^k * 5/4, 6/4, 7/4, 8/4), so a block wastes less than a
// quarter of its request (just over 2^k takes 2^k * 5/4), and shapes that
// vary a little (sequence lengths) still share a class. 16 KiB is where the
// two steps meet without a gap: a quarter of 16 KiB is 4 KiB. Every class
// is a multiple of 512 B; blocks are 64-byte aligned. A request only takes a
// block of its own class (no splitting, no larger class): simple, and what
// a repeated inference needs.
//
// Not thread-safe by default: the main path is the one executor thread, and
// it pays no lock. Options::thread_safe adds a mutex (for executors that run
// AllocMemory nodes on several threads).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "ge_base/status.h"
#include "hal/device.h"

namespace ge::v2 {

class CachingAllocator;
class MemoryBudget;

// A block handed out by CachingAllocator::Alloc; valid until freed.
class MemBlock {
 public:
  void* addr() const { return buffer_.data(); }
  // Usable bytes: the class size, at least the request.
  size_t size() const { return size_; }

 private:
  friend class CachingAllocator;
  const CachingAllocator* owner_ = nullptr;
  hal::DeviceBuffer buffer_;
  size_t size_ = 0;
  size_t requested_ = 0;
  size_t index_ = 0;  // position in the allocator's block table
  uint32_t cls_ = 0;
  bool live_ = false;
  MemBlock* next_free_ = nullptr;
};

struct CachingAllocatorStats {
  size_t device_allocations = 0;  // blocks taken from the device
  size_t device_frees = 0;        // blocks given back (Trim, the limit)
  size_t cache_hits = 0;          // Allocs served from a free list
  size_t bytes_in_use = 0;        // class bytes of live blocks
  size_t bytes_requested = 0;     // requested bytes of live blocks (in use - this = rounding waste)
  size_t bytes_cached = 0;        // class bytes of freed blocks kept for reuse
  size_t peak_bytes_in_use = 0;
  size_t peak_bytes_held = 0;  // in use + cached: what the device gave
};

class CachingAllocator {
 public:
  static constexpr size_t kAlignment = 64;
  // Larger requests are refused: their class could not be computed.
  static constexpr size_t kMaxRequest = size_t{1} << 62;
  // 32 small classes, then 4 per power of two from 2^14 to 2^62.
  static constexpr size_t kNumClasses = 224;

  struct Options {
    // Device bytes held (in use + cached) at most; 0 is no limit.
    size_t limit = 0;
    bool thread_safe = false;
    // Shared with other allocators (v2's model tree, run_limits.h): the
    // device bytes held count against it too; null: none.
    MemoryBudget* budget = nullptr;
  };

  explicit CachingAllocator(hal::Device& device) : CachingAllocator(device, Options{}) {}
  CachingAllocator(hal::Device& device, Options options);
  // Gives every block back to the device (and the budget), live ones too:
  // outlive your blocks.
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // A block of at least `bytes` (0 too: a unique, non-null address). Served
  // from its class's free list when it can; otherwise from the device, after
  // trimming the cache if the limit would be passed. Errors name the request
  // and the limit.
  Result<MemBlock*> Alloc(size_t bytes);
  // Returns `block` to its class's free list (nullptr is a no-op). A block
  // freed twice (while still cached) or from another allocator is kInternal.
  Status Free(MemBlock* block);
  // Gives every cached block back to the device; returns the bytes released.
  size_t Trim();

  CachingAllocatorStats stats() const;
  // The class size `bytes` is rounded to; 0 for a request above kMaxRequest.
  static size_t ClassSize(size_t bytes);

 private:
  Result<MemBlock*> AllocFromDevice(uint32_t cls, size_t bytes);
  Status ChargeBudget(size_t bytes, size_t size);
  size_t TrimLocked();
  std::unique_lock<std::mutex> Lock() const;

  hal::Device& device_;
  const Options options_;
  mutable std::mutex mutex_;
  std::array<MemBlock*, kNumClasses> free_{};
  std::vector<std::unique_ptr<MemBlock>> blocks_;  // every block, live or cached
  CachingAllocatorStats stats_;
};

}  // namespace ge::v2
