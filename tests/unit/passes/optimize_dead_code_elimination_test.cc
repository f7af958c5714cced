#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {

TEST(DeadCodeElimination, RemovesNodesWithoutPathToNetOutput) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* live = t.Op("Relu", "live", {x});
  Node* dead1 = t.Op("Neg", "dead1", {x});
  t.Op("Abs", "dead2", {dead1});
  t.Output({live});
  ASSERT_TRUE(t.RunPass(DeadCodeEliminationPass()).ok());
  EXPECT_EQ(t.g().FindNode("dead1"), nullptr);
  EXPECT_EQ(t.g().FindNode("dead2"), nullptr);
  EXPECT_NE(t.g().FindNode("live"), nullptr);
  EXPECT_EQ(t.g().num_nodes(), 3u);
}

TEST(DeadCodeElimination, KeepsUnusedModelInputsAndDeadConstsGo) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  t.Data("unused", F32({2}));
  t.Const("orphan", F32s({2}, {1, 2}));
  t.Output({t.Op("Relu", "r", {x})});
  ASSERT_TRUE(t.RunPass(DeadCodeEliminationPass()).ok());
  EXPECT_NE(t.g().FindNode("unused"), nullptr);  // part of the model's signature
  EXPECT_EQ(t.g().FindNode("orphan"), nullptr);
  EXPECT_EQ(t.g().InputNodes().size(), 2u);
}

TEST(DeadCodeElimination, DoesNotFireOnCannotBeDeletedOrControlPredecessors) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* keep = t.Op("Neg", "keep", {x}, {{"_cannot_be_deleted", true}});
  Node* before = t.Op("Abs", "before", {x});
  Node* r = t.Op("Relu", "r", {x});
  t.g().AddControlEdge(before, r);  // r must wait for it: it is live
  t.Output({r});
  ASSERT_TRUE(t.RunPass(DeadCodeEliminationPass()).ok());
  EXPECT_EQ(t.g().FindNode("keep"), keep);
  EXPECT_EQ(t.g().FindNode("before"), before);
  EXPECT_EQ(t.g().num_nodes(), 5u);
}

TEST(DeadCodeElimination, NothingToDoLeavesTheGraph) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  t.Output({t.Op("Relu", "r", {x})});
  ASSERT_TRUE(t.RunPass(DeadCodeEliminationPass()).ok());
  EXPECT_EQ(t.g().num_nodes(), 3u);
}

TEST(DeadCodeElimination, SameNumericsCompiled) {
  TinyGraph t;
  Node* x = t.Data("x", F32({6}));
  t.Op("Exp", "dead", {x});
  t.Output({t.Op("Sigmoid", "s", {x})});
  ExpectSameNumerics(t, {Iota(6)});
  auto r = CompileAndRun(t.Clone(), {Iota(6)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(CountType(*r->model.graph, "Exp"), 0);
}

}  // namespace
}  // namespace ge::test
