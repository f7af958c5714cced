// The multi-thread topological executor: a random DAG many times on 2 and 4
// threads (no deadlock, no node lost or run early), failure, concurrency.
#include "v2/executor_thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "tests/common/refusal.h"
#include "tests/unit/runtime/exec_graph_test_util.h"

namespace ge::test {
namespace {

#ifdef __SANITIZE_THREAD__
constexpr int kPoolRuns = 20;  // TSan is ~20x slower; the interleavings it checks still vary
#else
constexpr int kPoolRuns = 300;
#endif

std::unique_ptr<v2::ExecutorThreadPool> MustPool(size_t threads) {
  auto pool = v2::ExecutorThreadPool::Create(threads);
  EXPECT_TRUE(pool.ok()) << pool.status().ToString();
  return pool.ok() ? std::move(pool).value() : nullptr;
}

void RunRandomDagRepeatedly(size_t threads) {
  CheckedRandomDag g(2000, 23);
  auto pool = MustPool(threads);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->threads(), threads);
  for (int run = 0; run < kPoolRuns; ++run) {
    ASSERT_EQ(v2::ParallelTopologicalExecute(&g.data, &g.scratch, pool.get()), -1) << "run " << run;
    g.dag.ExpectRunComplete();
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(ParallelTopologicalExecute, RandomDagOn2ThreadsManyTimes) { RunRandomDagRepeatedly(2); }
TEST(ParallelTopologicalExecute, RandomDagOn4ThreadsManyTimes) { RunRandomDagRepeatedly(4); }
TEST(ParallelTopologicalExecute, OneThreadIsTheCallerAlone) { RunRandomDagRepeatedly(1); }

TEST(ParallelTopologicalExecute, ZeroThreadsIsAnError) {
  auto pool = v2::ExecutorThreadPool::Create(0);
  ASSERT_TRUE(
      Refused(pool, StatusCode::kInvalidArgument, "executor thread pool: 0 threads (the caller is one: at least 1)"));
  EXPECT_EQ(pool.status().code(), StatusCode::kInvalidArgument);
}

// Node 0 waits until node 1 has started: only two threads at once can run it.
TEST(ParallelTopologicalExecute, IndependentNodesRunConcurrently) {
  struct Pair {
    std::atomic<bool> second_started{false};
  } pair;
  auto first = [](void* c) {
    auto* p = static_cast<Pair*>(c);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!p->second_started.load())
      if (std::chrono::steady_clock::now() > deadline) return 1;
    return 0;
  };
  auto second = [](void* c) {
    static_cast<Pair*>(c)->second_started = true;
    return 0;
  };
  v2::TopologicalPlan plan = MustPlan({2, {}, {2, 1}});
  const v2::ExecNode nodes[] = {{first, &pair}, {second, &pair}};
  const v2::TopologicalExecutionData data = plan.Bind(nodes);
  v2::TopologicalScratch scratch;
  auto pool = MustPool(2);
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(v2::ParallelTopologicalExecute(&data, &scratch, pool.get()), -1);
}

// Nodes that note that they ran; one of them fails.
struct FailingDag {
  explicit FailingDag(size_t node_num, uint32_t fail) : ran(new std::atomic<bool>[node_num]), contexts(node_num) {
    for (uint32_t i = 0; i < node_num; ++i) {
      ran[i] = false;
      contexts[i] = {this, i, i == fail};
      nodes.push_back({Run, &contexts[i]});
    }
  }
  struct Entry {
    FailingDag* dag;
    uint32_t self;
    bool fail;
  };
  static int Run(void* c) {
    auto* e = static_cast<Entry*>(c);
    e->dag->ran[e->self] = true;
    return e->fail ? 1 : 0;
  }
  std::unique_ptr<std::atomic<bool>[]> ran;
  std::vector<Entry> contexts;
  std::vector<v2::ExecNode> nodes;
};

// What `from` leads to, itself excluded.
std::vector<bool> Descendants(const v2::TopologicalPlan& plan, uint32_t from) {
  std::vector<bool> seen(plan.node_num(), false);
  std::vector<uint32_t> stack{from};
  while (!stack.empty()) {
    const uint32_t n = stack.back();
    stack.pop_back();
    for (uint32_t e = plan.succ_begin[n]; e < plan.succ_begin[n + 1]; ++e)
      if (!seen[plan.succ[e]]) {
        seen[plan.succ[e]] = true;
        stack.push_back(plan.succ[e]);
      }
  }
  return seen;
}

TEST(ParallelTopologicalExecute, FailureReturnsTheNodeAndNothingAfterItRuns) {
  const DagSpec spec = RandomDag(500, 5);
  v2::TopologicalPlan plan = MustPlan(spec);
  uint32_t fail = 0;  // a node with many descendants
  std::vector<bool> after;
  for (uint32_t i = 0; i < spec.node_num && std::count(after.begin(), after.end(), true) < 50; ++i) {
    fail = i;
    after = Descendants(plan, i);
  }
  v2::TopologicalScratch scratch;
  for (size_t threads : {2, 4}) {
    auto pool = MustPool(threads);
    ASSERT_NE(pool, nullptr);
    for (int run = 0; run < kPoolRuns / 10; ++run) {
      FailingDag dag(spec.node_num, fail);
      const v2::TopologicalExecutionData data = plan.Bind(dag.nodes.data());
      ASSERT_EQ(v2::ParallelTopologicalExecute(&data, &scratch, pool.get()), static_cast<long>(fail));
      for (uint32_t i = 0; i < spec.node_num; ++i) ASSERT_FALSE(after[i] && dag.ran[i]) << "node " << i << " ran";
    }
    // The pool runs the next plan as if nothing happened.
    CheckedDag ok(spec);
    const v2::TopologicalExecutionData data = plan.Bind(ok.nodes());
    ASSERT_EQ(v2::ParallelTopologicalExecute(&data, &scratch, pool.get()), -1);
    ok.ExpectRunComplete();
  }
}

}  // namespace
}  // namespace ge::test
