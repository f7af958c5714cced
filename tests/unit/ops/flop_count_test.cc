// FlopCount on one op at a time, shapes small enough to count by hand in
// the comments (a multiply-add is 2 FLOPs; ge/ops/flop_count.h).
#include "ge/ops/flop_count.h"

#include "ops_test_util.h"

namespace ge::test {
namespace {

int64_t Flops(OpGraph& g) {
  EXPECT_TRUE(g.Infer().ok());
  return FlopCount(*g.node()).value_or(-1);
}

TEST(FlopCount, ConvWithBias) {
  // out [1,8,6,6] = 288 values, each 4*3*3 = 36 multiply-adds: 2*288*36 + 288 for the bias.
  OpGraph g("Conv");
  g.In(F32({1, 4, 8, 8})).In(F32({8, 4, 3, 3})).In(F32({8}));
  EXPECT_EQ(Flops(g), 2 * 288 * 36 + 288);
}

TEST(FlopCount, GroupedConvCountsItsGroupsChannelsOnly) {
  // out [1,16,8,9] = 1152 values, each over C_in/group = 4 channels * 3*3.
  OpGraph g("Conv");
  g.In(F32({1, 8, 15, 18})).In(F32({16, 4, 3, 3})).Int("group", 2);
  g.Ints("strides", {2, 2}).Ints("pads", {1, 0, 2, 1});
  EXPECT_EQ(Flops(g), 2 * 1152 * 36);
}

TEST(FlopCount, DepthwiseConvIsOneChannelPerOutput) {
  // out [1,32,6,6] = 1152 values, each 1 channel * 3*3 (dilation does not add work).
  OpGraph g("Conv");
  g.In(F32({1, 32, 10, 10})).In(F32({32, 1, 3, 3})).Int("group", 32).Ints("dilations", {2, 2});
  EXPECT_EQ(Flops(g), 2 * 1152 * 9);
}

TEST(FlopCount, FusedPostOpsAddOnePerOutputEach) {
  // As ConvWithBias, with a fused residual (input 3) and a fused activation.
  OpGraph g("Conv");
  g.In(F32({1, 4, 8, 8})).In(F32({8, 4, 3, 3})).In(F32({8})).In(F32({1, 8, 6, 6})).Int("fused_sum", 1);
  g.Attr("activation", std::string("Relu"));
  EXPECT_EQ(Flops(g), 2 * 288 * 36 + 3 * 288);
}

TEST(FlopCount, ConvTransposeScattersEachInput) {
  // in [1,2,3,3] = 18 values, each meets C_out/group * 3*3 = 4*9 weights; out [1,4,5,5].
  OpGraph g("ConvTranspose");
  g.In(F32({1, 2, 3, 3})).In(F32({2, 4, 3, 3}));
  EXPECT_EQ(Flops(g), 2 * 18 * 36);
}

TEST(FlopCount, BatchedAndBroadcastMatMul) {
  OpGraph batched("MatMul");  // out [2,3,4,6] = 144 dot products of length 5
  batched.In(F32({2, 3, 4, 5})).In(F32({2, 3, 5, 6}));
  EXPECT_EQ(Flops(batched), 2 * 144 * 5);
  OpGraph broadcast("MatMul");  // out [2,4,6] = 48 of length 5
  broadcast.In(F32({2, 4, 5})).In(F32({5, 6}));
  EXPECT_EQ(Flops(broadcast), 2 * 48 * 5);
}

TEST(FlopCount, GemmTransposedAWithC) {
  // A [5,3] transposed: M=3, K=5; out [3,4] = 12, plus C added to each.
  OpGraph g("Gemm");
  g.In(F32({5, 3})).In(F32({5, 4})).In(F32({4})).Int("transA", 1);
  EXPECT_EQ(Flops(g), 2 * 12 * 5 + 12);
}

TEST(FlopCount, PoolingPerWindowElement) {
  OpGraph max("MaxPool");  // out [1,2,2,2] = 8 windows of 2*2
  max.In(F32({1, 2, 4, 4})).Ints("kernel_shape", {2, 2}).Ints("strides", {2, 2});
  EXPECT_EQ(Flops(max), 8 * 4);
  OpGraph global("GlobalAveragePool");  // every input element once
  global.In(F32({1, 3, 4, 4}));
  EXPECT_EQ(Flops(global), 48);
}

TEST(FlopCount, ElementwiseNormsAndSoftmax) {
  OpGraph add("Add");  // broadcast [2,3] + [3]: one per output
  add.In(F32({2, 3})).In(F32({3}));
  EXPECT_EQ(Flops(add), 6);
  OpGraph relu("Relu");
  relu.In(F32({2, 3}));
  EXPECT_EQ(Flops(relu), 6);
  OpGraph softmax("Softmax");  // max, subtract, exp, sum, divide
  softmax.In(F32({2, 3}));
  EXPECT_EQ(Flops(softmax), 30);
  OpGraph ln("LayerNormalization");  // 5 per element + scale + bias
  ln.In(F32({2, 4})).In(F32({4})).In(F32({4}));
  EXPECT_EQ(Flops(ln), 8 * 7);
  OpGraph bn("BatchNormalization");  // scale and shift
  bn.In(F32({1, 2, 2, 2})).In(F32({2})).In(F32({2})).In(F32({2})).In(F32({2}));
  EXPECT_EQ(Flops(bn), 16);
}

TEST(FlopCount, DataMovementIsFreeAndUnknownShapesAreUnknown) {
  OpGraph t("Transpose");
  t.In(F32({2, 3})).Ints("perm", {1, 0});
  EXPECT_EQ(Flops(t), 0);
  OpGraph dynamic("Conv");
  dynamic.In(F32({-1, 4, 8, 8})).In(F32({8, 4, 3, 3}));
  ASSERT_TRUE(dynamic.Infer().ok());
  EXPECT_FALSE(FlopCount(*dynamic.node()).has_value());
}

TEST(FlopCount, GraphRowsSkipIoAndSumToTheTotal) {
  OpGraph g("Relu");
  g.In(F32({2, 3}));
  ASSERT_TRUE(g.Infer().ok());
  const std::vector<NodeFlops> rows = CountGraphFlops(g.graph());
  ASSERT_EQ(rows.size(), 1u);  // Data and NetOutput left out
  EXPECT_EQ(rows[0].name, "op");
  EXPECT_EQ(rows[0].type, "Relu");
  EXPECT_EQ(TotalFlops(rows), 6);
}

}  // namespace
}  // namespace ge::test
