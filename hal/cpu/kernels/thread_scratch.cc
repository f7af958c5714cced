#include "kernels/thread_scratch.h"

#include <cstdlib>

namespace ge::hal::dnnl_util {
namespace {

struct Buffer {
  uint8_t* data = nullptr;
  size_t size = 0;
  ~Buffer() { std::free(data); }
};

}  // namespace

uint8_t* ThreadScratch(ScratchUse use, size_t bytes) {
  thread_local Buffer buffers[2];
  Buffer& b = buffers[use == ScratchUse::kScratchpad ? 0 : 1];
  if (bytes <= b.size) return b.data;
  constexpr size_t kAlign = 64;
  const size_t size = (bytes + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, size);
  if (!p) return nullptr;
  std::free(b.data);
  b.data = static_cast<uint8_t*>(p);
  b.size = size;
  return b.data;
}

}  // namespace ge::hal::dnnl_util
