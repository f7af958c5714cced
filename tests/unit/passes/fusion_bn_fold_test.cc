// conv_bn_fold and gemm_bn_fold on tiny graphs: what changes, when they must
// not fire, and that the folded graph computes what the unfolded one does.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

// x -> Conv(W, B?) -> BatchNormalization -> out
struct ConvBn {
  Tiny t;
  Node *x, *conv, *bn;
  explicit ConvBn(bool bias = true, std::vector<std::pair<std::string, AttrValue>> bn_attrs = {{"epsilon", 1e-3f}}) {
    x = t.Data("x", F32({1, 2, 5, 5}));
    Node* w = t.Const("w", F32s({3, 2, 3, 3}, Pseudo(54, 0.1f, -0.5f)));
    Node* b = bias ? t.Const("b", F32s({3}, {0.1f, -0.2f, 0.3f})) : nullptr;
    conv = t.Op("Conv", "conv", {x, w, b}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    bn = t.Op("BatchNormalization", "bn",
              {conv, t.Const("s", F32s({3}, {1.5f, 0.5f, -2.f})), t.Const("bb", F32s({3}, {0.2f, 0.f, -1.f})),
               t.Const("mean", F32s({3}, {0.3f, -0.1f, 0.7f})), t.Const("var", F32s({3}, {0.8f, 2.f, 0.05f}))},
              std::move(bn_attrs));
  }
};

TEST(FusionConvBnFold, FoldsIntoWeightsAndBias) {
  ConvBn c;
  c.t.Output({c.bn});
  ASSERT_TRUE(c.t.RunPass(ConvBnFoldPass()).ok());
  EXPECT_EQ(c.t.Count("BatchNormalization"), 0);
  EXPECT_EQ(c.t.Count("Conv"), 1);
  EXPECT_EQ(c.t.g().OutputNode()->InputNode(0), c.conv);
  EXPECT_EQ(c.t.Count(op::kConst), 2);  // the folded W and B; the BN parameters are gone
  ConvBn d;
  d.t.Output({d.bn});
  auto counts = ExpectSameNumerics(d.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["BatchNormalization"], 0);
}

TEST(FusionConvBnFold, FoldsIntoAConvWithoutBias) {
  ConvBn c(false);
  c.t.Output({c.bn});
  auto counts = ExpectSameNumerics(c.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["BatchNormalization"], 0);
  EXPECT_EQ(counts["Conv"], 1);
}

TEST(FusionConvBnFold, NotWhenTheConvHasASecondConsumer) {
  ConvBn c;
  c.t.Output({c.bn, c.t.Op("Relu", "r", {c.conv})});
  ASSERT_TRUE(c.t.RunPass(ConvBnFoldPass()).ok());
  EXPECT_EQ(c.t.Count("BatchNormalization"), 1);
  auto counts = ExpectSameNumerics(c.t, {Pseudo(50, 0.2f, -1.f)});
  EXPECT_EQ(counts["ChannelAffine"], 1);  // not in the conv: bn_relu_fusion's one pass
}

TEST(FusionConvBnFold, NotInTrainingMode) {
  ConvBn c(true, {{"training_mode", int64_t{1}}});
  c.t.Output({c.bn});
  ASSERT_TRUE(c.t.RunPass(ConvBnFoldPass()).ok());
  EXPECT_EQ(c.t.Count("BatchNormalization"), 1);
}

TEST(FusionConvBnFold, NotWithARunningMeanOutputInUse) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* conv = t.Op("Conv", "conv", {x, t.Const("w", F32s({2, 2, 1, 1}, {1, 0, 0, 1}))});
  Node* bn = t.Op("BatchNormalization", "bn",
                  {conv, t.Const("s", F32s({2}, {1, 1})), t.Const("b", F32s({2}, {0, 0})),
                   t.Const("m", F32s({2}, {0, 0})), t.Const("v", F32s({2}, {1, 1}))},
                  {}, 3);
  Node* out = t.Output({bn});
  ASSERT_TRUE(t.g().AddEdge(bn, 1, out, 1).ok());
  // Shape inference may reject the training outputs; the pass alone must leave the BN alone.
  (void)t.RunPass(ConvBnFoldPass());
  EXPECT_EQ(t.Count("BatchNormalization"), 1);
}

TEST(FusionConvBnFold, NotWithNonConstantScale) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* s = t.Data("scale", F32({2}));
  Node* conv = t.Op("Conv", "conv", {x, t.Const("w", F32s({2, 2, 1, 1}, {1, 0, 0, 1}))});
  t.Output({t.Op("BatchNormalization", "bn",
                 {conv, s, t.Const("b", F32s({2}, {0, 0})), t.Const("m", F32s({2}, {0, 0})),
                  t.Const("v", F32s({2}, {1, 1}))})});
  ASSERT_TRUE(t.RunPass(ConvBnFoldPass()).ok());
  EXPECT_EQ(t.Count("BatchNormalization"), 1);
}

