// The host cost per node of each v2 executor, on 1000 nodes that do nothing:
// printed for the record, never asserted (timings belong to benchmarks;
// DESIGN.md).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "tests/unit/runtime/exec_graph_test_util.h"
#include "v2/executor_thread_pool.h"

namespace ge::test {
namespace {

#ifdef __SANITIZE_THREAD__
constexpr int kOverheadRuns = 20;
#else
constexpr int kOverheadRuns = 2000;
#endif

int CountRun(void* context) {
  ++*static_cast<size_t*>(context);
  return 0;
}

// Nanoseconds per node over kOverheadRuns runs of `run`, after a warm-up.
template <typename F>
double NsPerNode(size_t node_num, F run) {
  for (int i = 0; i < 10; ++i) run();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kOverheadRuns; ++i) run();
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  return took.count() / (static_cast<double>(kOverheadRuns) * static_cast<double>(node_num));
}

void PrintOverheads(const char* shape, const DagSpec& spec) {
  std::vector<size_t> counters(spec.node_num, 0);
  std::vector<v2::ExecNode> nodes;
  for (size_t& c : counters) nodes.push_back({CountRun, &c});
  v2::TopologicalPlan plan = MustPlan(spec);
  const v2::TopologicalExecutionData data = plan.Bind(nodes.data());
  v2::TopologicalScratch scratch(spec.node_num);
  std::printf("v2 executor overhead, %zu trivial nodes (%s), ns per node:\n", spec.node_num, shape);
  const v2::SequentialExecutionData seq{nodes.size(), nodes.data()};
  std::printf("  sequential           %7.1f\n",
              NsPerNode(spec.node_num, [&] { EXPECT_EQ(v2::SequentialExecute(&seq), -1); }));
  std::printf("  topological          %7.1f\n",
              NsPerNode(spec.node_num, [&] { EXPECT_EQ(v2::TopologicalExecute(&data, &scratch), -1); }));
  for (size_t threads : {1, 2, 4}) {
    auto pool = v2::ExecutorThreadPool::Create(threads);
    ASSERT_TRUE(pool.ok()) << pool.status().ToString();
    auto parallel = [&] { EXPECT_EQ(v2::ParallelTopologicalExecute(&data, &scratch, pool->get()), -1); };
    std::printf("  parallel, %zu thread%s  %7.1f\n", threads, threads == 1 ? " " : "s",
                NsPerNode(spec.node_num, parallel));
  }
}

TEST(ExecutorOverhead, PrintsHostCostPerNodeOfAChainAndOfIndependentNodes) {
  DagSpec chain{1000, {}, std::vector<int64_t>(1000, 1)};
  for (uint32_t i = 0; i + 1 < 1000; ++i) chain.edges.push_back({i, i + 1});
  PrintOverheads("a chain", chain);
  PrintOverheads("independent", DagSpec{1000, {}, std::vector<int64_t>(1000, 1)});
}

}  // namespace
}  // namespace ge::test
