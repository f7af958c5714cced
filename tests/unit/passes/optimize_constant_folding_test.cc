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

}  // namespace
}  // namespace ge::test
