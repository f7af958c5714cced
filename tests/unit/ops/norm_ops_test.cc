#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(BatchNormalization, InferenceModeKeepsShape) {
  OpGraph g("BatchNormalization");
  g.In(F32({-1, 64, 56, 56}));
  for (int i = 0; i < 4; ++i) g.Const(F32Zeros({64}));
  EXPECT_EQ(InferOut(g), "f32[?,64,56,56]");
}

TEST(BatchNormalization, TrainingOutputsArePerChannel) {
  OpGraph g("BatchNormalization", 3);
  g.In(F32({8, 16, 4, 4}));
  for (int i = 0; i < 4; ++i) g.In(F32({16}));
  g.Int("training_mode", 1);
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Out(1), "f32[16]");
  EXPECT_EQ(g.Out(2), "f32[16]");
}

TEST(BatchNormalization, StatisticsMustMatchChannels) {
  OpGraph g("BatchNormalization", 1, "bn1");
  g.In(F32({1, 64, 8, 8})).In(F32({64})).In(F32({64})).In(F32({32})).In(F32({64}));
  EXPECT_TRUE(FailsWith(g, {"node bn1 (BatchNormalization)", "mean (input 3) is f32[32]", "64 channels"}));
  OpGraph four("BatchNormalization");
  four.In(F32({1, 64, 8, 8})).In(F32({64})).In(F32({64})).In(F32({64}));
  EXPECT_TRUE(FailsWith(four, {"takes 5..5 inputs, has 4"}));
}

TEST(LayerNormalization, StatisticsKeepLeadingDims) {
  OpGraph g("LayerNormalization", 3);
  g.In(F32({2, -1, 768})).In(F32({768})).In(F32({768}));
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Out(0), "f32[2,?,768]");
  EXPECT_EQ(g.Out(1), "f32[2,?,1]");
  EXPECT_EQ(g.Out(2), "f32[2,?,1]");
  OpGraph a("LayerNormalization", 2);
  a.In(TensorDesc(DataType::kFloat16, {2, 3, 4, 5})).In(TensorDesc(DataType::kFloat16, {4, 5})).Int("axis", -2);
  ASSERT_TRUE(a.Infer().ok());
  EXPECT_EQ(a.Out(1), "f32[2,3,1,1]");  // stash_type 1: float
}

TEST(LayerNormalization, ScaleMustFitTheNormalizedShape) {
  OpGraph g("LayerNormalization");
  g.In(F32({2, 8, 768})).In(F32({512}));
  EXPECT_TRUE(FailsWith(g, {"do not broadcast"}));
  OpGraph axis("LayerNormalization");
  axis.In(F32({2, 8})).In(F32({8})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(axis, {"axis 2 is out of range for rank 2"}));
}

TEST(InstanceNormalization, ShapeAndChannelCheck) {
  OpGraph g("InstanceNormalization");
  g.In(F32({1, 32, 20, 20})).In(F32({32})).In(F32({32}));
  EXPECT_EQ(InferOut(g), "f32[1,32,20,20]");
  OpGraph bad("InstanceNormalization");
  bad.In(F32({1, 32, 20, 20})).In(F32({16})).In(F32({32}));
  EXPECT_TRUE(FailsWith(bad, {"scale (input 1) is f32[16]", "32 channels"}));
}

TEST(Softmax, Opset11DefaultsToAxisOne) {
  // Opset 11's default axis 1 does not exist on a 1-D input; opset 13's -1 does.
  OpGraph v11("Softmax", 1, "sm");
  v11.In(F32({10})).Opset(11);
  EXPECT_TRUE(FailsWith(v11, {"node sm (Softmax)", "axis 1 is out of range for rank 1"}));
  OpGraph v13("Softmax");
  v13.In(F32({10})).Opset(13);
  EXPECT_EQ(InferOut(v13), "f32[10]");
  OpGraph none("Softmax");
  none.In(F32({10}));
  EXPECT_EQ(InferOut(none), "f32[10]");  // no opset: 13's semantics
}

TEST(Softmax, ShapeIsKeptInBothOpsets) {
  for (int64_t opset : {11, 13}) {
    OpGraph g("LogSoftmax");
    g.In(F32({-1, 12, 128, 128})).Opset(opset);
    EXPECT_EQ(InferOut(g), "f32[?,12,128,128]") << opset;
  }
  OpGraph bad("Softmax");
  bad.In(F32({2, 3})).Int("axis", -3);
  EXPECT_TRUE(FailsWith(bad, {"axis -3 is out of range for rank 2"}));
  OpGraph ints("Softmax");
  ints.In(I64({2, 3}));
  EXPECT_TRUE(FailsWith(ints, {"must be floating point"}));
}

}  // namespace
}  // namespace ge::test
