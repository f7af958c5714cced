// ge-bench-executor: the host cost per node of each v2 executor, on 1000
// nodes that do nothing, for a chain and for independent nodes. A benchmark,
// not a test: its figures depend on the machine and its load
// (scripts/bench_executor_overhead.sh runs it; docs/benchmarks.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "v2/executor_thread_pool.h"
#include "v2/run_limits.h"
#include "v2/topological_executor.h"

namespace {

int CountRun(void* context) {
  ++*static_cast<size_t*>(context);
  return 0;
}

// Nanoseconds per node over `runs` runs of `run`, after a warm-up; exits
// when a run reports a failing node (none of these nodes can fail).
template <typename F>
double NsPerNode(size_t node_num, int runs, F run) {
  for (int i = 0; i < 10; ++i) run();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i)
    if (run() != -1) {
      std::fprintf(stderr, "ge-bench-executor: a run reported a failing node\n");
      std::exit(1);
    }
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  return took.count() / (static_cast<double>(runs) * static_cast<double>(node_num));
}

void PrintOverheads(const char* shape, size_t node_num, const std::vector<ge::v2::ExecEdge>& edges, int runs) {
  std::vector<size_t> counters(node_num, 0);
  std::vector<ge::v2::ExecNode> nodes;
  for (size_t& c : counters) nodes.push_back({CountRun, &c});
  auto plan = ge::v2::BuildTopologicalPlan(node_num, edges, std::vector<int64_t>(node_num, 1));
  if (!plan.ok()) {
    std::fprintf(stderr, "ge-bench-executor: %s\n", plan.status().ToString().c_str());
    std::exit(1);
  }
  const ge::v2::TopologicalExecutionData data = plan->Bind(nodes.data());
  ge::v2::TopologicalScratch scratch(node_num);
  std::printf("v2 executor overhead, %zu trivial nodes (%s), ns per node:\n", node_num, shape);
  const ge::v2::SequentialExecutionData seq{nodes.size(), nodes.data()};
  std::printf("  sequential           %7.1f\n",
              NsPerNode(node_num, runs, [&] { return ge::v2::SequentialExecute(&seq); }));
  std::printf("  topological          %7.1f\n",
              NsPerNode(node_num, runs, [&] { return ge::v2::TopologicalExecute(&data, &scratch); }));
  for (size_t threads : {1, 2, 4}) {
    auto pool = ge::v2::ExecutorThreadPool::Create(threads);
    if (!pool.ok()) {
      std::fprintf(stderr, "ge-bench-executor: %s\n", pool.status().ToString().c_str());
      std::exit(1);
    }
    auto parallel = [&] { return ge::v2::ParallelTopologicalExecute(&data, &scratch, pool->get()); };
    std::printf("  parallel, %zu thread%s  %7.1f\n", threads, threads == 1 ? " " : "s",
                NsPerNode(node_num, runs, parallel));
  }
}

// The sequential executor on bare nodes and on the same nodes behind the
// deadline guards a timeout installs (run_limits.h; a deadline an hour
// away, so each guard reads the clock and runs its node): 15 rounds of
// each, alternated, the medians.
void PrintGuardOverhead(size_t node_num, int runs) {
  std::vector<size_t> counters(node_num, 0);
  std::vector<ge::v2::ExecNode> bare, guarded;
  for (size_t& c : counters) bare.push_back({CountRun, &c});
  guarded = bare;
  ge::LoadOptions options;
  options.timeout = std::chrono::hours(1);
  ge::v2::RunLimits limits(options);
  limits.Start();
  ge::v2::RunState state;
  ge::v2::DeadlineGuards guards;
  guards.Install(guarded, std::vector<std::string>(node_num, "node"), limits, state);
  const ge::v2::SequentialExecutionData bare_data{bare.size(), bare.data()}, guarded_data{guarded.size(), guarded.data()};
  std::vector<double> without, with;
  for (int round = 0; round < 15; ++round) {
    without.push_back(NsPerNode(node_num, runs, [&] { return ge::v2::SequentialExecute(&bare_data); }));
    with.push_back(NsPerNode(node_num, runs, [&] { return ge::v2::SequentialExecute(&guarded_data); }));
  }
  auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  std::printf("sequential executor, %zu trivial nodes, median ns per node of 15 alternated rounds:\n", node_num);
  std::printf("  no timeout (bare)    %7.1f\n  timeout (guarded)    %7.1f\n", median(without), median(with));
}

}  // namespace

// ge-bench-executor [RUNS]: RUNS runs of each executor (default 2000).
int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 2000;
  if (runs < 1) {
    std::fprintf(stderr, "ge-bench-executor: RUNS must be a positive integer, got '%s'\n", argv[1]);
    return 2;
  }
  constexpr size_t kNodes = 1000;
  std::vector<ge::v2::ExecEdge> chain;
  for (uint32_t i = 0; i + 1 < kNodes; ++i) chain.push_back({i, i + 1});
  PrintOverheads("a chain", kNodes, chain, runs);
  PrintOverheads("independent", kNodes, {}, runs);
  PrintGuardOverhead(kNodes, runs);
  return 0;
}
