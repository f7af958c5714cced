#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {

TEST(Cse, MergesIdenticalNodesAndCascades) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* c = t.Const("c", F32s({4}, {1, 2, 3, 4}));
  Node* r1 = t.Op("Relu", "r1", {x});
  Node* r2 = t.Op("Relu", "r2", {x});
  Node* a1 = t.Op("Add", "a1", {r1, c});
  Node* a2 = t.Op("Add", "a2", {r2, c});  // identical once r2 is r1
  t.Output({t.Op("Mul", "m", {a1, a2})});
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  EXPECT_EQ(t.Count("Relu"), 1);
  EXPECT_EQ(t.Count("Add"), 1);
  Node* m = t.g().FindNode("m");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->InputNode(0), m->InputNode(1));
}

TEST(Cse, MergesConstantsWithEqualBytesOnly) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* c1 = t.Const("c1", F32s({2}, {1, 2}));
  Node* c2 = t.Const("c2", F32s({2}, {1, 2}));
  Node* c3 = t.Const("c3", F32s({2}, {1, 3}));  // same desc, other bytes
  Node* a = t.Op("Add", "a", {x, c1});
  Node* b = t.Op("Add", "b", {x, c2});
  Node* d = t.Op("Add", "d", {x, c3});
  t.Output({t.Op("Concat", "cat", {a, b, d}, {{"axis", int64_t{0}}})});
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  EXPECT_EQ(t.Count(op::kConst), 2);
  EXPECT_EQ(t.Count("Add"), 2);
  EXPECT_NE(t.g().FindNode("d"), nullptr);
}

TEST(Cse, DoesNotMergeDifferentAttrsOrInputs) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* y = t.Data("y", F32({4}));
  Node* l1 = t.Op("LeakyRelu", "l1", {x}, {{"alpha", 0.1f}});
  Node* l2 = t.Op("LeakyRelu", "l2", {x}, {{"alpha", 0.2f}});
  Node* s1 = t.Op("Sub", "s1", {x, y});
  Node* s2 = t.Op("Sub", "s2", {y, x});  // input order matters
  Node* a = t.Op("Add", "a", {l1, l2});
  Node* b = t.Op("Add", "b", {s1, s2});
  t.Output({t.Op("Mul", "m", {a, b})});
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  EXPECT_EQ(t.Count("LeakyRelu"), 2);
  EXPECT_EQ(t.Count("Sub"), 2);
  EXPECT_EQ(t.Count("Add"), 2);
}

TEST(Cse, DoesNotMergeCannotBeDeletedNodes) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* r1 = t.Op("Relu", "r1", {x}, {{"_cannot_be_deleted", true}});
  Node* r2 = t.Op("Relu", "r2", {x}, {{"_cannot_be_deleted", true}});
  t.Output({t.Op("Add", "a", {r1, r2})});
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  EXPECT_EQ(t.Count("Relu"), 2);
}

TEST(Cse, KeepsTwoModelOutputsDistinct) {
  // Merging would make one tensor two outputs (see CanRedirect).
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  t.Output({t.Op("Relu", "r1", {x}), t.Op("Relu", "r2", {x})}, {"a", "b"});
  ASSERT_TRUE(t.RunPass(CsePass()).ok());
  EXPECT_EQ(t.Count("Relu"), 2);
}

TEST(Cse, SameNumericsAndOutputNameCompiled) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* c = t.Const("c", F32s({4}, {0.5f, -1, 2, 3}));
  Node* c2 = t.Const("c2", F32s({4}, {0.5f, -1, 2, 3}));
  Node* e1 = t.Op("Mul", "e1", {x, c});
  Node* e2 = t.Op("Mul", "e2", {x, c2});
  Node* s = t.Op("Add", "s", {e1, e2});
  t.Output({s, e2});  // e2 is merged into e1, its output keeps the name "e2"
  ExpectSameNumerics(t, {Iota(4)});
  auto r = CompileAndRun(t.Clone(), {Iota(4)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->model.outputs.size(), 2u);
  EXPECT_EQ(r->model.outputs[0].name, "s");
  EXPECT_EQ(r->model.outputs[1].name, "e2");
}

}  // namespace
}  // namespace ge::test
