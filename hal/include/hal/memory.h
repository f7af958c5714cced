// Device memory: one allocation, owned by a DeviceBuffer and released by the
// device that made it (hal::Device::Allocate). On the CPU backend this is host
// memory, 64-byte aligned.
#pragma once

#include <cstddef>

#include "ge_base/status.h"

namespace ge::hal {

constexpr size_t kDefaultAlignment = 64;

// Move-only; frees its allocation on destruction through the release
// function of the device that made it.
class DeviceBuffer {
 public:
  using Release = void (*)(void* data);

  DeviceBuffer() = default;
  // For backends: takes ownership of `data` (`size` bytes), freed by `release`.
  DeviceBuffer(void* data, size_t size, Release release) : data_(data), size_(size), release_(release) {}
  ~DeviceBuffer() { Reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : data_(o.data_), size_(o.size_), release_(o.release_) { o.Forget(); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      Reset();
      data_ = o.data_;
      size_ = o.size_;
      release_ = o.release_;
      o.Forget();
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void Reset() {
    if (data_ && release_) release_(data_);
    Forget();
  }
  void Forget() {
    data_ = nullptr;
    size_ = 0;
    release_ = nullptr;
  }

  void* data_ = nullptr;
  size_t size_ = 0;
  Release release_ = nullptr;
};

}  // namespace ge::hal
