// conv_post_ops, gemm_post_ops and matmul_add_to_gemm on tiny graphs.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

Node* SmallConv(Tiny& t, Node* x, const std::string& name, size_t seed) {
  return t.Op("Conv", name,
              {x, t.Const(name + "_w", F32s({2, 2, 3, 3}, Pseudo(36, 0.1f, -0.5f, seed))),
               t.Const(name + "_b", F32s({2}, {0.1f, -0.3f}))},
              {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
}

TEST(FusionConvPostOps, FusesResidualAddAndRelu) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* r = t.Data("r", F32({1, 2, 4, 4}));
  Node* conv = SmallConv(t, x, "conv", 0);
  Node* add = t.Op("Add", "add", {r, conv});  // residual first: either order
  t.Output({t.Op("Relu", "relu", {add})});
  Tiny u;
  {
    Node* x2 = u.Data("x", F32({1, 2, 4, 4}));
    Node* r2 = u.Data("r", F32({1, 2, 4, 4}));
    u.Output({u.Op("Relu", "relu", {u.Op("Add", "add", {r2, SmallConv(u, x2, "conv", 0)})})});
  }
  ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
  EXPECT_EQ(t.Count("Add"), 0);
  EXPECT_EQ(t.Count("Relu"), 0);
  EXPECT_EQ(conv->GetInt("fused_sum"), 1);
  EXPECT_EQ(conv->GetString("activation"), "Relu");
  EXPECT_EQ(conv->InputNode(3), r);
  auto counts = ExpectSameNumerics(u, {Pseudo(32, 0.2f, -1.f), Pseudo(32, 0.3f, -1.5f, 2)});
  EXPECT_EQ(counts["Relu"], 0);
  EXPECT_EQ(counts["Add"], 0);
}

TEST(FusionConvPostOps, FusesClipWithConstantBoundsAndSigmoid) {
  for (const char* act : {"Clip", "Sigmoid"}) {
    Tiny t;
    Node* x = t.Data("x", F32({1, 2, 4, 4}));
    Node* conv = SmallConv(t, x, "conv", 1);
    Node* a = std::string(act) == "Clip"
                  ? t.Op("Clip", "act", {conv, t.Const("lo", Scalar(0.f)), t.Const("hi", Scalar(0.4f))})
                  : t.Op("Sigmoid", "act", {conv});
    t.Output({a});
    auto counts = ExpectSameNumerics(t, {Pseudo(32, 0.2f, -1.f)});
    EXPECT_EQ(counts[act], 0) << act;
  }
}

TEST(FusionConvPostOps, ResidualFromAnotherConv) {
  // resnet's downsample block: Add(conv_a, conv_b) -> Relu; one conv absorbs both.
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* a = SmallConv(t, x, "ca", 3);
  Node* b = SmallConv(t, x, "cb", 4);
  t.Output({t.Op("Relu", "relu", {t.Op("Add", "add", {a, b})})});
  auto counts = ExpectSameNumerics(t, {Pseudo(32, 0.2f, -1.f)});
  EXPECT_EQ(counts["Add"], 0);
  EXPECT_EQ(counts["Relu"], 0);
  EXPECT_EQ(counts["Conv"], 2);
}

TEST(FusionConvPostOps, NotWhenAnIntermediateHasASecondConsumer) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* r = t.Data("r", F32({1, 2, 4, 4}));
  Node* conv = SmallConv(t, x, "conv", 0);
  Node* add = t.Op("Add", "add", {conv, r});
  t.Output({t.Op("Relu", "relu", {add}), add});  // the sum itself is also an output
  ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
  EXPECT_EQ(t.Count("Add"), 0);   // conv + sum still fuse...
  EXPECT_EQ(t.Count("Relu"), 1);  // ...but not the Relu: the sum is needed without it
  EXPECT_FALSE(conv->HasAttr("activation"));

  Tiny u;
  Node* x2 = u.Data("x", F32({1, 2, 4, 4}));
  Node* c2 = SmallConv(u, x2, "conv", 0);
  u.Output({u.Op("Relu", "relu", {c2}), c2});  // the conv output is used twice
  ASSERT_TRUE(u.RunPass(ConvPostOpsPass()).ok());
  EXPECT_EQ(u.Count("Relu"), 1);
  EXPECT_FALSE(c2->HasAttr("activation"));
}

TEST(FusionConvPostOps, NotWithABroadcastAddOrARuntimeClipBound) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* hi = t.Data("hi", F32({}));
  Node* conv = SmallConv(t, x, "conv", 0);
  Node* add = t.Op("Add", "add", {conv, t.Const("c", F32s({1, 2, 1, 1}, {1.f, 2.f}))});
  t.Output({t.Op("Clip", "clip", {add, t.Const("lo", Scalar(0.f)), hi})});
  ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
  EXPECT_EQ(t.Count("Add"), 1);
  EXPECT_EQ(t.Count("Clip"), 1);
}

