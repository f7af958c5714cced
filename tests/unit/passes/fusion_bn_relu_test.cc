// bn_relu_fusion and concat_bn_fusion on tiny graphs, and the per-channel ops they and the
// squeeze-excitation block leave running in the conv's layout: after the
// pipeline the only TransData is the one before the graph output.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

Node* Conv(Tiny& t, Node* x, const std::string& name, int64_t cin, int64_t cout, int64_t k, size_t seed) {
  const int64_t pad = k / 2;
  return t.Op("Conv", name,
              {x, t.Const(name + "_w", F32s({cout, cin, k, k}, Pseudo(static_cast<size_t>(cout * cin * k * k), 0.02f,
                                                                          -0.1f, seed))),
               t.Const(name + "_b", F32s({cout}, Pseudo(static_cast<size_t>(cout), 0.05f, -0.2f, seed + 1)))},
              {{"pads", std::vector<int64_t>{pad, pad, pad, pad}}});
}

Node* Bn(Tiny& t, Node* x, int64_t c) {
  const size_t n = static_cast<size_t>(c);
  return t.Op("BatchNormalization", "bn",
              {x, t.Const("gamma", F32s({c}, Pseudo(n, 0.1f, 0.5f))), t.Const("beta", F32s({c}, Pseudo(n, 0.1f, -0.5f, 1))),
               t.Const("mean", F32s({c}, Pseudo(n, 0.05f, -0.2f, 2))), t.Const("var", F32s({c}, Pseudo(n, 0.1f, 0.5f, 3)))},
              {{"epsilon", 1e-5f}});
}

// Outputs with every pass on, and with the fusions and the layout stage off.
void ExpectSameAsPlain(const Tiny& t, const Floats& input) {
  ExpectSameNumerics(t, {input}, 1e-4f);
  auto on = CompileAndRun(t.Clone(), {input});
  std::vector<std::string> off = FusionPassNames();
  off.push_back("blocked_layout");
  auto plain = CompileAndRun(t.Clone(), {input}, off);
  ASSERT_TRUE(on.ok() && plain.ok());
  float mx = 0;
  for (float v : plain->outputs[0]) mx = std::max(mx, std::abs(v));
  for (size_t i = 0; i < on->outputs[0].size(); ++i)
    ASSERT_NEAR(on->outputs[0][i], plain->outputs[0][i], 1e-4f * std::max(1.f, mx)) << i;
}

TEST(FusionBnRelu, BatchNormAndReluBecomeOneChannelAffine) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 16, 3, 3}));
  t.Output({t.Op("Relu", "relu", {Bn(t, x, 16)})});
  ExpectSameNumerics(t, {Pseudo(144, 0.2f, -1.f)});
  ASSERT_TRUE(t.RunPass(BnReluFusionPass()).ok());
  EXPECT_EQ(t.Count("BatchNormalization"), 0);
  EXPECT_EQ(t.Count("Relu"), 0);
  ASSERT_EQ(t.Count("ChannelAffine"), 1);
  for (Node* n : t.g().nodes())
    if (n->type() == "ChannelAffine") {
      EXPECT_EQ(n->GetString("activation"), "Relu");
    }
}

// DenseNet's pre-activation: Concat -> BN -> ReLU -> Conv. The BN cannot
// fold into a conv; as a ChannelAffine it runs in the convs' layout.
TEST(FusionBnRelu, PreActivationBetweenConvsNeedsNoReorders) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 16, 6, 6}));
  Node* cat = t.Op("Concat", "cat", {Conv(t, x, "c1", 16, 16, 3, 1), Conv(t, x, "c2", 16, 16, 1, 2)},
                   {{"axis", int64_t{1}}});
  t.Output({Conv(t, t.Op("Relu", "relu", {Bn(t, cat, 32)}), "c3", 32, 16, 1, 3)});
  const auto counts = ExpectSameNumerics(t, {Pseudo(576, 0.2f, -1.f)}, 1e-4f);
  EXPECT_EQ(counts.count("BatchNormalization"), 0u);
  EXPECT_EQ(counts.count("Concat"), 0u) << "concat_bn_fusion: written through the affine map";
  EXPECT_EQ(counts.at("ConcatAffine"), 1);
  EXPECT_LE(counts.count("TransData") ? counts.at("TransData") : 0, 1) << "only before the graph output";
  ExpectSameAsPlain(t, Pseudo(576, 0.2f, -1.f));

  // Without concat_bn_fusion: a Concat and a ChannelAffine, still in the layout.
  auto split = CompileAndRun(t.Clone(), {Pseudo(576, 0.2f, -1.f)}, {"concat_bn_fusion"});
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ(split->counts["ChannelAffine"], 1);
  EXPECT_EQ(split->counts["Concat"], 1);
  EXPECT_LE(split->counts["TransData"], 1);
}

