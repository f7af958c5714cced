#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(GridSample, OutputTakesTheGridsSize) {
  OpGraph g("GridSample");
  g.In(F32({2, 3, 8, 8})).In(F32({2, 4, 5, 2}));
  EXPECT_EQ(InferOut(g), "f32[2,3,4,5]");
  OpGraph mode("GridSample", 1, "gs");
  mode.In(F32({1, 1, 2, 2})).In(F32({1, 1, 1, 2})).Attr("mode", std::string("linear"));
  EXPECT_TRUE(FailsWith(mode, {"node gs (GridSample)", "mode 'linear'"}));
  OpGraph grid("GridSample");
  grid.In(F32({1, 1, 2, 2})).In(F32({1, 1, 1, 3}));
  EXPECT_TRUE(FailsWith(grid, {"grid must be N x H_out x W_out x 2"}));
}

TEST(RoiAlign, OutputPerRoi) {
  OpGraph g("RoiAlign");
  g.In(F32({1, 3, 10, 10})).In(F32({5, 4})).In(I64({5})).Int("output_height", 2).Int("output_width", 3);
  EXPECT_EQ(InferOut(g), "f32[5,3,2,3]");
  OpGraph bad("RoiAlign");
  bad.In(F32({1, 3, 10, 10})).In(F32({5, 5})).In(I64({5}));
  EXPECT_TRUE(FailsWith(bad, {"rois must be num_rois x 4"}));
}

TEST(Det, DropsTheMatrixDims) {
  OpGraph g("Det");
  g.In(F32({3, 2, 2}));
  EXPECT_EQ(InferOut(g), "f32[3]");
  OpGraph bad("Det");
  bad.In(F32({2, 3}));
  EXPECT_TRUE(FailsWith(bad, {"must be [..., M, M]"}));
}

TEST(SignalOps, ShapesFromValues) {
  OpGraph w("HannWindow");
  w.Const(I64Scalar(10)).Int("output_datatype", 11);
  EXPECT_EQ(InferOut(w), "f64[10]");
  OpGraph unknown("BlackmanWindow");
  unknown.In(I64({}));
  EXPECT_EQ(InferOut(unknown), "f32[?]");
  OpGraph mel("MelWeightMatrix");
  mel.Const(I64Scalar(8)).Const(I64Scalar(16)).Const(I64Scalar(8192)).In(F32({})).In(F32({}));
  EXPECT_EQ(InferOut(mel), "f32[9,8]");
  OpGraph dft("DFT");
  dft.In(F32({1, 10, 10, 1})).Int("axis", 2);
  EXPECT_EQ(InferOut(dft), "f32[1,10,10,2]");
  OpGraph one("DFT");
  one.In(F32({1, 10, 10, 1})).Int("axis", -3).Int("onesided", 1);
  EXPECT_EQ(InferOut(one), "f32[1,6,10,2]");
  OpGraph axis("DFT");
  axis.In(F32({1, 10, 1})).Int("axis", -1);
  EXPECT_TRUE(FailsWith(axis, {"axis -1 is out of range"}));
  OpGraph stft("STFT");
  stft.In(F32({1, 128, 1})).Const(I64Scalar(8)).In(F32({16}));
  EXPECT_EQ(InferOut(stft), "f32[1,15,9,2]");
  OpGraph dyn("STFT");
  dyn.In(F32({1, 128, 1})).In(I64({})).Absent().Const(I64Scalar(16));
  EXPECT_EQ(InferOut(dyn), "f32[1,?,9,2]");
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

TEST(MaxUnpool, OutputShape) {
  OpGraph g("MaxUnpool");
  g.In(F32({1, 1, 2, 2})).In(I64({1, 1, 2, 2})).Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2});
  EXPECT_EQ(InferOut(g), "f32[1,1,4,4]");
  OpGraph given("MaxUnpool");
  given.In(F32({1, 1, 2, 2})).In(I64({1, 1, 2, 2})).Const(I64s({1, 1, 5, 5})).Ints("kernel_shape", {2, 2});
  EXPECT_EQ(InferOut(given), "f32[1,1,5,5]");
  OpGraph dyn("MaxUnpool");
  dyn.In(F32({1, 1, 2, 2})).In(I64({1, 1, 2, 2})).In(I64({4})).Ints("kernel_shape", {2, 2});
  EXPECT_EQ(InferOut(dyn), "f32[?,?,?,?]");
  OpGraph bad("MaxUnpool", 1, "mu");
  bad.In(F32({1, 1, 2, 2})).In(I64({1, 1, 2, 1})).Ints("kernel_shape", {2, 2});
  EXPECT_TRUE(FailsWith(bad, {"node mu (MaxUnpool)", "must have X's shape"}));
}

}  // namespace
}  // namespace ge::test
