// ThreadScratch: one buffer per thread and use, grown on demand and aligned.
// (Kernels sharing it, run interleaved: conv_test.cc.)
#include <thread>

#include "kernels/thread_scratch.h"
#include <gtest/gtest.h>

namespace ge::test {
namespace {

using hal::dnnl_util::ScratchUse;
using hal::dnnl_util::ThreadScratch;

TEST(ThreadScratch, GrowsAlignedAndKeepsUsesApart) {
  uint8_t* a = ThreadScratch(ScratchUse::kScratchpad, 100);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(ThreadScratch(ScratchUse::kScratchpad, 10), a) << "a smaller request reuses the buffer";
  uint8_t* t = ThreadScratch(ScratchUse::kTemporaries, 100);
  ASSERT_NE(t, nullptr);
  EXPECT_NE(t, a) << "temporaries live across the steps whose scratchpads they would overlap";
  uint8_t* big = ThreadScratch(ScratchUse::kScratchpad, 1 << 20);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big) % 64, 0u);
  big[(1 << 20) - 1] = 1;  // the whole size is usable (ASan checks)
}

TEST(ThreadScratch, EachThreadHasItsOwn) {
  uint8_t* mine = ThreadScratch(ScratchUse::kScratchpad, 4096);
  uint8_t* other = nullptr;
  std::thread([&] { other = ThreadScratch(ScratchUse::kScratchpad, 4096); }).join();
  EXPECT_NE(mine, other);
}

}  // namespace
}  // namespace ge::test
