// The value slots of a lowered dynamic model: one per node output of the
// root graph, holding what the C nodes of Main pass to each other per call
// (dims, data address, the memory block that backs it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "ge/ir/tensor_desc.h"
#include "ge_base/status.h"
#include "ge_base/tensor_bytes.h"
#include "hal/device.h"
#include "v2/caching_allocator.h"

namespace ge::v2 {

class RunLimits;

struct Value {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;  // this call's shape
  int32_t channel_block = 0;  // hal::TensorInfo::channel_block
  void* data = nullptr;
  size_t bytes = 0;
  // The memory block when this value owns its memory; null for user
  // buffers, constants and aliases.
  MemBlock* block = nullptr;
  // An alias (Reshape, Squeeze ...) shares `owner`'s memory; null otherwise.
  Value* owner = nullptr;

  // This call's bytes, checked (ge_base/tensor_bytes.h): a run-time shape
  // with a negative dim or too many bytes is refused, never wrapped.
  Result<size_t> ComputeBytes() const { return TensorBytes(dims, dtype); }
  // Sets `bytes` from the dims; the error names the shape (callers add
  // the node only on failure: this runs per node and call).
  Status SetBytes() {
    Result<size_t> b = ComputeBytes();
    if (!b.ok()) return b.status();
    bytes = *b;
    return Status::Ok();
  }
};

// Memory for values that own theirs, from the caching allocator: a run with
// shapes seen before allocates nothing from the device.
class ValueMemory {
 public:
  // thread_safe: for executors that allocate on several threads. The
  // device blocks held count against `budget` (the model tree's
  // --max_memory), which must outlive this.
  ValueMemory(hal::Device& device, bool thread_safe, MemoryBudget* budget);
  ~ValueMemory();
  ValueMemory(const ValueMemory&) = delete;
  ValueMemory& operator=(const ValueMemory&) = delete;
  // Gives `v` a block of v.bytes (64-byte aligned; zero bytes still get a
  // valid address) and points v.data at it. Past the memory limit (after
  // trimming the cache) it fails naming the request and the limit.
  Status Alloc(Value& v);
  void Free(Value& v);
  // Cached blocks back to the device (CachingAllocator::Trim).
  void Trim() { allocator_.Trim(); }
  // Bytes in use / the most ever in use / bytes the device gave.
  size_t bytes_in_use() const { return allocator_.stats().bytes_in_use; }
  size_t peak_bytes() const { return allocator_.stats().peak_bytes_in_use; }
  size_t device_bytes() const { return allocator_.stats().peak_bytes_held; }
  size_t device_allocations() const { return allocator_.stats().device_allocations; }

 private:
  CachingAllocator allocator_;
  MemoryBudget* budget_;
};

// What every Main node reaches: value memory and the first error of a call
// (a failing node writes it and returns non-zero; the executor stops).
struct RunState {
  ValueMemory* memory = nullptr;
  RunLimits* limits = nullptr;  // the model tree's (run_limits.h)
  Status error;
  std::mutex mu;  // parallel executors: the first failure wins
  int Fail(Status s) {
    std::lock_guard<std::mutex> lock(mu);
    if (error.ok()) error = std::move(s);
    return 1;
  }
};

}  // namespace ge::v2
