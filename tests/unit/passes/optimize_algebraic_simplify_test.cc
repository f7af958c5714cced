#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {


TEST(AlgebraicSimplify, RemovesIdentityAndNoOpMovement) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* id = t.Op("Identity", "id", {x});
  Node* rs = t.Op("Reshape", "rs", {id, t.Const("s", I64s({2, 3}))});
  Node* tr = t.Op("Transpose", "tr", {rs}, {{"perm", Dims{0, 1}}});
  Node* ca = t.Op("Cast", "ca", {tr}, {{"to", int64_t{1}}});  // f32 -> f32
  Node* fl = t.Op("Flatten", "fl", {ca}, {{"axis", int64_t{1}}});
  t.Output({t.Op("Relu", "y", {fl})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  for (const char* type : {"Identity", "Reshape", "Transpose", "Cast", "Flatten"}) EXPECT_EQ(t.Count(type), 0) << type;
  EXPECT_EQ(t.g().FindNode("y")->InputNode(0), x);
  EXPECT_EQ(t.Count(op::kConst), 0);  // the shape operand went with its Reshape
}

TEST(AlgebraicSimplify, KeepsReshapeCastAndTransposeThatChangeSomething) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* rs = t.Op("Reshape", "rs", {x, t.Const("s", I64s({3, 2}))});
  Node* tr = t.Op("Transpose", "tr", {rs}, {{"perm", Dims{1, 0}}});
  Node* ca = t.Op("Cast", "ca", {tr}, {{"to", int64_t{11}}});  // f32 -> f64
  t.Output({ca});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.Count("Reshape"), 1);
  EXPECT_EQ(t.Count("Transpose"), 1);
  EXPECT_EQ(t.Count("Cast"), 1);
}

TEST(AlgebraicSimplify, RemovesDropoutUnlessItsMaskIsUsed) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* d0 = t.Op("Dropout", "d0", {x});
  Node* cl = t.Op("CastLike", "cl", {d0, t.Data("like", F32({1}))});  // f32 like f32
  Node* d1 = t.Op("Dropout", "d1", {cl}, {}, 2);  // y and the mask
  t.Output({t.Op("Relu", "y", {d1})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.g().FindNode("d0"), nullptr);
  EXPECT_EQ(t.g().FindNode("cl"), nullptr);
  EXPECT_NE(t.g().FindNode("d1"), nullptr);
  EXPECT_EQ(t.g().FindNode("d1")->InputNode(0), x);
}

TEST(AlgebraicSimplify, PadAndSliceOnlyWhenTheyDoNothing) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* p0 = t.Op("Pad", "p0", {x, t.Const("z", I64s({0, 0, 0, 0}))});
  Node* p1 = t.Op("Pad", "p1", {p0, t.Const("one", I64s({0, 1, 0, 1}))});  // [2,6]
  Node* s0 = t.Op("Slice", "s0", {p1, t.Const("st", I64s({0})), t.Const("en", I64s({100})), t.Const("axs", I64s({1}))});
  Node* s1 = t.Op("Slice", "s1", {s0, t.Const("st1", I64s({1})), t.Const("en1", I64s({5})), t.Const("axs1", I64s({1}))});
  // Same length but reversed: not a no-op.
  Node* s2 = t.Op("Slice", "s2", {s1, t.Const("st2", I64s({-1})), t.Const("en2", I64s({-100})),
                                  t.Const("axs2", I64s({1})), t.Const("sp2", I64s({-1}))});
  t.Output({s2});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.g().FindNode("p0"), nullptr);
  EXPECT_EQ(t.g().FindNode("s0"), nullptr);
  EXPECT_NE(t.g().FindNode("p1"), nullptr);
  EXPECT_NE(t.g().FindNode("s1"), nullptr);
  EXPECT_NE(t.g().FindNode("s2"), nullptr);
  ExpectSameNumerics(t, {Iota(8)});
}

TEST(AlgebraicSimplify, CollapsesReshapeChains) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3, 4}));
  Node* r1 = t.Op("Reshape", "r1", {x, t.Const("s1", I64s({6, 4}))});
  Node* r2 = t.Op("Flatten", "r2", {r1}, {{"axis", int64_t{0}}});  // [1,24]
  Node* r3 = t.Op("Reshape", "r3", {r2, t.Const("s3", I64s({4, -1}))});
  t.Output({t.Op("Relu", "y", {r3})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.Count("Reshape") + t.Count("Flatten"), 1);
  Node* r = t.g().FindNode("r3");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->InputNode(0), x);
  EXPECT_EQ(r->output_desc(0).dims, (Dims{4, 6}));
  EXPECT_EQ(r->InputNode(1)->GetTensor("value")->ToInt64(), (std::vector<int64_t>{4, 6}));
  ExpectSameNumerics(t, {Iota(24)});
}

