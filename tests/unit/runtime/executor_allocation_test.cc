// Running a topological plan allocates nothing once its scratch is sized:
// counted by replacing the global operator new for this test binary. The
// replacement only counts and forwards to malloc, so the other tests here
// see the allocator they always had (libstdc++'s array and nothrow forms come
// through these).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "tests/unit/runtime/exec_graph_test_util.h"
#include "v2/executor_thread_pool.h"

namespace {
std::atomic<size_t> g_operator_news{0};
}  // namespace

// AddressSanitizer owns operator new and delete (it pairs every form with its
// own): replacing some of them there would mismatch allocation and release,
// so under it nothing is replaced and the counts are skipped.
#ifdef __SANITIZE_ADDRESS__
#define GE_COUNT_OPERATOR_NEW 0
#else
#define GE_COUNT_OPERATOR_NEW 1

// Not inlined: unity builds put other test files in this one's translation
// unit, where GCC would see free() meet operator new and warn.
[[gnu::noinline]] void* operator new(size_t bytes) {
  g_operator_news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, size_t) noexcept { std::free(p); }
#endif

namespace ge::test {
namespace {

// Allocations on every thread while `run` runs `times` times.
#define SKIP_WITHOUT_COUNTS() \
  if (!GE_COUNT_OPERATOR_NEW) GTEST_SKIP() << "operator new is AddressSanitizer's in this build: allocations are not counted"

template <typename F>
size_t NewsDuring(int times, F run) {
  const size_t before = g_operator_news.load();
  for (int i = 0; i < times; ++i) run();
  return g_operator_news.load() - before;
}

TEST(ExecutorAllocation, TopologicalRunsAllocateNothing) {
  SKIP_WITHOUT_COUNTS();
  CheckedRandomDag g(2000, 3);
  long result = 0;
  EXPECT_EQ(NewsDuring(20, [&] { result = v2::TopologicalExecute(&g.data, &g.scratch); }), 0u);
  EXPECT_EQ(result, -1);
}

TEST(ExecutorAllocation, ParallelRunsAllocateNothing) {
  SKIP_WITHOUT_COUNTS();
  CheckedRandomDag g(2000, 4);
  auto pool = v2::ExecutorThreadPool::Create(2);
  ASSERT_TRUE(pool.ok()) << pool.status().ToString();
  long result = 0;
  EXPECT_EQ(NewsDuring(20, [&] { result = v2::ParallelTopologicalExecute(&g.data, &g.scratch, pool->get()); }), 0u);
  EXPECT_EQ(result, -1);
}

TEST(ExecutorAllocation, AnUnsizedScratchIsSizedByTheFirstRunOnly) {
  SKIP_WITHOUT_COUNTS();
  CheckedRandomDag g(100, 5);
  v2::TopologicalScratch scratch;
  EXPECT_GT(NewsDuring(1, [&] { EXPECT_EQ(v2::TopologicalExecute(&g.data, &scratch), -1); }), 0u);
  EXPECT_EQ(NewsDuring(5, [&] { EXPECT_EQ(v2::TopologicalExecute(&g.data, &scratch), -1); }), 0u);
}

}  // namespace
}  // namespace ge::test
