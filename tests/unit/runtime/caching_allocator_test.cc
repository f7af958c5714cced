// The v2 caching allocator: class rounding, reuse without the device, the
// limit, Trim, stats, and live blocks that never overlap.
#include "v2/caching_allocator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "tests/common/refusal.h"

namespace ge::test {
namespace {

using v2::CachingAllocator;
using v2::MemBlock;

std::atomic<size_t> g_device_releases{0};

void ReleaseCounted(void* p) {
  ++g_device_releases;
  std::free(p);
}

// A memory-only device that counts what the allocator asks of it and can
// refuse once.
class CountingDevice final : public hal::Device {
 public:
  const hal::Capabilities& capabilities() const override { return caps_; }
  const hal::KernelRegistry& kernels() const override { return kernels_; }
  Result<hal::DeviceBuffer> Allocate(size_t bytes, size_t alignment) override {
    if (refuse_next) {
      refuse_next = false;
      return Internal("counting device: refused " + std::to_string(bytes) + " bytes");
    }
    ++allocations;
    return hal::DeviceBuffer(std::aligned_alloc(alignment, bytes), bytes, ReleaseCounted);
  }
  std::unique_ptr<hal::Stream> CreateStream() override { return nullptr; }
  std::unique_ptr<hal::Event> CreateEvent() override { return nullptr; }
  Result<std::unique_ptr<hal::Model>> CreateModel(hal::ModelDesc) override { return Unsupported("no models"); }
  std::unique_ptr<hal::ComputeShare> ShareCompute(size_t) override { return nullptr; }

  size_t allocations = 0;
  bool refuse_next = false;

 private:
  hal::Capabilities caps_;
  hal::KernelRegistry kernels_;
};

MemBlock* MustAlloc(CachingAllocator& a, size_t bytes) {
  auto b = a.Alloc(bytes);
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  return b.ok() ? *b : nullptr;
}

void MustFree(CachingAllocator& a, MemBlock* b) {
  Status s = a.Free(b);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(CachingAllocator, ClassesRoundTo512BytesThenQuarterPowersOfTwo) {
  EXPECT_EQ(CachingAllocator::ClassSize(0), 512u);
  EXPECT_EQ(CachingAllocator::ClassSize(1), 512u);
  EXPECT_EQ(CachingAllocator::ClassSize(512), 512u);
  EXPECT_EQ(CachingAllocator::ClassSize(513), 1024u);
  EXPECT_EQ(CachingAllocator::ClassSize(16384), 16384u);
  EXPECT_EQ(CachingAllocator::ClassSize(16385), 20480u);
  EXPECT_EQ(CachingAllocator::ClassSize(20481), 24576u);
  EXPECT_EQ(CachingAllocator::ClassSize(32768), 32768u);
  EXPECT_EQ(CachingAllocator::ClassSize(32769), 40960u);
  EXPECT_EQ(CachingAllocator::ClassSize((1u << 20) + 1), (1u << 20) + (1u << 18));
  EXPECT_EQ(CachingAllocator::ClassSize(CachingAllocator::kMaxRequest), CachingAllocator::kMaxRequest);
  EXPECT_EQ(CachingAllocator::ClassSize(CachingAllocator::kMaxRequest + 1), 0u);
}

TEST(CachingAllocator, RoundingWasteStaysWithinTheDocumentedBound) {
  size_t previous = 0;
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 70000; ++n) sizes.push_back(n);  // 0 takes 512 B, all waste
  for (size_t k = 17; k < 62; ++k)
    for (size_t d : {size_t{0}, size_t{1}, size_t{3} << (k - 3), (size_t{1} << k) - 1})
      sizes.push_back((size_t{1} << k) + d);
  for (size_t n : sizes) {
    const size_t c = CachingAllocator::ClassSize(n);
    ASSERT_GE(c, n);
    ASSERT_EQ(c % 512, 0u) << n;
    if (n <= 16384) {
      ASSERT_LT(c - n, 512u) << n;
    } else {
      ASSERT_LT(c - n, n / 4) << n;
    }
    if (n <= 70000) {
      ASSERT_GE(c, previous) << n;  // monotonic over the dense sweep
    }
    previous = c;
  }
}

TEST(CachingAllocator, RepeatedSequenceHitsTheCacheAfterWarmUp) {
  CountingDevice device;
  CachingAllocator a(device);
  const std::vector<size_t> sizes{0, 100, 512, 4000, 4000, 20000, 300000, 1 << 20};
  std::vector<MemBlock*> live;
  auto one_run = [&] {
    for (size_t n : sizes) live.push_back(MustAlloc(a, n));
    for (MemBlock* b : live) MustFree(a, b);
    live.clear();
  };
  one_run();
  EXPECT_EQ(device.allocations, sizes.size());
  for (int i = 0; i < 10; ++i) one_run();
  EXPECT_EQ(device.allocations, sizes.size());
  const auto s = a.stats();
  EXPECT_EQ(s.device_allocations, sizes.size());
  EXPECT_EQ(s.cache_hits, 10 * sizes.size());
  EXPECT_EQ(s.bytes_in_use, 0u);
}

TEST(CachingAllocator, ZeroBytesGiveUniqueNonNullAddresses) {
  CountingDevice device;
  CachingAllocator a(device);
  MemBlock* b1 = MustAlloc(a, 0);
  MemBlock* b2 = MustAlloc(a, 0);
  ASSERT_NE(b1, nullptr);
  ASSERT_NE(b2, nullptr);
  EXPECT_NE(b1->addr(), nullptr);
  EXPECT_NE(b2->addr(), nullptr);
  EXPECT_NE(b1->addr(), b2->addr());
  EXPECT_EQ(b1->size(), 512u);
  MustFree(a, b1);
  MustFree(a, b2);
}

TEST(CachingAllocator, BlocksAre64ByteAligned) {
  CountingDevice device;
  CachingAllocator a(device);
  std::vector<MemBlock*> live;
  for (size_t n : {1, 63, 64, 65, 700, 5000, 17000, 100000}) live.push_back(MustAlloc(a, n));
  for (MemBlock* b : live) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b->addr()) % CachingAllocator::kAlignment, 0u);
    MustFree(a, b);
  }
}

