// memory_layout_conflict (reference 3.3): the Identity goes on the side the
// rule names, is marked like every isolation copy, and leaves no conflict;
// graphs without conflicts are left alone. GraphLint E18005 reports what the
// pass would resolve and nothing after it.
#include "ge/lint/layout_checks.h"
#include "tests/unit/conflicts/layout_test_ops.h"
#include "tests/unit/passes/memory_conflict_test_util.h"

namespace ge::test {
namespace {

void ExpectMarked(const Node* id) {
  ASSERT_NE(id, nullptr);
  EXPECT_TRUE(id->GetBool(kAttrCannotBeDeleted));
  EXPECT_TRUE(id->GetBool(kAttrNoConstantFolding));
  EXPECT_TRUE(id->GetBool(kAttrMemoryIsolation));
}

TEST(MemoryLayoutConflict, UserInputAndUnrefreshOutputCopiesOnTheUnrefreshSide) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* v = t.Op("Identity", "v", {x}, {Unrefresh()});
  Node* y = t.Relu("y", v);
  t.Output({y});
  ASSERT_TRUE(t.RunPass(LayoutConflictPass()).ok());
  Node* id = IsolationBefore(v, 0);
  ExpectMarked(id);
  EXPECT_EQ(id->InputNode(0), x);
  EXPECT_EQ(t.Count("Identity"), 2);  // v and the copy
  EXPECT_TRUE(LayoutConflictsOf(t.g()).empty()) << Dump(LayoutConflictsOf(t.g()));
}

TEST(MemoryLayoutConflict, ConstantAsModelOutputCopiesBeforeNetOutput) {
  LayoutGraph t;
  Node* w = t.Weight("w");
  Node* out = t.Output({t.Relu("a", t.In("x")), w});
  ASSERT_TRUE(t.RunPass(LayoutConflictPass()).ok());
  Node* id = IsolationBefore(out, 1);
  ExpectMarked(id);
  EXPECT_EQ(id->InputNode(0), w);
  EXPECT_EQ(out->InputNode(0)->type(), "Relu");
  EXPECT_TRUE(LayoutConflictsOf(t.g()).empty());
}

TEST(MemoryLayoutConflict, SwappedContinuousBlockCopiesTheConsumersInputs) {
  LayoutGraph t;
  Node* s = t.Op("TestContOut", "s", {t.Relu("a", t.In("x"))}, {}, 2);
  Node* c = t.Op("TestContIn", "c", {nullptr, s});
  ASSERT_TRUE(t.Edge(s, 1, c, 0).ok());
  t.Output({t.Relu("y", c)});
  ASSERT_TRUE(t.RunPass(LayoutConflictPass(/*continuous=*/true)).ok());
  ExpectMarked(IsolationBefore(c, 0));
  ExpectMarked(IsolationBefore(c, 1));
  EXPECT_EQ(t.Count("Identity"), 2);
  EXPECT_TRUE(LayoutConflictsOf(t.g()).empty());
}

TEST(MemoryLayoutConflict, ContinuousRulesWaitForPlansThatLayBlocksOut) {
  // Concat declares continuous input (GE's semantics) but ge's kernel
  // copies and the planner places each input alone: by default a constant
  // into a Concat gets no copy; with the continuous rules on it does.
  for (bool continuous : {false, true}) {
    LayoutGraph t;
    Node* c = t.Op("Concat", "c", {t.Relu("a", t.In("x")), t.Weight("w")}, {{"axis", int64_t{0}}});
    t.Output({c});
    ASSERT_TRUE(t.RunPass(LayoutConflictPass(continuous)).ok());
    EXPECT_EQ(IsolationBefore(c, 1) != nullptr, continuous);
    EXPECT_EQ(t.Count("Identity"), continuous ? 1 : 0);
  }
  EXPECT_FALSE(analysis::kPlansLayOutContinuousBlocks);
}

TEST(MemoryLayoutConflict, OneCopyResolvesEveryPairItSeparates) {
  // x is read by an RTS-special input and an unrefresh input: two
  // always-conflicting pairs, two copies, then nothing left.
  LayoutGraph t;
  Node* x = t.In("x");
  Node* a = t.Relu("a", x, {InType({2})});
  Node* b = t.Relu("b", x, {Unrefresh()});
  t.Output({t.Op("Add", "s", {a, b})});
  ASSERT_TRUE(t.RunPass(LayoutConflictPass()).ok());
  ExpectMarked(IsolationBefore(a, 0));
  ExpectMarked(IsolationBefore(b, 0));
  EXPECT_TRUE(LayoutConflictsOf(t.g()).empty());
}

TEST(MemoryLayoutConflict, NothingToDoLeavesTheGraphAlone) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* a = t.Relu("a", x);
  Node* v = t.Op("Identity", "v", {a});
  t.Output({t.Op("TestContIn", "c", {v}), t.Op("Add", "s", {x, t.Weight("w")}), x});
  const size_t before = t.g().num_nodes();
  ASSERT_TRUE(t.RunPass(LayoutConflictPass()).ok());
  EXPECT_EQ(t.g().num_nodes(), before);
}

