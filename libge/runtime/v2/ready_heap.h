// The ready nodes of a topological run, shared by both executors: a
// max-heap by priority (ties: the lower index, the lowering's order) in the
// caller's scratch array, and the in-degree countdown that fills it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "v2/topological_executor.h"

namespace ge::v2 {

class ReadyHeap {
 public:
  ReadyHeap() = default;
  ReadyHeap(uint32_t* items, const int64_t* priority) : items_(items), order_{priority} {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void Clear() { size_ = 0; }
  void Push(uint32_t node) {
    items_[size_++] = node;
    std::push_heap(items_, items_ + size_, order_);
  }
  uint32_t Pop() {
    std::pop_heap(items_, items_ + size_, order_);
    return items_[--size_];
  }

  // A run's start: `pending` = the in-degrees, the heap = the sources.
  void Start(const TopologicalExecutionData& d, uint32_t* pending) {
    size_ = 0;
    for (size_t i = 0; i < d.node_num; ++i) {
      pending[i] = d.in_degree[i];
      if (pending[i] == 0) items_[size_++] = static_cast<uint32_t>(i);
    }
    std::make_heap(items_, items_ + size_, order_);
  }
  // `node` succeeded: its successors with nothing left to wait for are ready.
  void Release(const TopologicalExecutionData& d, uint32_t node, uint32_t* pending) {
    for (uint32_t e = d.succ_begin[node]; e < d.succ_begin[node + 1]; ++e)
      if (--pending[d.succ[e]] == 0) Push(d.succ[e]);
  }

 private:
  struct Order {
    const int64_t* priority;
    bool operator()(uint32_t a, uint32_t b) const {
      return priority[a] < priority[b] || (priority[a] == priority[b] && a > b);
    }
  };

  uint32_t* items_ = nullptr;
  size_t size_ = 0;
  Order order_{nullptr};
};

}  // namespace ge::v2
