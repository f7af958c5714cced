// Device memory. On the CPU backend this is host memory, 64-byte aligned.
#pragma once

#include <cstddef>

#include "hal/status.h"

namespace ge::hal {

constexpr size_t kDefaultAlignment = 64;

// Owns one device allocation; frees it on destruction. Move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  static Result<DeviceBuffer> Allocate(size_t bytes, size_t alignment = kDefaultAlignment);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr; o.size_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ge::hal
