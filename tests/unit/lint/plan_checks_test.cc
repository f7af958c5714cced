// ge-lint's plan checks on a compiled tiny model: clean as compiled; two
// live buffers moved onto one address are E18003 naming both producers (and
// not also E18002); a wait that can never be satisfied is E18004; a task
// dropped is E18002. The runner on a compiled model runs the graph checks too.
#include "ge/lint/plan_checks.h"

#include <algorithm>

#include "ge/lint/lint.h"
#include "ge/plan/verify.h"
#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

// x -> a = Relu(x), b = Neg(x) -> Add(a, b): a and b are alive together.
Model Compiled() {
  TinyGraph t;
  Node* x = t.Data("x", F32({64}));
  Node* a = t.Op("Relu", "a", {x});
  Node* b = t.Op("Neg", "b", {x});
  Node* s = t.Op("Add", "s", {a, b});
  t.Output({t.Op("Mul", "m", {s, a})});
  CompileOptions co;
  co.model_name = "tiny";
  co.buffer_reuse = false;  // every tensor its own memory: moving one moves only it
  auto m = Compile(t.Clone(), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m).value();
}

std::vector<std::string> Codes(const lint::Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d) out.push_back(x.code);
  return out;
}

// Moves tensor node:0 to `to`, and every task argument that pointed at it.
void Move(Model& m, const std::string& node, int64_t to) {
  for (BufferPlan& b : m.memory.buffers)
    if (b.node == node && b.output == 0) {
      const Segment seg = b.segment;
      const int64_t from = b.offset;
      b.offset = to;
      for (StreamTasks& st : m.streams)
        for (Task& t : st.tasks)
          for (auto* args : {&t.inputs, &t.outputs})
            for (TaskArg& a : *args)
              if (a.segment == seg && a.offset == from) a.offset = to;
      return;
    }
  ADD_FAILURE() << "no buffer for " << node;
}

const BufferPlan* Buffer(const Model& m, const std::string& node) {
  for (const BufferPlan& b : m.memory.buffers)
    if (b.node == node && b.output == 0) return &b;
  return nullptr;
}

TEST(LintPlanChecks, ACompiledModelIsClean) {
  const Model m = Compiled();
  EXPECT_EQ(Codes(lint::LintModel(m)), std::vector<std::string>{});
  auto overlaps = FindMemoryOverlaps(m);
  ASSERT_TRUE(overlaps.ok()) << overlaps.status().ToString();
  EXPECT_TRUE(overlaps->empty());
  auto cycle = FindWaitCycle(m.streams);
  ASSERT_TRUE(cycle.ok());
  EXPECT_TRUE(cycle->empty());
}

TEST(LintPlanChecks, TwoLiveBuffersAtOneAddressAreE18003) {
  Model m = Compiled();
  const BufferPlan* a = Buffer(m, "a");
  const BufferPlan* b = Buffer(m, "b");
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->segment, b->segment);
  Move(m, "b", a->offset);
  EXPECT_TRUE(
      Refused(VerifyModel(m), StatusCode::kCorrupt, "model check: tensor a:0 at feature_map+0 and tensor b:0 at"));
  const lint::Diagnostics d = lint::LintModel(m);
  ASSERT_EQ(Codes(d), std::vector<std::string>{"E18003"}) << (d.empty() ? "" : d[0].message);
  EXPECT_EQ(d[0].severity, lint::Severity::kError);
  EXPECT_EQ(d[0].nodes.size(), 2u);
  EXPECT_TRUE((d[0].nodes == std::vector<std::string>{"a", "b"} || d[0].nodes == std::vector<std::string>{"b", "a"}));
  EXPECT_NE(d[0].message.find("overlap in memory"), std::string::npos) << d[0].message;
}

TEST(LintPlanChecks, AWaitNobodyCanSatisfyIsE18004) {
  Model m = Compiled();
  ASSERT_EQ(m.streams.size(), 1u);
  auto& tasks = m.streams[0].tasks;
  ASSERT_FALSE(tasks.empty());
  Task wait;
  wait.kind = Task::Kind::kEventWait;
  wait.event = 0;
  wait.kernel = -1;
  wait.node = tasks.front().node;
  Task record = wait;
  record.kind = Task::Kind::kEventRecord;
  record.node = tasks.back().node;
  tasks.insert(tasks.begin(), wait);
  tasks.push_back(record);
  auto cycle = FindWaitCycle(m.streams);
  ASSERT_TRUE(cycle.ok());
  ASSERT_EQ(cycle->size(), 1u);
  EXPECT_EQ((*cycle)[0].index, 0);
  EXPECT_EQ((*cycle)[0].event, 0);
  const lint::Diagnostics d = lint::LintModel(m);
  ASSERT_EQ(Codes(d), std::vector<std::string>{"E18004"});
  EXPECT_NE(d[0].message.find("waits for event 0"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[0].nodes, std::vector<std::string>{wait.node});
}

TEST(LintPlanChecks, ADroppedTaskIsE18002) {
  Model m = Compiled();
  m.streams[0].tasks.pop_back();
  const lint::Diagnostics d = lint::LintModel(m);
  ASSERT_EQ(Codes(d), std::vector<std::string>{"E18002"});
  EXPECT_NE(d[0].message.find("has no task"), std::string::npos) << d[0].message;
}

TEST(LintPlanChecks, GraphChecksRunOnTheCompiledGraph) {
  Model m = Compiled();
  m.graph->AddNode(op::kNetOutput, "second_out", 0, 0);
  const auto codes = Codes(lint::LintModel(m));
  ASSERT_FALSE(codes.empty());
  EXPECT_EQ(codes[0], "E18001");
  // E18002 does not repeat what E18001 says.
  EXPECT_EQ(std::count(codes.begin(), codes.end(), "E18002"), 0);
}

}  // namespace
}  // namespace ge::test