TEST(FusionGemmPostOps, FusesReluIntoGemmAndMatMul) {
  Tiny t;
  Node* a = t.Data("a", F32({3, 4}));
  Node* g = t.Op("Gemm", "gemm", {a, t.Const("b", F32s({4, 5}, Pseudo(20))), t.Const("c", F32s({5}, Pseudo(5)))});
  Node* m = t.Op("MatMul", "mm", {t.Op("Relu", "r1", {g}), t.Const("b2", F32s({5, 2}, Pseudo(10, 0.1f, -0.5f, 1)))});
  t.Output({t.Op("Sigmoid", "s", {m})});
  auto counts = ExpectSameNumerics(t, {Pseudo(12, 0.3f, -1.5f)});
  EXPECT_EQ(counts["Relu"], 0);
  EXPECT_EQ(counts["Sigmoid"], 0);
}

TEST(FusionGemmPostOps, NotWhenTheProductHasASecondConsumer) {
  Tiny t;
  Node* a = t.Data("a", F32({3, 4}));
  Node* g = t.Op("Gemm", "gemm", {a, t.Const("b", F32s({4, 5}, Pseudo(20)))});
  t.Output({t.Op("Relu", "r", {g}), g});
  ASSERT_TRUE(t.RunPass(GemmPostOpsPass()).ok());
  EXPECT_EQ(t.Count("Relu"), 1);
}

TEST(FusionMatMulAdd, TwoDimensionalBecomesGemm) {
  Tiny t;
  Node* a = t.Data("a", F32({3, 4}));
  Node* mm = t.Op("MatMul", "mm", {a, t.Const("b", F32s({4, 5}, Pseudo(20)))});
  t.Output({t.Op("Add", "add", {t.Const("bias", F32s({1, 5}, Pseudo(5, 0.2f, 0.f))), mm})});
  Tiny u;
  {
    Node* a2 = u.Data("a", F32({3, 4}));
    Node* m2 = u.Op("MatMul", "mm", {a2, u.Const("b", F32s({4, 5}, Pseudo(20)))});
    u.Output({u.Op("Add", "add", {u.Const("bias", F32s({1, 5}, Pseudo(5, 0.2f, 0.f))), m2})});
  }
  ASSERT_TRUE(t.RunPass(MatMulAddToGemmPass()).ok());
  EXPECT_EQ(t.Count("Add"), 0);
  EXPECT_EQ(mm->type(), "Gemm");
  auto counts = ExpectSameNumerics(u, {Pseudo(12, 0.3f, -1.5f)});
  EXPECT_EQ(counts["Gemm"], 1);
  EXPECT_EQ(counts["Add"], 0);
}

TEST(FusionMatMulAdd, NDimensionalBecomesFusedMatMulAndTakesGelu) {
  Tiny t;
  Node* a = t.Data("a", F32({2, 3, 4}));
  Node* mm = t.Op("MatMul", "mm", {a, t.Const("b", F32s({4, 6}, Pseudo(24)))});
  Node* add = t.Op("Add", "add", {mm, t.Const("bias", F32s({6}, Pseudo(6, 0.2f, 0.f)))});
  t.Output({t.Op("Gelu", "gelu", {add})});
  auto counts = ExpectSameNumerics(t, {Pseudo(24, 0.3f, -1.5f)});
  EXPECT_EQ(counts["FusedMatMul"], 1);
  EXPECT_EQ(counts["Add"], 0);
  EXPECT_EQ(counts["Gelu"], 0);
}

// A dynamic model's MatMul [?,?,4] x [4,6]: N is known, so the bias fuses.
TEST(FusionMatMulAdd, FusesWithUnknownLeadingDims) {
  Tiny t;
  Node* a = t.Data("a", F32({-1, -1, 4}));
  Node* mm = t.Op("MatMul", "mm", {a, t.Const("b", F32s({4, 6}, Pseudo(24)))});
  t.Output({t.Op("Add", "add", {mm, t.Const("bias", F32s({6}, Pseudo(6, 0.2f, 0.f)))})});
  ASSERT_TRUE(t.RunPass(MatMulAddToGemmPass()).ok());
  EXPECT_EQ(mm->type(), "FusedMatMul");
  EXPECT_EQ(t.Count("Add"), 0);
}

TEST(FusionMatMulAdd, NotWithABiasOverAnotherAxisOrASecondConsumer) {
  Tiny t;
  Node* a = t.Data("a", F32({3, 4}));
  Node* mm = t.Op("MatMul", "mm", {a, t.Const("b", F32s({4, 5}, Pseudo(20)))});
  Node* add = t.Op("Add", "add", {mm, t.Const("bias", F32s({3, 1}, {1, 2, 3}))});
  Node* mm2 = t.Op("MatMul", "mm2", {a, t.Const("b2", F32s({4, 5}, Pseudo(20)))});
  Node* add2 = t.Op("Add", "add2", {mm2, t.Const("bias2", F32s({5}, Pseudo(5)))});
  t.Output({add, add2, mm2});
  ASSERT_TRUE(t.RunPass(MatMulAddToGemmPass()).ok());
  EXPECT_EQ(t.Count("Add"), 2);
  EXPECT_EQ(t.Count("MatMul"), 2);
}

}  // namespace
}  // namespace ge::fusion_test

