#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {

TEST(ConstantFolding, FoldsAConstantChainWithTheCpuKernels) {
  TinyGraph t;
  Node* x = t.Data("x", F32({3}));
  Node* a = t.Const("a", F32s({3}, {1, 2, 3}));
  Node* b = t.Const("b", F32s({3}, {10, 20, 30}));
  Node* sum = t.Op("Add", "sum", {a, b});
  Node* sq = t.Op("Mul", "sq", {sum, sum});
  t.Output({t.Op("Add", "y", {x, sq})});
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("Mul"), 0);
  EXPECT_EQ(t.Count("Add"), 1);  // y reads x: stays
  Node* y = t.g().FindNode("y");
  ASSERT_NE(y, nullptr);
  Node* folded = y->InputNode(1);
  ASSERT_EQ(folded->type(), op::kConst);
  EXPECT_EQ(folded->name(), "sq");  // the folded node's name lives on
  EXPECT_EQ(folded->GetTensor("value")->ToDouble(), (std::vector<double>{121, 484, 1089}));
  // The inputs it no longer needs are gone with it.
  EXPECT_EQ(t.g().FindNode("a"), nullptr);
  EXPECT_EQ(t.g().num_nodes(), 4u);
}

TEST(ConstantFolding, FoldsIntegerShapeOps) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 6}));
  Node* s = t.Const("s", I64s({3, 4}));
  Node* idx = t.Const("idx", Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{1}));
  Node* g = t.Op("Gather", "g", {s, idx});
  Node* ax = t.Const("ax", I64s({0}));
  Node* u = t.Op("Unsqueeze", "u", {g, ax});
  Node* lead = t.Const("lead", I64s({-1}));
  Node* shape = t.Op("Concat", "shape", {lead, u}, {{"axis", int64_t{0}}});
  t.Output({t.Op("Reshape", "r", {x, shape})});
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  Node* r = t.g().FindNode("r");
  ASSERT_EQ(r->InputNode(1)->type(), op::kConst);
  EXPECT_EQ(r->InputNode(1)->GetTensor("value")->ToInt64(), (std::vector<int64_t>{-1, 4}));
  EXPECT_EQ(t.Count("Gather") + t.Count("Unsqueeze") + t.Count("Concat"), 0);
}

TEST(ConstantFolding, DoesNotFireAboveTheSizeLimit) {
  TinyGraph t;
  t.options.fold_limit_bytes = 32;  // 8 floats
  Node* x = t.Data("x", F32({16}));
  Node* a = t.Const("a", F32s({16}, Iota(16)));
  Node* e = t.Op("Exp", "e", {a});  // 64 bytes: above the limit
  Node* b = t.Const("b", F32s({4}, {1, 2, 3, 4}));
  Node* n = t.Op("Neg", "n", {b});  // 16 bytes: folded
  Node* y = t.Op("Add", "y", {x, e});
  t.Output({y, t.Op("Relu", "z", {n})});
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("Exp"), 1);
  EXPECT_EQ(t.Count("Neg"), 0);
}

TEST(ConstantFolding, DoesNotFireOnRuntimeInputsOrModelOutputs) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2}));
  Node* c = t.Const("c", F32s({2}, {1, 2}));
  Node* live = t.Op("Add", "live", {x, c});
  Node* out_const = t.Op("Neg", "neg", {c});  // feeds NetOutput directly
  Node* keep = t.Op("Abs", "keep", {c}, {{"_cannot_be_deleted", true}});
  t.Output({t.Op("Add", "y", {live, keep}), out_const});
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_NE(t.g().FindNode("live"), nullptr);
  EXPECT_EQ(t.g().FindNode("neg")->type(), "Neg");
  EXPECT_EQ(t.g().FindNode("keep")->type(), "Abs");
}

TEST(ConstantFolding, SameNumericsCompiled) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3}));
  Node* w = t.Const("w", F32s({3, 2}, Iota(6)));
  Node* wt = t.Op("Transpose", "wt", {w}, {{"perm", Dims{1, 0}}});
  Node* ws = t.Op("Sigmoid", "ws", {wt});
  t.Output({t.Op("Add", "y", {x, ws})});
  ExpectSameNumerics(t, {Iota(6, 0.5f)});
  auto r = CompileAndRun(t.Clone(), {Iota(6, 0.5f)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(CountType(*r->model.graph, "Transpose"), 0);
  EXPECT_EQ(CountType(*r->model.graph, "Sigmoid"), 0);
}

// y = x + Cast<f32>(NonZero(c)): an op whose output shape is the data's,
// between a constant and the model. Returns the NonZero node.
Node* NonZeroChain(TinyGraph& t, TensorDesc x, Tensor c) {
  Node* nz = t.Op("NonZero", "nz", {t.Const("c", std::move(c))});
  t.Output({t.Op("Add", "y", {t.Data("x", std::move(x)), t.Op("Cast", "f", {nz}, {{"to", int64_t{1}}})})});
  return nz;
}

// Inference of a small constant input computes NonZero's shape (prepare),
// so the chain after it is static and folds; the compiled model computes
// the same with folding on or off.
TEST(ConstantFolding, FoldsAComputedShapeOpOnAConstant) {
  TinyGraph t;
  Node* nz = NonZeroChain(t, F32({2, 2}), F32s({2, 2}, {1, 0, 0, 2}));
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(nz->output_desc(0).ToString(), "i64[2,2]");
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("NonZero") + t.Count("Cast"), 0);
  const Node* folded = t.g().FindNode("y")->InputNode(1);
  ASSERT_EQ(folded->type(), op::kConst);
  EXPECT_EQ(folded->output_desc(0).ToString(), "f32[2,2]");
  EXPECT_EQ(folded->GetTensor("value")->ToDouble(), (std::vector<double>{0, 1, 0, 1}));
  ExpectSameNumerics(t, {Iota(4)});
}

// An input too large for prepare to evaluate: NonZero's count stays
// unknown until folding computes it; then inference runs again, the Cast
// after it becomes static and folds too.
TEST(ConstantFolding, ReinfersAfterAComputedShape) {
  Floats big(70000, 0.f);
  for (size_t i : {5, 100, 69999}) big[i] = 1.f;
  TinyGraph t;
  NonZeroChain(t, F32({1, 3}), F32s({70000}, big));
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(t.g().FindNode("f")->output_desc(0).ToString(), "f32[1,?]");
  ASSERT_TRUE(t.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(t.Count("NonZero") + t.Count("Cast"), 0);
  const Node* folded = t.g().FindNode("y")->InputNode(1);
  ASSERT_EQ(folded->type(), op::kConst);
  EXPECT_EQ(folded->output_desc(0).ToString(), "f32[1,3]");
  EXPECT_EQ(folded->GetTensor("value")->ToDouble(), (std::vector<double>{5, 100, 69999}));
  // Above the size limit once computed: NonZero stays.
  TinyGraph small;
  small.options.fold_limit_bytes = 16;
  NonZeroChain(small, F32({1, 3}), F32s({70000}, big));
  ASSERT_TRUE(small.RunPass(ConstantFoldingPass()).ok());
  EXPECT_EQ(small.Count("NonZero"), 1);
}

}  // namespace
}  // namespace ge::test
