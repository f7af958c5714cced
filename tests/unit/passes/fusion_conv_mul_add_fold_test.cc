// conv_mul_add_fold on tiny graphs: the unfused batch norm Conv → Mul → Add
// with per-channel constants goes into the conv; other broadcasts, a second
// consumer or a computed operand keep the Mul/Add.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

// x -> Conv(W, B?) -> Mul(scale) -> Add(shift) -> out
struct ConvMulAdd {
  Tiny t;
  Node *x, *conv, *mul, *add;
  explicit ConvMulAdd(Tensor scale = F32s({1, 3, 1, 1}, {1.5f, 0.5f, -2.f}),
                      Tensor shift = F32s({3, 1, 1}, {0.2f, 0.f, -1.f}), bool bias = true) {
    x = t.Data("x", F32({1, 2, 5, 5}));
    Node* w = t.Const("w", F32s({3, 2, 3, 3}, Pseudo(54, 0.1f, -0.5f)));
    Node* b = bias ? t.Const("b", F32s({3}, {0.1f, -0.2f, 0.3f})) : nullptr;
    conv = t.Op("Conv", "conv", {x, w, b}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    mul = t.Op("Mul", "mul", {t.Const("scale", std::move(scale)), conv});  // constant first, as TF writes it too
    add = t.Op("Add", "add", {mul, t.Const("shift", std::move(shift))});
  }
};

TEST(FusionConvMulAddFold, FoldsScaleAndShiftIntoTheConv) {
  ConvMulAdd c;
  c.t.Output({c.add});
  ASSERT_TRUE(c.t.RunPass(ConvMulAddFoldPass()).ok());
  EXPECT_EQ(c.t.Count("Mul"), 0);
  EXPECT_EQ(c.t.Count("Add"), 0);
  EXPECT_EQ(c.t.g().OutputNode()->InputNode(0), c.conv);
  EXPECT_EQ(c.t.Count(op::kConst), 2);  // the folded W and B only
  ConvMulAdd d;
  d.t.Output({d.add});
  auto counts = ExpectSameNumerics(d.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["Mul"], 0);
  EXPECT_EQ(counts["Add"], 0);
}

TEST(FusionConvMulAddFold, FoldsAScalarScaleIntoAConvWithoutBias) {
  ConvMulAdd c(F32s({}, {0.5f}), F32s({1, 3, 1, 1}, {1.f, 2.f, 3.f}), false);
  c.t.Output({c.add});
  auto counts = ExpectSameNumerics(c.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["Mul"], 0);
  EXPECT_EQ(counts["Add"], 0);
  EXPECT_EQ(counts["Conv"], 1);
}

TEST(FusionConvMulAddFold, NotForAConstantThatVariesOverSpace) {
  ConvMulAdd c(F32s({1, 1, 1, 5}, {1, 2, 3, 4, 5}), F32s({1, 1, 5, 1}, {1, 2, 3, 4, 5}));
  c.t.Output({c.add});
  ASSERT_TRUE(c.t.RunPass(ConvMulAddFoldPass()).ok());
  EXPECT_EQ(c.t.Count("Mul"), 1);
  EXPECT_EQ(c.t.Count("Add"), 1);
}

TEST(FusionConvMulAddFold, NotWhenTheConvHasASecondConsumer) {
  ConvMulAdd c;
  c.t.Output({c.add, c.t.Op("Relu", "r", {c.conv})});
  ASSERT_TRUE(c.t.RunPass(ConvMulAddFoldPass()).ok());
  EXPECT_EQ(c.t.Count("Mul"), 1);
  auto counts = ExpectSameNumerics(c.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["Mul"], 1);
}

TEST(FusionConvMulAddFold, NotWithAComputedScale) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 5, 5}));
  Node* s = t.Data("s", F32({1, 3, 1, 1}));
  Node* conv = t.Op("Conv", "conv", {x, t.Const("w", F32s({3, 2, 3, 3}, Pseudo(54)))});
  t.Output({t.Op("Mul", "mul", {conv, s})});
  ASSERT_TRUE(t.RunPass(ConvMulAddFoldPass()).ok());
  EXPECT_EQ(t.Count("Mul"), 1);
}

TEST(FusionConvMulAddFold, NotWhenTheMulBroadcastsTheConvOutputWider) {
  ConvMulAdd c(F32s({2, 3, 1, 1}, Pseudo(6)));  // [1,3,5,5] * [2,3,1,1] grows the batch
  c.t.Output({c.mul});
  ASSERT_TRUE(c.t.RunPass(ConvMulAddFoldPass()).ok());
  EXPECT_EQ(c.t.Count("Mul"), 1);
}

}  // namespace
}  // namespace ge::fusion_test
