// Graphs for the v2 executor tests: random DAGs whose nodes check, as they
// run, that every predecessor ran in this run and they did not yet; and
// trivial nodes for the overhead figures.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <vector>

#include "v2/topological_executor.h"

namespace ge::test {

struct DagSpec {
  size_t node_num = 0;
  std::vector<v2::ExecEdge> edges;
  std::vector<int64_t> costs;
};

// `node_num` nodes in a random order (not their numbering), each with up to
// four predecessors among the 64 before it, random costs.
inline DagSpec RandomDag(size_t node_num, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> order(node_num);
  for (uint32_t i = 0; i < node_num; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  DagSpec d{node_num, {}, {}};
  for (size_t b = 1; b < node_num; ++b) {
    const size_t window = std::min<size_t>(b, 64);
    for (unsigned k = rng() % 5; k > 0; --k) d.edges.push_back({order[b - 1 - rng() % window], order[b]});
  }
  for (size_t i = 0; i < node_num; ++i) d.costs.push_back(rng() % 100);
  return d;
}

// The nodes of a DagSpec, checking their order in every run. Safe on several
// threads: everything a node reads or writes is atomic.
class CheckedDag {
 public:
  explicit CheckedDag(const DagSpec& spec) : preds_(spec.node_num), runs_(new std::atomic<uint32_t>[spec.node_num]) {
    for (const v2::ExecEdge& e : spec.edges) preds_[e.to].push_back(e.from);
    contexts_.resize(spec.node_num);
    for (uint32_t i = 0; i < spec.node_num; ++i) {
      runs_[i] = 0;
      contexts_[i] = Context{this, i};
      nodes_.push_back(v2::ExecNode{Run, &contexts_[i]});
    }
  }
  const v2::ExecNode* nodes() const { return nodes_.data(); }
  // Call after each run: every node ran once more, none out of order.
  void ExpectRunComplete() {
    ++completed_;
    EXPECT_EQ(violations_.load(), 0u) << "nodes ran before a predecessor or twice";
    for (size_t i = 0; i < nodes_.size(); ++i) ASSERT_EQ(runs_[i].load(), completed_) << "node " << i << " was lost";
  }

 private:
  struct Context {
    CheckedDag* dag;
    uint32_t self;
  };
  static int Run(void* context) {
    auto* c = static_cast<Context*>(context);
    CheckedDag& d = *c->dag;
    for (uint32_t p : d.preds_[c->self])
      if (d.runs_[p].load() != d.completed_ + 1) ++d.violations_;
    if (d.runs_[c->self].fetch_add(1) != d.completed_) ++d.violations_;
    return 0;
  }

  std::vector<std::vector<uint32_t>> preds_;
  std::unique_ptr<std::atomic<uint32_t>[]> runs_;
  std::atomic<uint32_t> violations_{0};
  uint32_t completed_ = 0;  // runs finished; written between runs only
  std::vector<Context> contexts_;
  std::vector<v2::ExecNode> nodes_;
};

inline v2::TopologicalPlan MustPlan(const DagSpec& spec) {
  auto plan = v2::BuildTopologicalPlan(spec.node_num, spec.edges, spec.costs);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  return plan.ok() ? std::move(plan).value() : v2::TopologicalPlan{};
}

// A random DAG ready to run: plan, checked nodes, execution data, scratch.
struct CheckedRandomDag {
  CheckedRandomDag(size_t node_num, unsigned seed)
      : spec(RandomDag(node_num, seed)),
        plan(MustPlan(spec)),
        dag(spec),
        data(plan.Bind(dag.nodes())),
        scratch(node_num) {}
  const DagSpec spec;
  const v2::TopologicalPlan plan;
  CheckedDag dag;
  const v2::TopologicalExecutionData data;
  v2::TopologicalScratch scratch;
};

}  // namespace ge::test
