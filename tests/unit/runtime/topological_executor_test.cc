// The v2 topological plan and its single-thread executor: dependency order,
// the critical path first, failure, cycles, a random DAG.
#include "v2/topological_executor.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "tests/common/refusal.h"
#include "tests/unit/runtime/exec_graph_test_util.h"

namespace ge::test {
namespace {

using v2::ExecEdge;
using v2::ExecNode;

// Nodes that append their index to a shared order; `fail` fails.
struct OrderLog {
  explicit OrderLog(size_t node_num, long fail = -1) : contexts(node_num) {
    for (size_t i = 0; i < node_num; ++i) {
      contexts[i] = Entry{this, static_cast<uint32_t>(i), static_cast<long>(i) == fail};
      nodes.push_back(ExecNode{Record, &contexts[i]});
    }
  }
  struct Entry {
    OrderLog* log;
    uint32_t self;
    bool fail;
  };
  static int Record(void* context) {
    auto* e = static_cast<Entry*>(context);
    e->log->order.push_back(e->self);
    return e->fail ? 1 : 0;
  }
  std::vector<Entry> contexts;
  std::vector<ExecNode> nodes;
  std::vector<uint32_t> order;
};

std::vector<uint32_t> RunInOrder(size_t node_num, const std::vector<ExecEdge>& edges, const std::vector<int64_t>& costs,
                                 long* result = nullptr, long fail = -1) {
  v2::TopologicalPlan plan = MustPlan({node_num, edges, costs});
  OrderLog log(node_num, fail);
  v2::TopologicalScratch scratch;
  const v2::TopologicalExecutionData data = plan.Bind(log.nodes.data());
  const long r = v2::TopologicalExecute(&data, &scratch);
  if (result != nullptr) *result = r;
  return log.order;
}

const std::vector<ExecEdge> kDiamond{{0, 1}, {0, 2}, {1, 3}, {2, 3}};

TEST(TopologicalExecute, DiamondRunsInDependencyOrderTiesByIndex) {
  long r = 0;
  EXPECT_EQ(RunInOrder(4, kDiamond, {1, 1, 1, 1}, &r), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(r, -1);
}

TEST(TopologicalExecute, DiamondTakesTheCostlierBranchFirst) {
  EXPECT_EQ(RunInOrder(4, kDiamond, {1, 1, 5, 1}), (std::vector<uint32_t>{0, 2, 1, 3}));
}

TEST(TopologicalPlan, PrioritiesAreTheLongestCostWeightedPathToASink) {
  // Chain 0 -> 1 and chain 2 -> 3 -> 4, unit costs; 5 alone but costly.
  auto plan = v2::BuildTopologicalPlan(6, {{0, 1}, {2, 3}, {3, 4}}, {1, 1, 1, 1, 1, 10});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->priority, (std::vector<int64_t>{2, 1, 3, 2, 1, 10}));
  EXPECT_EQ(plan->in_degree, (std::vector<uint32_t>{0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(plan->succ_begin, (std::vector<uint32_t>{0, 1, 1, 2, 3, 3, 3}));
  EXPECT_EQ(plan->succ, (std::vector<uint32_t>{1, 3, 4}));
}

TEST(TopologicalExecute, CriticalPathRunsFirst) {
  // Sources 0 (a chain of 2) and 2 (a chain of 3): the longer chain leads,
  // and the costly lone node 5 goes before both.
  EXPECT_EQ(RunInOrder(6, {{0, 1}, {2, 3}, {3, 4}}, {1, 1, 1, 1, 1, 10}), (std::vector<uint32_t>{5, 2, 0, 3, 1, 4}));
  // A long cheap chain 0..3 (4 in all) leads an expensive node 4 (3, then a
  // free 5): the path decides, not the node's own cost.
  EXPECT_EQ(RunInOrder(6, {{0, 1}, {1, 2}, {2, 3}, {4, 5}}, {1, 1, 1, 1, 3, 0}),
            (std::vector<uint32_t>{0, 1, 4, 2, 3, 5}));
}

TEST(TopologicalExecute, FailureReturnsTheNodeAndStartsNothingAfter) {
  // Chain 0 -> 1 -> 2, and 3 alone with the lowest priority: 1 fails.
  long r = 0;
  EXPECT_EQ(RunInOrder(4, {{0, 1}, {1, 2}}, {5, 5, 5, 1}, &r, /*fail=*/1), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(r, 1);
}

TEST(TopologicalExecute, EmptyPlanSucceeds) {
  v2::TopologicalPlan plan = MustPlan({0, {}, {}});
  v2::TopologicalScratch scratch;
  const v2::TopologicalExecutionData data = plan.Bind(nullptr);
  EXPECT_EQ(v2::TopologicalExecute(&data, &scratch), -1);
}

TEST(TopologicalPlan, CycleIsRejectedNamingANodeOnIt) {
  // 3 -> 0 -> 1 -> 2 -> 1: 0 and 3 lead into the cycle but are not on it.
  auto plan = v2::BuildTopologicalPlan(5, {{3, 0}, {0, 1}, {1, 2}, {2, 1}, {2, 4}}, {1, 1, 1, 1, 1});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  const std::string& m = plan.status().message();
  EXPECT_TRUE(m.find("1 -> 2 -> 1") != std::string::npos || m.find("2 -> 1 -> 2") != std::string::npos) << m;
  EXPECT_NE(m.find("is on a cycle"), std::string::npos) << m;

  auto self = v2::BuildTopologicalPlan(3, {{0, 1}, {2, 2}}, {1, 1, 1});
  ASSERT_TRUE(Refused(self, StatusCode::kInvalidArgument, "node 2 is on a cycle (2 -> 2"));
}

TEST(TopologicalPlan, BadEdgesAndCostsAreRejected) {
  auto edge = v2::BuildTopologicalPlan(2, {{0, 2}}, {1, 1});
  ASSERT_TRUE(Refused(edge, StatusCode::kInvalidArgument, "edge 0 (0 -> 2)"));
  auto count = v2::BuildTopologicalPlan(2, {}, {1});
  ASSERT_TRUE(Refused(count, StatusCode::kInvalidArgument, "1 costs for 2 nodes"));
  auto negative = v2::BuildTopologicalPlan(2, {}, {1, -1});
  ASSERT_TRUE(Refused(negative, StatusCode::kInvalidArgument, "node 1 has a negative cost"));
  const int64_t big = std::numeric_limits<int64_t>::max() / 2 + 1;
  auto overflow = v2::BuildTopologicalPlan(2, {{0, 1}}, {big, big});
  ASSERT_TRUE(Refused(overflow, StatusCode::kInvalidArgument, "node 0's path cost overflows"));
}

TEST(TopologicalExecute, RandomDagOf2000NodesRunsEachAfterItsPredecessors) {
  CheckedRandomDag g(2000, 11);
  for (int run = 0; run < 3; ++run) {  // the scratch is reused
    ASSERT_EQ(v2::TopologicalExecute(&g.data, &g.scratch), -1);
    g.dag.ExpectRunComplete();
  }
}

}  // namespace
}  // namespace ge::test