TEST(CachingAllocator, LimitTrimsTheCacheFirstThenFailsNamingRequestAndLimit) {
  CountingDevice device;
  CachingAllocator a(device, {.limit = 64 * 1024});
  MustFree(a, MustAlloc(a, 32 * 1024));  // cached: 32 KiB held
  // 48 KiB more would pass 64 KiB: the cached block goes back first.
  MemBlock* big = MustAlloc(a, 48 * 1024);
  EXPECT_EQ(a.stats().device_frees, 1u);
  EXPECT_EQ(a.stats().bytes_cached, 0u);
  // 20000 B (a 20 KiB block) on top of 48 KiB in use cannot fit.
  auto r = a.Alloc(20000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("request of 20000 B"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("limit of 65536 B"), std::string::npos) << r.status().ToString();
  MustFree(a, big);
  EXPECT_TRUE(a.Alloc(20000).ok());  // fits again once the 48 KiB are trimmed
}

TEST(CachingAllocator, TrimReleasesCachedBlocksOnly) {
  CountingDevice device;
  CachingAllocator a(device);
  const size_t released_before = g_device_releases;
  MemBlock* keep = MustAlloc(a, 1000);
  MustFree(a, MustAlloc(a, 3000));
  MustFree(a, MustAlloc(a, 50000));
  EXPECT_EQ(a.Trim(), 3072u + 57344u);
  EXPECT_EQ(g_device_releases - released_before, 2u);
  auto s = a.stats();
  EXPECT_EQ(s.bytes_cached, 0u);
  EXPECT_EQ(s.bytes_in_use, 1024u);
  EXPECT_EQ(s.device_frees, 2u);
  EXPECT_EQ(a.Trim(), 0u);
  MustFree(a, MustAlloc(a, 3000));  // from the device again
  EXPECT_EQ(a.stats().device_allocations, 4u);
  MustFree(a, keep);
}

TEST(CachingAllocator, StatsTrackInUseCachedAndPeak) {
  CountingDevice device;
  CachingAllocator a(device);
  MemBlock* b1 = MustAlloc(a, 1000);   // 1024
  MemBlock* b2 = MustAlloc(a, 20000);  // 20480
  auto s = a.stats();
  EXPECT_EQ(s.bytes_in_use, 1024u + 20480u);
  EXPECT_EQ(s.bytes_requested, 21000u);
  EXPECT_EQ(s.bytes_cached, 0u);
  MustFree(a, b2);
  s = a.stats();
  EXPECT_EQ(s.bytes_in_use, 1024u);
  EXPECT_EQ(s.bytes_requested, 1000u);
  EXPECT_EQ(s.bytes_cached, 20480u);
  EXPECT_EQ(s.peak_bytes_in_use, 1024u + 20480u);
  EXPECT_EQ(s.peak_bytes_held, 1024u + 20480u);
  MustFree(a, b1);
  MustFree(a, MustAlloc(a, 700));  // reuses the 1024 class
  s = a.stats();
  EXPECT_EQ(s.device_allocations, 2u);
  EXPECT_EQ(s.cache_hits, 1u);
  EXPECT_EQ(s.peak_bytes_in_use, 1024u + 20480u);
}

TEST(CachingAllocator, FreeingTwiceOrAnotherAllocatorsBlockIsAnError) {
  CountingDevice device;
  CachingAllocator a(device), other(device);
  EXPECT_TRUE(a.Free(nullptr).ok());
  MemBlock* b = MustAlloc(a, 100);
  EXPECT_EQ(other.Free(b).code(), StatusCode::kInternal);
  MustFree(a, b);
  Status twice = a.Free(b);
  EXPECT_EQ(twice.code(), StatusCode::kInternal);
  EXPECT_NE(twice.message().find("freed twice"), std::string::npos) << twice.ToString();
  EXPECT_EQ(a.stats().bytes_cached, 512u);  // still one cached block
}

TEST(CachingAllocator, ADeviceRefusalTrimsTheCacheAndRetries) {
  CountingDevice device;
  CachingAllocator a(device);
  MustFree(a, MustAlloc(a, 4096));
  device.refuse_next = true;
  MemBlock* b = MustAlloc(a, 100000);
  EXPECT_EQ(a.stats().device_frees, 1u);
  device.refuse_next = true;  // nothing cached: the device's error, annotated
  auto r = a.Alloc(200000);
  ASSERT_TRUE(Refused(r, StatusCode::kInternal, "request of 200000 B"));
  EXPECT_NE(r.status().message().find("refused"), std::string::npos) << r.status().ToString();
  MustFree(a, b);
}

// Random sizes allocated and freed at random: every live block is disjoint
// from the others and keeps the bytes written into it.
TEST(CachingAllocator, RandomSequenceNeverOverlapsLiveBlocks) {
  CountingDevice device;
  CachingAllocator a(device);
  std::mt19937 rng(7);
  std::map<uintptr_t, MemBlock*> live;  // by address
  auto pattern = [](MemBlock* b) { return static_cast<uint8_t>(reinterpret_cast<uintptr_t>(b) >> 6); };
  auto check_and_free = [&](std::map<uintptr_t, MemBlock*>::iterator it) {
    MemBlock* b = it->second;
    const auto* p = static_cast<const uint8_t*>(b->addr());
    EXPECT_TRUE(p[0] == pattern(b) && p[b->size() - 1] == pattern(b)) << "block at " << b->addr() << " overwritten";
    MustFree(a, b);
    live.erase(it);
  };
  for (int step = 0; step < 20000; ++step) {
    if (!live.empty() && rng() % 2 == 0) {
      check_and_free(std::next(live.begin(), static_cast<long>(rng() % live.size())));
      continue;
    }
    const size_t bytes = rng() % 4 == 0 ? rng() % 300000 : rng() % 5000;
    MemBlock* b = MustAlloc(a, bytes);
    ASSERT_NE(b, nullptr);
    const auto addr = reinterpret_cast<uintptr_t>(b->addr());
    auto next = live.lower_bound(addr);
    if (next != live.end()) {
      ASSERT_LE(addr + b->size(), next->first) << "overlaps the next live block";
    }
    if (next != live.begin()) {
      const MemBlock* prev = std::prev(next)->second;
      ASSERT_LE(reinterpret_cast<uintptr_t>(prev->addr()) + prev->size(), addr) << "overlaps the previous live block";
    }
    std::memset(b->addr(), pattern(b), b->size());
    live.emplace(addr, b);
  }
  while (!live.empty()) check_and_free(live.begin());
  const auto s = a.stats();
  EXPECT_EQ(s.bytes_in_use, 0u);
  EXPECT_GT(s.cache_hits, s.device_allocations);
}

TEST(CachingAllocator, ThreadSafeModeServesTwoThreads) {
  CountingDevice device;
  CachingAllocator a(device, {.thread_safe = true});
  auto churn = [&a](size_t seed) {
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::vector<MemBlock*> mine;
    for (int i = 0; i < 5000; ++i) {
      if (mine.size() > 8 || (!mine.empty() && rng() % 2 == 0)) {
        MustFree(a, mine.back());
        mine.pop_back();
      } else {
        mine.push_back(MustAlloc(a, rng() % 40000));
        std::memset(mine.back()->addr(), 1, mine.back()->size());
      }
    }
    for (MemBlock* b : mine) MustFree(a, b);
  };
  std::thread t1(churn, 1), t2(churn, 2);
  t1.join();
  t2.join();
  EXPECT_EQ(a.stats().bytes_in_use, 0u);
  EXPECT_EQ(a.stats().bytes_requested, 0u);
}

}  // namespace
}  // namespace ge::test
