#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(MaxPool, ResnetPool) {
  OpGraph g("MaxPool");
  g.In(F32({1, 64, 112, 112})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2}).Ints("pads", {1, 1, 1, 1});
  EXPECT_EQ(InferOut(g), "f32[1,64,56,56]");
}

TEST(MaxPool, CeilModeSqueezenet) {
  OpGraph g("MaxPool");
  g.In(F32({1, 96, 113, 113})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2}).Int("ceil_mode", 1);
  EXPECT_EQ(InferOut(g), "f32[1,96,56,56]");
}

TEST(MaxPool, CeilModeRoundsUp) {
  // (112-3)/2 = 54.5: floor gives 55 windows, ceil 56.
  OpGraph floor_mode("MaxPool");
  floor_mode.In(F32({1, 1, 112, 112})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2});
  EXPECT_EQ(InferOut(floor_mode), "f32[1,1,55,55]");
  OpGraph ceil_mode("MaxPool");
  ceil_mode.In(F32({1, 1, 112, 112})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2}).Int("ceil_mode", 1);
  EXPECT_EQ(InferOut(ceil_mode), "f32[1,1,56,56]");
}

TEST(MaxPool, CeilModeDropsAWindowStartingInTheRightPadding) {
  // in 5, pads 1+1, k 2, s 2: ceil((5+2-2)/2)+1 = 4, but window 4 would start at 6 >= 5+1.
  OpGraph g("MaxPool");
  g.In(F32({1, 1, 5, 5})).Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2}).Ints("pads", {1, 1, 1, 1});
  g.Int("ceil_mode", 1);
  EXPECT_EQ(InferOut(g), "f32[1,1,3,3]");
}

TEST(MaxPool, IndicesOutputIsInt64) {
  OpGraph g("MaxPool", 2);
  g.In(F32({2, 3, 8, 8})).Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2});
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(g.Out(0), "f32[2,3,4,4]");
  EXPECT_EQ(g.Out(1), "i64[2,3,4,4]");
}

TEST(MaxPool, SameUpperOddSize) {
  OpGraph g("MaxPool");
  g.In(F32({1, 4, 7, 9})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2});
  g.Attr("auto_pad", std::string("SAME_UPPER"));
  EXPECT_EQ(InferOut(g), "f32[1,4,4,5]");
}

TEST(MaxPool, NeedsKernelShape) {
  OpGraph g("MaxPool", 1, "pool1");
  g.In(F32({1, 4, 8, 8}));
  EXPECT_TRUE(FailsWith(g, {"node pool1 (MaxPool)", "needs attribute 'kernel_shape'"}));
}

TEST(MaxPool, UnknownDims) {
  OpGraph g("MaxPool");
  g.In(F32({-1, 4, -1, 8})).Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2});
  EXPECT_EQ(InferOut(g), "f32[?,4,?,4]");
  OpGraph r("MaxPool");
  r.In(F32({kUnknownRank})).Ints("kernel_shape", {2, 2});
  EXPECT_EQ(InferOut(r), "f32[?,?,?,?]");
}

TEST(AveragePool, PadsAndStrides) {
  OpGraph g("AveragePool");
  g.In(F32({1, 8, 10, 10})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2}).Ints("pads", {0, 0, 1, 1});
  EXPECT_EQ(InferOut(g), "f32[1,8,5,5]");
  OpGraph big("AveragePool");
  big.In(F32({1, 8, 2, 2})).Ints("kernel_shape", {3, 3});
  EXPECT_TRUE(FailsWith(big, {"does not fit the padded input of 2"}));
}

TEST(GlobalPools, ReduceSpatialToOne) {
  for (const char* t : {"GlobalAveragePool", "GlobalMaxPool"}) {
    OpGraph g(t);
    g.In(F32({2, 512, 7, 7}));
    EXPECT_EQ(InferOut(g), "f32[2,512,1,1]") << t;
    OpGraph u(t);
    u.In(F32({-1, 512, -1, -1, -1}));
    EXPECT_EQ(InferOut(u), "f32[?,512,1,1,1]") << t;
    OpGraph bad(t);
    bad.In(F32({2, 512}));
    EXPECT_TRUE(FailsWith(bad, {"must be N x C x spatial"})) << t;
  }
}

TEST(LpOps, LpPoolIsWindowedGlobalLpPoolKeepsNC) {
  OpGraph g("LpPool");
  g.In(F32({1, 2, 7, 7})).Ints("kernel_shape", {3, 3}).Ints("strides", {2, 2});
  EXPECT_EQ(InferOut(g), "f32[1,2,3,3]");
  OpGraph global("GlobalLpPool");
  global.In(F32({2, 3, 5, 4}));
  EXPECT_EQ(InferOut(global), "f32[2,3,1,1]");
  OpGraph norm("LpNormalization", 1, "ln");
  norm.In(F32({2, 3})).Int("p", 3);
  EXPECT_TRUE(FailsWith(norm, {"node ln (LpNormalization)", "p must be 1 or 2"}));
}

TEST(LpOps, MaxRoiPoolOutputPerRoi) {
  OpGraph g("MaxRoiPool");
  g.In(F32({1, 8, 16, 16})).In(F32({4, 5})).Ints("pooled_shape", {2, 3});
  EXPECT_EQ(InferOut(g), "f32[4,8,2,3]");
  OpGraph bad("MaxRoiPool");
  bad.In(F32({1, 8, 16, 16})).In(F32({4, 4})).Ints("pooled_shape", {2, 3});
  EXPECT_TRUE(FailsWith(bad, {"rois must be [num_rois, 5]"}));
  OpGraph none("MaxRoiPool");
  none.In(F32({1, 8, 16, 16})).In(F32({4, 5}));
  EXPECT_TRUE(FailsWith(none, {"pooled_shape"}));
}

}  // namespace
}  // namespace ge::test