namespace ge::fusion_test {
namespace {

Node* SiluConv(Tiny& t, bool sigmoid_first) {
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* conv = t.Op("Conv", "conv",
                    {x, t.Const("conv_w", F32s({2, 2, 3, 3}, Pseudo(36, 0.1f, -0.5f, 1))),
                     t.Const("conv_b", F32s({2}, {0.1f, -0.3f}))},
                    {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  Node* sig = t.Op("Sigmoid", "sig", {conv});
  return t.Op("Mul", "silu", sigmoid_first ? std::vector<Node*>{sig, conv} : std::vector<Node*>{conv, sig});
}

// Mul(x, Sigmoid(x)) in either order becomes one Swish; after a Conv,
// conv_post_ops then takes it as the conv's activation (oneDNN swish).
TEST(FusionSilu, MulOfSigmoidBecomesSwishAndAConvPostOp) {
  for (bool order : {false, true}) {
    Tiny t;
    t.Output({SiluConv(t, order)});
    ASSERT_TRUE(t.RunPass(SiluFusionPass()).ok());
    EXPECT_EQ(t.Count("Sigmoid"), 0);
    EXPECT_EQ(t.Count("Mul"), 0);
    EXPECT_EQ(t.Count("Swish"), 1);
    ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
    EXPECT_EQ(t.Count("Swish"), 0);
    Tiny u;
    u.Output({SiluConv(u, order)});
    auto counts = ExpectSameNumerics(u, {Pseudo(32, 0.2f, -1.f)});
    EXPECT_EQ(counts["Sigmoid"], 0);
    EXPECT_EQ(counts["Mul"], 0);
    EXPECT_EQ(counts["Swish"], 0);  // inside the conv
  }
}

// A standalone SiLU (no conv before it) runs as one Swish kernel.
TEST(FusionSilu, StandaloneSiluIsOneSwishKernel) {
  Tiny t;
  Node* x = t.Data("x", F32({3, 5}));
  t.Output({t.Op("Mul", "silu", {x, t.Op("Sigmoid", "sig", {x})})});
  auto counts = ExpectSameNumerics(t, {Pseudo(15, 0.8f, -4.f)});
  EXPECT_EQ(counts["Swish"], 1);
  EXPECT_EQ(counts["Sigmoid"], 0);
}

// Must not fire: the Sigmoid read elsewhere too, a Mul by another tensor,
// a Mul that broadcasts.
TEST(FusionSilu, NotWhenTheSigmoidIsSharedOrTheMulIsNotSilu) {
  {
    Tiny t;
    Node* x = t.Data("x", F32({4}));
    Node* sig = t.Op("Sigmoid", "sig", {x});
    t.Output({t.Op("Mul", "silu", {x, sig}), t.Op("Relu", "other", {sig})});
    ASSERT_TRUE(t.RunPass(SiluFusionPass()).ok());
    EXPECT_EQ(t.Count("Swish"), 0);
  }
  {
    Tiny t;
    Node* x = t.Data("x", F32({4}));
    Node* y = t.Data("y", F32({4}));
    t.Output({t.Op("Mul", "gate", {y, t.Op("Sigmoid", "sig", {x})})});
    ASSERT_TRUE(t.RunPass(SiluFusionPass()).ok());
    EXPECT_EQ(t.Count("Swish"), 0);
  }
  {
    Tiny t;
    Node* x = t.Data("x", F32({4, 1}));
    Node* s = t.Op("Sigmoid", "sig", {t.Data("z", F32({4, 3}))});
    t.Output({t.Op("Mul", "bcast", {x, s})});
    ASSERT_TRUE(t.RunPass(SiluFusionPass()).ok());
    EXPECT_EQ(t.Count("Swish"), 0);
  }
}

// HardSwish after a Conv is a post-op too.
TEST(FusionConvPostOps, FusesHardSwish) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  t.Output({t.Op("HardSwish", "hs", {SmallConv(t, x, "conv", 2)})});
  Tiny u;
  {
    Node* x2 = u.Data("x", F32({1, 2, 4, 4}));
    u.Output({u.Op("HardSwish", "hs", {SmallConv(u, x2, "conv", 2)})});
  }
  ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
  EXPECT_EQ(t.Count("HardSwish"), 0);
  auto counts = ExpectSameNumerics(u, {Pseudo(32, 0.6f, -3.f)});
  EXPECT_EQ(counts["HardSwish"], 0);
}

}  // namespace
}  // namespace ge::fusion_test
