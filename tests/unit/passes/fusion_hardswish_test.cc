// hardswish_fusion on tiny graphs: the forms exporters write become
// HardSwish / HardSigmoid, and after a Conv the conv's post-op.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

const Dims kShape = {1, 2, 4, 4};

Node* SmallConv(Tiny& t, Node* x, size_t seed) {
  return t.Op("Conv", "conv",
              {x, t.Const("w", F32s({2, 2, 3, 3}, Pseudo(36, 0.2f, -1.f, seed))), t.Const("b", F32s({2}, {0.3f, -0.4f}))},
              {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
}

Node* HardSigmoidOf(Tiny& t, Node* x, float alpha = 1.0f / 6.0f) {
  return t.Op("HardSigmoid", "hsig", {x}, {{"alpha", alpha}, {"beta", 0.5f}});
}

// relu6(x + 3): torch's F.hardswish / hardsigmoid decomposed.
Node* Relu6Plus3(Tiny& t, Node* x, float hi = 6.0f) {
  Node* add = t.Op("Add", "add3", {t.Const("three", Scalar(3.f)), x});
  return t.Op("Clip", "clip", {add, t.Const("lo", Scalar(0.f)), t.Const("hi", Scalar(hi))});
}

// Inputs over [-5, 5]: both bends of the hard functions (-3 and 3) inside.
Floats Input() { return Pseudo(32, 1.0f, -5.f); }

TEST(FusionHardSwish, MulOfHardSigmoidBecomesHardSwish) {
  Tiny t;
  Node* x = t.Data("x", F32(kShape));
  t.Output({t.Op("Mul", "mul", {HardSigmoidOf(t, x), x})});
  auto counts = ExpectSameNumerics(t, {Input()});  // the whole pipeline, fusions on and off
  EXPECT_EQ(counts["HardSwish"], 1);
  ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
  EXPECT_EQ(t.Count("HardSwish"), 1);
  EXPECT_EQ(t.Count("HardSigmoid"), 0);
  EXPECT_EQ(t.Count("Mul"), 0);
}

TEST(FusionHardSwish, DecomposedFormsAfterAConvBecomeItsPostOp) {
  // x * relu6(x + 3) / 6 -> HardSwish; relu6(x + 3) * (1/6) -> HardSigmoid.
  for (bool swish : {true, false}) {
    Tiny t;
    Node* conv = SmallConv(t, t.Data("x", F32(kShape)), 1);
    Node* r6 = Relu6Plus3(t, conv);
    Node* last = swish ? t.Op("Div", "div6", {t.Op("Mul", "mul", {conv, r6}), t.Const("six", Scalar(6.f))})
                       : t.Op("Mul", "sixth", {r6, t.Const("sixth_c", Scalar(1.f / 6.f))});
    t.Output({last});
    auto counts = ExpectSameNumerics(t, {Input()});
    EXPECT_EQ(counts["Conv"], 1);
    EXPECT_EQ(counts["Clip"], 0);
    ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
    EXPECT_EQ(t.Count(swish ? "HardSwish" : "HardSigmoid"), 1);
    EXPECT_EQ(t.Count("Clip") + t.Count("Add") + t.Count("Mul") + t.Count("Div"), 0);
    ASSERT_TRUE(t.RunPass(ConvPostOpsPass()).ok());
    EXPECT_EQ(t.Count("Conv"), 1);
    EXPECT_EQ(t.Count(swish ? "HardSwish" : "HardSigmoid"), 0) << "a post-op of the conv now";
  }
}

// Must not fire: another alpha (ONNX's default 0.2 is not hardswish's), a
// gate times another tensor (squeeze-excitation), other clip bounds, a
// shared intermediate.
TEST(FusionHardSwish, NotForOtherConstantsGatesOrSharedIntermediates) {
  {
    Tiny t;
    Node* x = t.Data("x", F32(kShape));
    t.Output({t.Op("Mul", "mul", {x, HardSigmoidOf(t, x, 0.2f)})});
    ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
    EXPECT_EQ(t.Count("HardSwish"), 0);
  }
  {
    Tiny t;
    Node* x = t.Data("x", F32(kShape));
    Node* y = t.Data("y", F32(kShape));
    t.Output({t.Op("Mul", "gate", {y, HardSigmoidOf(t, x)})});
    ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
    EXPECT_EQ(t.Count("HardSwish"), 0);
    EXPECT_EQ(t.Count("Mul"), 1);
  }
  {
    Tiny t;
    Node* x = t.Data("x", F32(kShape));
    t.Output({t.Op("Div", "div6", {t.Op("Mul", "mul", {x, Relu6Plus3(t, x, 5.f)}), t.Const("six", Scalar(6.f))})});
    ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
    EXPECT_EQ(t.Count("HardSwish") + t.Count("HardSigmoid"), 0);
  }
  {
    Tiny t;
    Node* x = t.Data("x", F32(kShape));
    Node* r6 = Relu6Plus3(t, x);
    t.Output({t.Op("Div", "div6", {t.Op("Mul", "mul", {x, r6}), t.Const("six", Scalar(6.f))}), r6});
    ASSERT_TRUE(t.RunPass(HardSwishFusionPass()).ok());
    EXPECT_EQ(t.Count("HardSwish"), 0);
    EXPECT_EQ(t.Count("Clip"), 1);
  }
}

}  // namespace
}  // namespace ge::fusion_test