TEST(FusionConvBnFold, NotWithNonConstantWeights) {
  Tiny t;
  Node* x = t.Data("x", F32({1, 2, 4, 4}));
  Node* w = t.Data("w", F32({2, 2, 1, 1}));
  Node* conv = t.Op("Conv", "conv", {x, w});
  t.Output({t.Op("BatchNormalization", "bn",
                 {conv, t.Const("s", F32s({2}, {1, 2})), t.Const("b", F32s({2}, {0, 0})),
                  t.Const("m", F32s({2}, {0, 0})), t.Const("v", F32s({2}, {1, 1}))})});
  ASSERT_TRUE(t.RunPass(ConvBnFoldPass()).ok());
  EXPECT_EQ(t.Count("BatchNormalization"), 1);
}

// A [2,4] x B -> Gemm(+C) -> BatchNormalization over the 3 columns.
Tiny GemmBn(bool trans_b, bool with_c, Dims c_dims = {3}) {
  Tiny t;
  Node* a = t.Data("a", F32({2, 4}));
  Node* b = t.Const("b", F32s(trans_b ? Dims{3, 4} : Dims{4, 3}, Pseudo(12, 0.2f, -1.f)));
  Node* c = with_c ? t.Const("c", F32s(c_dims, Pseudo(static_cast<size_t>(NumElements(c_dims)), 0.3f, -1.f, 1)))
                   : nullptr;
  Node* gemm = t.Op("Gemm", "gemm", {a, b, c},
                    {{"transB", int64_t{trans_b ? 1 : 0}}, {"alpha", 0.5f}, {"beta", 2.0f}});
  Node* bn = t.Op("BatchNormalization", "bn",
                  {gemm, t.Const("s", F32s({3}, {1.5f, 0.5f, -2.f})), t.Const("bb", F32s({3}, {0.2f, 0.f, -1.f})),
                   t.Const("mean", F32s({3}, {0.3f, -0.1f, 0.7f})), t.Const("var", F32s({3}, {0.8f, 2.f, 0.05f}))},
                  {{"epsilon", 1e-2f}});
  t.Output({bn});
  return t;
}

TEST(FusionGemmBnFold, FoldsIntoBAndC) {
  for (bool tb : {false, true}) {
    for (bool with_c : {false, true}) {
      Tiny t = GemmBn(tb, with_c);
      auto counts = ExpectSameNumerics(t, {Pseudo(8, 0.25f, -1.f)});
      EXPECT_EQ(counts["BatchNormalization"], 0) << "transB=" << tb << " C=" << with_c;
      EXPECT_EQ(counts["Gemm"], 1);
    }
  }
}

TEST(FusionGemmBnFold, FoldsAFullSizeC) {
  Tiny t = GemmBn(false, true, {2, 3});
  ASSERT_TRUE(t.RunPass(GemmBnFoldPass()).ok());
  EXPECT_EQ(t.Count("BatchNormalization"), 0);
  EXPECT_FLOAT_EQ(t.Find("Gemm")->GetFloat("beta", 0.f), 1.f);
  Tiny u = GemmBn(false, true, {2, 3});
  ExpectSameNumerics(u, {Pseudo(8, 0.25f, -1.f)});
}

TEST(FusionGemmBnFold, NotWhenTheGemmHasASecondConsumer) {
  Tiny t;
  Node* a = t.Data("a", F32({2, 4}));
  Node* gemm = t.Op("Gemm", "gemm", {a, t.Const("b", F32s({4, 3}, Pseudo(12)))});
  Node* bn = t.Op("BatchNormalization", "bn",
                  {gemm, t.Const("s", F32s({3}, {1, 2, 3})), t.Const("bb", F32s({3}, {0, 0, 0})),
                   t.Const("m", F32s({3}, {0, 0, 0})), t.Const("v", F32s({3}, {1, 1, 1}))});
  t.Output({bn, gemm});
  ASSERT_TRUE(t.RunPass(GemmBnFoldPass()).ok());
  EXPECT_EQ(t.Count("BatchNormalization"), 1);
}

}  // namespace
}  // namespace ge::fusion_test

namespace ge::fusion_test {
namespace {

TEST(FusionConvBnFold, KeepsTheModelOutputName) {
  ConvBn c;
  c.t.Output({c.bn});
  auto model = Compile(c.t.Clone(), CompileOptions{});
  ASSERT_TRUE(model.ok()) << model.status().message();
  ASSERT_EQ(model->outputs.size(), 1u);
  EXPECT_EQ(model->outputs[0].name, "bn");
}

}  // namespace
}  // namespace ge::fusion_test
