#include <cstdlib>

#include "hal/memory.h"

namespace ge::hal {

Result<DeviceBuffer> DeviceBuffer::Allocate(size_t bytes, size_t alignment) {
  DeviceBuffer b;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    return Status(StatusCode::kInvalidArgument, "alignment " + std::to_string(alignment) + " is not a power of two");
  if (bytes == 0) return b;
  if (bytes > (size_t{1} << 48))
    return Status(StatusCode::kInvalidArgument, "allocation of " + std::to_string(bytes) + " bytes is impossible");
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
