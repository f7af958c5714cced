#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(Conv, ResnetStem) {
  OpGraph g("Conv");
  g.In(F32({1, 3, 224, 224})).Const(F32Zeros({64, 3, 7, 7})).Const(F32Zeros({64}));
  g.Ints("strides", {2, 2}).Ints("pads", {3, 3, 3, 3}).Ints("kernel_shape", {7, 7});
  EXPECT_EQ(InferOut(g), "f32[1,64,112,112]");
}

TEST(Conv, StrideTwoAsymmetricPadsAndGroups) {
  // pads = [h_begin, w_begin, h_end, w_end]; H: (15+1+2-3)/2+1 = 8, W: (18+0+1-3)/2+1 = 9.
  OpGraph g("Conv");
  g.In(F32({1, 8, 15, 18})).In(F32({16, 4, 3, 3})).Int("group", 2);
  g.Ints("strides", {2, 2}).Ints("pads", {1, 0, 2, 1});
  EXPECT_EQ(InferOut(g), "f32[1,16,8,9]");
}

TEST(Conv, DepthwiseAndDilation) {
  OpGraph g("Conv");
  g.In(F32({1, 32, 10, 10})).In(F32({32, 1, 3, 3})).Int("group", 32).Ints("dilations", {2, 2});
  EXPECT_EQ(InferOut(g), "f32[1,32,6,6]");  // window 5 over 10
}

// Input 3 only exists after the conv_post_ops fusion: the residual of
// oneDNN's sum post-op, shaped like the result.
TEST(Conv, AFusedResidualInputMatchesTheResult) {
  OpGraph ok("Conv");
  ok.In(F32({1, 4, 8, 8})).In(F32({8, 4, 3, 3})).In(F32({8})).In(F32({1, 8, 6, 6})).Int("fused_sum", 1);
  EXPECT_EQ(InferOut(ok), "f32[1,8,6,6]");
  OpGraph unfused("Conv");
  unfused.In(F32({1, 4, 8, 8})).In(F32({8, 4, 3, 3})).In(F32({8})).In(F32({1, 8, 6, 6}));
  EXPECT_TRUE(FailsWith(unfused, {"needs the fused_sum attribute"}));
  OpGraph wrong("Conv");
  wrong.In(F32({1, 4, 8, 8})).In(F32({8, 4, 3, 3})).In(F32({8})).In(F32({1, 8, 8, 8})).Int("fused_sum", 1);
  EXPECT_TRUE(FailsWith(wrong, {"the residual f32[1,8,8,8] does not match the result [1,8,6,6]"}));
}

// Input 4 (conv_input_scale): one value per image and input channel.
TEST(Conv, AnInputScaleHasOneValuePerChannel) {
  OpGraph ok("Conv");
  ok.In(F32({1, 4, 8, 8})).In(F32({8, 4, 1, 1})).In(F32({8})).Absent().In(F32({1, 4, 1, 1}));
  EXPECT_EQ(InferOut(ok), "f32[1,8,8,8]");
  OpGraph wrong("Conv");
  wrong.In(F32({1, 4, 8, 8})).In(F32({8, 4, 1, 1})).In(F32({8})).Absent().In(F32({1, 4, 8, 8}));
  EXPECT_TRUE(FailsWith(wrong, {"the input scale f32[1,4,8,8] must be one value per image and channel, [1,4,1,1]"}));
}

TEST(Conv, ChannelsMustMatchWeightsTimesGroup) {
  OpGraph g("Conv", 1, "conv3");
  g.In(F32({1, 8, 16, 16})).In(F32({16, 3, 3, 3})).Int("group", 2);
  EXPECT_TRUE(FailsWith(g, {"node conv3 (Conv)", "input has 8 channels", "[16,3,3,3]", "group 2 expect 6"}));
}

TEST(Conv, OutputChannelsMustDivideIntoGroups) {
  OpGraph g("Conv");
  g.In(F32({1, 8, 16, 16})).In(F32({6, 2, 3, 3})).Int("group", 4);
  EXPECT_TRUE(FailsWith(g, {"6 output channels do not divide into group 4"}));
}

TEST(Conv, BiasMustHaveOneValuePerOutputChannel) {
  OpGraph g("Conv");
  g.In(F32({1, 3, 8, 8})).In(F32({4, 3, 3, 3})).In(F32({5}));
  EXPECT_TRUE(FailsWith(g, {"bias f32[5] must be 1-D with 4 output channels"}));
}

TEST(Conv, AutoPadSameUpperWithOddSize) {
  OpGraph g("Conv");
  g.In(F32({1, 3, 7, 7})).In(F32({4, 3, 3, 3})).Ints("strides", {2, 2}).Attr("auto_pad", std::string("SAME_UPPER"));
  EXPECT_EQ(InferOut(g), "f32[1,4,4,4]");  // ceil(7 / 2)
  OpGraph lower("Conv");
  lower.In(F32({1, 3, 7, 7})).In(F32({4, 3, 2, 2})).Attr("auto_pad", std::string("SAME_LOWER"));
  EXPECT_EQ(InferOut(lower), "f32[1,4,7,7]");
}