TEST(MemoryLayoutConflict, ItIsSwitchableAndInTheMemoryStageAfterRw) {
  const auto names = StagePassNames("memory");
  auto rw = std::find(names.begin(), names.end(), "memory_rw_conflict");
  auto layout = std::find(names.begin(), names.end(), "memory_layout_conflict");
  ASSERT_NE(rw, names.end());
  ASSERT_NE(layout, names.end());
  EXPECT_EQ(layout, rw + 1);
}

TEST(MemoryLayoutConflict, InsideASubgraphTheBoundaryIsNotUserMemory) {
  // A branch returning a constant: in the root graph a conflict, in a
  // subgraph not (sink mode's link-time copies own the boundary).
  LayoutGraph t;
  Node* x = t.In("x");
  auto branch = std::make_shared<Graph>("then");
  Node* w = branch->AddNode(op::kConst, "w", 0, 1);
  Tensor value = Tensor::FromVector<float>(DataType::kFloat32, {2, 3}, {1, 2, 3, 4, 5, 6});
  w->output_desc(0) = value.desc();
  w->SetAttr("value", value);
  Node* bout = branch->AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(branch->AddEdge(w, 0, bout, 0).ok());
  Node* holder = t.Op("PartitionedCallHolder", "holder", {x});
  holder->output_desc(0) = x->output_desc(0);
  holder->subgraphs()["then"] = branch;
  t.Output({t.Relu("y", x)});
  ASSERT_TRUE(LayoutConflictPass().run(t.g(), PassContext{}).ok());
  EXPECT_EQ(branch->num_nodes(), 2u);
}

TEST(GraphLintLayout, ReportsEachConflictAsAnErrorNamingBothNodes) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* v = t.Op("Identity", "v", {t.Relu("a", x)});
  t.Output({t.Relu("r", v, {InType({2})}), t.Weight("w")});
  ASSERT_TRUE(t.Infer().ok());
  lint::Diagnostics d;
  lint::CheckLayoutConflicts(t.g(), &d);
  ASSERT_EQ(d.size(), 1u);  // w into the user's output; v's symbol has no conflict
  EXPECT_EQ(d[0].code, "E18005");
  EXPECT_EQ(d[0].severity, lint::Severity::kError);
  EXPECT_EQ(d[0].nodes, (std::vector<std::string>{"out", "w"}));
  EXPECT_NE(d[0].message.find("USER_MEMORY_OUTPUT"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("IMMUTABLE_ADDRESS_OUTPUT"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("user_out_and_immutable_out_checker"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("out.in1"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("w:0"), std::string::npos) << d[0].message;
}

TEST(GraphLintLayout, NothingAfterThePass) {
  LayoutGraph t;
  Node* x = t.In("x");
  Node* c = t.Relu("c", x, {InType({2})});
  t.Output({c, t.Weight("w")});
  ASSERT_TRUE(t.Infer().ok());
  lint::Diagnostics before;
  lint::CheckLayoutConflicts(t.g(), &before);
  EXPECT_EQ(before.size(), 2u);
  ASSERT_TRUE(t.RunPass(LayoutConflictPass()).ok());
  lint::Diagnostics after;
  lint::CheckLayoutConflicts(t.g(), &after);
  EXPECT_TRUE(after.empty()) << after[0].message;
}

TEST(GraphLintLayout, ContinuousConflictsAreNotReportedWhilePlansDoNotLayBlocksOut) {
  LayoutGraph t;
  Node* x = t.In("x");
  t.Output({t.Op("TestContIn", "c", {x, t.Relu("b", x)})});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(LayoutConflictsOf(t.g()).size(), 1u);  // the analysis classifies it
  lint::Diagnostics d;
  lint::CheckLayoutConflicts(t.g(), &d);
  EXPECT_TRUE(d.empty()) << d[0].message;
}

TEST(GraphLintLayout, CompiledModelsHaveNoConflictLeft) {
  // Compile() runs the pass: a graph with conflicts compiles, runs, and the
  // graph it leaves has none.
  LayoutGraph t;
  Node* x = t.In("x");
  Node* a = t.Relu("a", x);
  t.Output({t.Op("Add", "s", {a, t.Weight("w")}), t.Weight("w2")});
  auto m = Compile(t.Clone(), CompileOptions{});
  ASSERT_TRUE(m.ok()) << m.status().message();
  lint::Diagnostics d;
  lint::CheckLayoutConflicts(*m->graph, &d);
  EXPECT_TRUE(d.empty()) << d[0].message;
  auto r = CompileAndRun(t.Clone(), {Floats{-1, 2, -3, 4, -5, 6}});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->outputs.size(), 2u);
  EXPECT_EQ(r->outputs[0], (Floats{1, 4, 3, 8, 5, 12}));
  EXPECT_EQ(r->outputs[1], (Floats{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace ge::test