TEST(FusionConcatBn, NotWhenTheConcatIsReadElsewhere) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 8, 3, 3}));
  Node* y = t.Data("y", F32({1, 8, 3, 3}));
  Node* cat = t.Op("Concat", "cat", {x, y}, {{"axis", int64_t{1}}});
  t.Output({t.Op("Relu", "relu", {Bn(t, cat, 16)}), cat});
  ASSERT_TRUE(t.RunPass(BnReluFusionPass()).ok());
  ASSERT_TRUE(t.RunPass(ConcatBnFusionPass()).ok());
  EXPECT_EQ(t.Count("ConcatAffine"), 0);
  EXPECT_EQ(t.Count("Concat"), 1);
  EXPECT_EQ(t.Count("ChannelAffine"), 1);
}

TEST(FusionConcatBn, ConcatThenBatchNormIsOneKernel) {
  Tiny t;
  Node* x = t.Data("x", F32({2, 8, 3, 3}));
  Node* y = t.Data("y", F32({2, 8, 3, 3}));
  t.Output({t.Op("Relu", "relu", {Bn(t, t.Op("Concat", "cat", {x, y, x}, {{"axis", int64_t{1}}}), 24)})});
  auto counts = ExpectSameNumerics(t, {Pseudo(144, 0.2f, -1.f), Pseudo(144, 0.3f, -1.f, 1)});
  EXPECT_EQ(counts["ConcatAffine"], 1);
  EXPECT_EQ(counts["Concat"], 0);
}

TEST(FusionBnRelu, NotInTrainingModeOrWithRuntimeStatistics) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 4, 3, 3}));
  Node* var = t.Data("var", F32({4}));
  Node* bn = t.Op("BatchNormalization", "bn",
                  {x, t.Const("g", F32s({4}, {1, 1, 1, 1})), t.Const("b", F32s({4}, {0, 0, 0, 0})),
                   t.Const("m", F32s({4}, {0, 0, 0, 0})), var});
  t.Output({t.Op("Relu", "relu", {bn})});
  ASSERT_TRUE(t.RunPass(BnReluFusionPass()).ok());
  EXPECT_EQ(t.Count("ChannelAffine"), 0);
  EXPECT_EQ(t.Count("BatchNormalization"), 1);
}

// Depthwise convs (MobileNet, EfficientNet) keep their BN and activation:
// the BN folds into the grouped weights, the Clip (ReLU6) and HardSwish
// become post-ops; no ChannelAffine is left.
TEST(FusionBnRelu, DepthwiseConvTakesBnAndActivation) {
  for (const char* act : {"Clip", "HardSwish"}) {
    Tiny t;
    Node* x = t.Data("x", F32({1, 16, 5, 5}));
    Node* dw = t.Op("Conv", "dw",
                    {x, t.Const("dw_w", F32s({16, 1, 3, 3}, Pseudo(144, 0.05f, -0.2f))),
                     t.Const("dw_b", F32s({16}, Pseudo(16, 0.05f, -0.2f, 1)))},
                    {{"pads", std::vector<int64_t>{1, 1, 1, 1}}, {"group", int64_t{16}}});
    Node* bn = Bn(t, dw, 16);
    Node* a = std::string(act) == "Clip"
                  ? t.Op("Clip", "act", {bn, t.Const("lo", Scalar(0.f)), t.Const("hi", Scalar(6.f))})
                  : t.Op("HardSwish", "act", {bn});
    t.Output({Conv(t, a, "pw", 16, 16, 1, 9)});
    const auto counts = ExpectSameNumerics(t, {Pseudo(400, 0.5f, -3.f)}, 1e-4f);
    EXPECT_EQ(counts.count("BatchNormalization") + counts.count("ChannelAffine") + counts.count(act), 0u) << act;
    EXPECT_EQ(counts.at("Conv"), 2) << act;
  }
}

// The squeeze-excitation block: GlobalAveragePool -> 1x1 conv -> ReLU ->
// 1x1 conv -> Sigmoid -> Mul with the feature map. The broadcast Mul runs in
// the conv layout: no TransData but the last.
TEST(SqueezeExcitation, GateMulRunsInTheConvLayout) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 16, 6, 6}));
  Node* f = Conv(t, x, "feat", 16, 16, 3, 4);
  Node* s = t.Op("GlobalAveragePool", "gap", {f});
  s = t.Op("Relu", "se_relu", {Conv(t, s, "se1", 16, 16, 1, 5)});
  s = t.Op("Sigmoid", "se_sig", {Conv(t, s, "se2", 16, 16, 1, 6)});
  t.Output({Conv(t, t.Op("Mul", "gate", {f, s}), "proj", 16, 16, 1, 7)});
  const auto counts = ExpectSameNumerics(t, {Pseudo(576, 0.2f, -1.f)}, 1e-4f);
  EXPECT_EQ(counts.at("Mul"), 1);
  EXPECT_LE(counts.count("TransData") ? counts.at("TransData") : 0, 1) << "only before the graph output";
  ExpectSameAsPlain(t, Pseudo(576, 0.2f, -1.f));
}

}  // namespace
}  // namespace ge::fusion_test