TEST(Conv, AutoPadValidIgnoresPads) {
  OpGraph g("Conv");
  g.In(F32({1, 3, 7, 7})).In(F32({4, 3, 3, 3})).Ints("strides", {2, 2}).Ints("pads", {5, 5, 5, 5});
  g.Attr("auto_pad", std::string("VALID"));
  EXPECT_EQ(InferOut(g), "f32[1,4,3,3]");
}

TEST(Conv, OneDimensionalAndThreeDimensional) {
  OpGraph c1("Conv");
  c1.In(F32({2, 4, 100})).In(F32({8, 4, 5})).Ints("strides", {3});
  EXPECT_EQ(InferOut(c1), "f32[2,8,32]");
  OpGraph c3("Conv");
  c3.In(F32({1, 2, 8, 8, 8})).In(F32({4, 2, 3, 3, 3})).Ints("pads", {1, 1, 1, 1, 1, 1});
  EXPECT_EQ(InferOut(c3), "f32[1,4,8,8,8]");
}

TEST(Conv, UnknownDimsPropagate) {
  OpGraph g("Conv");
  g.In(F32({-1, 3, -1, 224})).In(F32({64, 3, 7, 7})).Ints("strides", {2, 2}).Ints("pads", {3, 3, 3, 3});
  EXPECT_EQ(InferOut(g), "f32[?,64,?,112]");
  OpGraph r("Conv");
  r.In(F32({kUnknownRank})).In(F32({64, 3, 3, 3}));
  EXPECT_EQ(InferOut(r), "f32[?,64,?,?]");
  OpGraph both("Conv");
  both.In(F32({kUnknownRank})).In(F32({kUnknownRank}));
  EXPECT_EQ(InferOut(both), "f32[*]");
}

TEST(Conv, WindowLargerThanInputFails) {
  OpGraph g("Conv");
  g.In(F32({1, 3, 2, 2})).In(F32({4, 3, 3, 3}));
  EXPECT_TRUE(FailsWith(g, {"window of 3", "does not fit the padded input of 2", "spatial axis 0"}));
}

TEST(Conv, BadAttributesFail) {
  OpGraph rank("Conv");
  rank.In(F32({3, 8})).In(F32({4, 3}));
  EXPECT_TRUE(FailsWith(rank, {"must be N x C x spatial", "rank 2"}));
  OpGraph strides("Conv");
  strides.In(F32({1, 3, 8, 8})).In(F32({4, 3, 3, 3})).Ints("strides", {2});
  EXPECT_TRUE(FailsWith(strides, {"strides has 1 values for 2 spatial axes"}));
  OpGraph zero("Conv");
  zero.In(F32({1, 3, 8, 8})).In(F32({4, 3, 3, 3})).Ints("strides", {0, 1});
  EXPECT_TRUE(FailsWith(zero, {"stride 0 on spatial axis 0 must be positive"}));
  OpGraph pad("Conv");
  pad.In(F32({1, 3, 8, 8})).In(F32({4, 3, 3, 3})).Attr("auto_pad", std::string("SAME"));
  EXPECT_TRUE(FailsWith(pad, {"auto_pad 'SAME'"}));
  OpGraph ks("Conv");
  ks.In(F32({1, 3, 8, 8})).In(F32({4, 3, 3, 3})).Ints("kernel_shape", {5, 5});
  EXPECT_TRUE(FailsWith(ks, {"kernel_shape [5,5] disagrees with weights f32[4,3,3,3]"}));
  OpGraph dt("Conv");
  dt.In(F32({1, 3, 8, 8})).In(TensorDesc(DataType::kFloat16, {4, 3, 3, 3}));
  EXPECT_TRUE(FailsWith(dt, {"input 0 is f32 and input 1 is f16"}));
}

TEST(ConvTranspose, StrideTwoWithOutputPaddingAndGroups) {
  // 2*(4-1) + 1 + 3 - 2 = 8; output channels 3 * group 2.
  OpGraph g("ConvTranspose");
  g.In(F32({1, 8, 4, 4})).In(F32({8, 3, 3, 3})).Int("group", 2);
  g.Ints("strides", {2, 2}).Ints("pads", {1, 1, 1, 1}).Ints("output_padding", {1, 1});
  EXPECT_EQ(InferOut(g), "f32[1,6,8,8]");
}

TEST(ConvTranspose, OutputShapeAndSamePadding) {
  OpGraph g("ConvTranspose");
  g.In(F32({1, 8, 4, 4})).In(F32({8, 3, 3, 3})).Ints("strides", {2, 2}).Ints("output_shape", {9, 10});
  EXPECT_EQ(InferOut(g), "f32[1,3,9,10]");
  OpGraph s("ConvTranspose");
  s.In(F32({1, 8, 5, 5})).In(F32({8, 3, 3, 3})).Ints("strides", {2, 2}).Attr("auto_pad", std::string("SAME_UPPER"));
  EXPECT_EQ(InferOut(s), "f32[1,3,10,10]");
}

TEST(ConvTranspose, ChannelsMustMatchWeights) {
  OpGraph g("ConvTranspose", 1, "deconv");
  g.In(F32({1, 8, 4, 4})).In(F32({4, 3, 3, 3}));
  EXPECT_TRUE(FailsWith(g, {"node deconv (ConvTranspose)", "input has 8 channels", "expect 4"}));
}

}  // namespace
}  // namespace ge::test
