// hccl_memcpy (reference 3.1.1 / 3.1.2): which inputs of a collective get an
// Identity, the Broadcast write-back, the skip mark, and what is left alone.
#include "tests/unit/passes/memory_conflict_test_util.h"

namespace ge::test {
namespace {

TEST(HcclMemcpy, ConstInputIsAlwaysIsolatedAndTheNodeMarked) {
  TinyGraph t;
  Node* ar = t.Op("HcomBroadcast", "bc", {t.Const("c", F32s({2}, {1, 2}))});
  t.Output({ar});
  ASSERT_TRUE(t.RunPass(HcclMemcpyPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
  EXPECT_TRUE(ar->GetBool(kAttrSkipRwConflict));
}

TEST(HcclMemcpy, BroadcastOfAVariableIsWrittenBackWithAssign) {
  TinyGraph t;
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
  Node* bc = t.Op("HcomBroadcast", "bc", {var});
  t.Output({bc});
  ASSERT_TRUE(t.RunPass(HcclMemcpyPass()).ok());
  Node* id = IsolationBefore(bc, 0);
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->InputNode(0), var);
  Node* back = t.Find("Assign");
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->InputNode(0), var);
  EXPECT_EQ(back->InputNode(1), bc);
  EXPECT_TRUE(back->GetBool(kAttrCannotBeDeleted));
}

TEST(HcclMemcpy, AnUnorderedSiblingGetsACopyAnOrderedOneAndShapeSiblingsDoNot) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* a = t.Op("Relu", "a", {x});
  Node* sib = t.Op("Neg", "sib", {a});  // may run after the collective
  Node* ar = t.Op("HcomAllReduce", "ar", {a});
  t.Output({ar, sib});
  ASSERT_TRUE(t.RunPass(HcclMemcpyPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);

  TinyGraph o;
  Node* xo = o.Data("x", F32({2}));
  Node* ao = o.Op("Relu", "a", {xo});
  Node* first = o.Op("Neg", "first", {ao});
  Node* aro = o.Op("HcomAllReduce", "ar", {ao});
  o.g().AddControlEdge(first, aro);  // reads before the write
  o.Output({aro, first});
  ASSERT_TRUE(o.RunPass(HcclMemcpyPass()).ok());
  EXPECT_EQ(o.Count("Identity"), 0);

  TinyGraph u;
  Node* y = u.Data("y", F32({2}));
  Node* b = u.Op("Relu", "b", {y});
  Node* shape = u.Op("Shape", "shape", {b});
  Node* ar2 = u.Op("HcomBroadcast", "ar2", {b});
  u.Output({ar2, shape});
  ASSERT_TRUE(u.RunPass(HcclMemcpyPass()).ok());
  EXPECT_EQ(u.Count("Identity"), 0);
  EXPECT_TRUE(ar2->GetBool(kAttrSkipRwConflict));
}

TEST(HcclMemcpy, ContinuousInputFromAModelInputIsIsolated) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* ar = t.Op("HcomAllReduce", "ar", {x});
  Node* bc = t.Op("HcomBroadcast", "bc", {t.Data("z", F32({2}))});  // no continuous input: left alone
  t.Output({ar, bc});
  ASSERT_TRUE(t.RunPass(HcclMemcpyPass()).ok());
  EXPECT_NE(IsolationBefore(ar, 0), nullptr);
  EXPECT_EQ(IsolationBefore(bc, 0), nullptr);
}

TEST(HcclMemcpy, TheMarkKeepsRwConflictFromIsolatingTwice) {
  TinyGraph t;
  Node* ar = t.Op("HcomAllReduce", "ar", {t.Const("c", F32s({2}, {1, 2}))});
  t.Output({ar});
  ASSERT_TRUE(t.RunPass(HcclMemcpyPass()).ok());
  ASSERT_TRUE(t.RunPass(RwConflictPass()).ok());
  EXPECT_EQ(t.Count("Identity"), 1);
}

TEST(HcclMemcpy, CompiledAndRunTheBroadcastWriteBackKeepsValues) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* var = t.Op("Variable", "var", {t.Const("init", F32s({2}, {1, 2}))});
  Node* bc = t.Op("HcomBroadcast", "bc", {var});
  t.Output({t.Op("Add", "y", {bc, x})});
  auto r = CompileAndRun(t.Clone(), {{10, 20}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->outputs[0], (Floats{11, 22}));
  EXPECT_EQ(r->counts["Assign"], 1);
}

}  // namespace
}  // namespace ge::test
