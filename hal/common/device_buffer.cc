#include <cstdlib>

#include "hal/memory.h"

namespace ge::hal {

Result<DeviceBuffer> DeviceBuffer::Allocate(size_t bytes, size_t alignment) {
  DeviceBuffer b;
  if (bytes == 0) return b;
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (!p) return Status(StatusCode::kInternal, "device memory exhausted allocating " + std::to_string(bytes) + " bytes");
  b.data_ = p;
  b.size_ = bytes;
  return b;
}

DeviceBuffer::~DeviceBuffer() { std::free(data_); }

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    std::free(data_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

}  // namespace ge::hal