TEST(AlgebraicSimplify, ReshapeChainBackToTheInputShapeVanishes) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* r1 = t.Op("Reshape", "r1", {x, t.Const("s1", I64s({6}))});
  Node* r2 = t.Op("Reshape", "r2", {r1, t.Const("s2", I64s({2, 3}))});
  t.Output({t.Op("Relu", "y", {r2})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.Count("Reshape"), 0);
  EXPECT_EQ(t.g().num_nodes(), 3u);
}

TEST(AlgebraicSimplify, CancelsInverseTransposePairsOnly) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3, 4}));
  Node* t1 = t.Op("Transpose", "t1", {x}, {{"perm", Dims{1, 2, 0}}});
  Node* t2 = t.Op("Transpose", "t2", {t1}, {{"perm", Dims{2, 0, 1}}});  // inverse of t1
  Node* t3 = t.Op("Transpose", "t3", {t2}, {{"perm", Dims{1, 0, 2}}});
  Node* t4 = t.Op("Transpose", "t4", {t3}, {{"perm", Dims{0, 2, 1}}});  // not t3's inverse
  t.Output({t.Op("Relu", "y", {t4})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.g().FindNode("t1"), nullptr);
  EXPECT_EQ(t.g().FindNode("t2"), nullptr);
  ASSERT_NE(t.g().FindNode("t3"), nullptr);
  EXPECT_NE(t.g().FindNode("t4"), nullptr);
  EXPECT_EQ(t.g().FindNode("t3")->InputNode(0), x);
  ExpectSameNumerics(t, {Iota(24)});
}

TEST(AlgebraicSimplify, ATransposeOfSizeOneAxesBecomesAReshape) {
  // [1, 3, 4] -> [3, 1, 4] moves only the size-1 axis: a view. [1, 3, 4] ->
  // [1, 4, 3] swaps two real axes and stays; so does a graph output.
  TinyGraph t;
  Node* x = t.Data("x", F32({1, 3, 4}));
  Node* view = t.Op("Transpose", "view", {x}, {{"perm", Dims{1, 0, 2}}});
  Node* real = t.Op("Transpose", "real", {x}, {{"perm", Dims{0, 2, 1}}});
  Node* as_output = t.Op("Transpose", "as_output", {x}, {{"perm", Dims{1, 0, 2}}});
  t.Output({t.Op("Relu", "a", {view}), t.Op("Relu", "b", {real}), as_output});
  Status s = t.RunPass(AlgebraicSimplifyPass());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(t.g().FindNode("view"), nullptr);
  Node* a_in = t.g().FindNode("a")->InputNode(0);
  ASSERT_EQ(a_in->type(), "Reshape");
  EXPECT_EQ(a_in->InputNode(0), x);
  EXPECT_EQ(a_in->output_desc(0).dims, (Dims{3, 1, 4}));
  EXPECT_NE(t.g().FindNode("real"), nullptr);
  EXPECT_NE(t.g().FindNode("as_output"), nullptr);
  ExpectSameNumerics(t, {Iota(12)});
}

TEST(AlgebraicSimplify, TransposePairWithASecondConsumerKeepsTheFirst) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* t1 = t.Op("Transpose", "t1", {x}, {{"perm", Dims{1, 0}}});
  Node* t2 = t.Op("Transpose", "t2", {t1}, {{"perm", Dims{1, 0}}});
  t.Output({t.Op("Relu", "a", {t2}), t.Op("Relu", "b", {t1})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.g().FindNode("t2"), nullptr);
  EXPECT_NE(t.g().FindNode("t1"), nullptr);
  ExpectSameNumerics(t, {Iota(6)});
}

TEST(AlgebraicSimplify, KeepsTheModelOutputName) {
  // The Identity feeding NetOutput goes; the model's output keeps its name.
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* r = t.Op("Relu", "relu", {x});
  t.Output({t.Op("Identity", "logits", {r})});
  auto run = CompileAndRun(t.Clone(), {Iota(4)});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(CountType(*run->model.graph, "Identity"), 0);
  ASSERT_EQ(run->model.outputs.size(), 1u);
  EXPECT_EQ(run->model.outputs[0].name, "logits");
  EXPECT_EQ(run->model.outputs[0].desc.dims, (Dims{4}));
}

TEST(AlgebraicSimplify, DoesNotTurnAModelInputIntoAnOutput) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  t.Output({t.Op("Identity", "y", {x})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.Count("Identity"), 1);
}

TEST(AlgebraicSimplify, DoesNotFireOnCannotBeDeleted) {
  TinyGraph t;
  Node* x = t.Data("x", F32({4}));
  Node* id = t.Op("Identity", "id", {x}, {{"_cannot_be_deleted", true}});
  t.Output({t.Op("Relu", "y", {id})});
  ASSERT_TRUE(t.RunPass(AlgebraicSimplifyPass()).ok());
  EXPECT_EQ(t.Count("Identity"), 1);
}

}  // namespace
}  // namespace ge::test
