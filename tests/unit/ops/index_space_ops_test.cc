// Shape inference of CumSum, TopK, SpaceToBatchND and BatchToSpaceND: the
// shapes they make and the errors that name the node.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(CumSum, KeepsTheShapeAndChecksTheAxis) {
  OpGraph g("CumSum");
  g.In(F32({2, 3})).Const(I64Scalar(-1));
  EXPECT_EQ(InferOut(g), "f32[2,3]");
  OpGraph bad("CumSum");
  bad.In(F32({2, 3})).Const(I64Scalar(2));
  EXPECT_TRUE(FailsWith(bad, {"axis 2"}));
  OpGraph two("CumSum");
  two.In(F32({2, 3})).Const(I64s({0, 1}));
  EXPECT_TRUE(FailsWith(two, {"one value"}));
}

TEST(TopK, ValuesAndInt64IndicesOfSizeK) {
  OpGraph g("TopK", 2);
  g.In(F32({2, 5})).Const(I64s({3}));
  EXPECT_EQ(InferOut(g, 0), "f32[2,3]");
  EXPECT_EQ(InferOut(g, 1), "i64[2,3]");
  OpGraph computed("TopK", 2);
  computed.In(F32({2, 5})).In(I64({1})).Int("axis", 0);
  EXPECT_EQ(InferOut(computed, 1), "i64[?,5]");
  OpGraph big("TopK", 2);
  big.In(F32({2, 5})).Const(I64s({6}));
  EXPECT_TRUE(FailsWith(big, {"k 6 is out of range"}));
}

TEST(SpaceToBatchND, PadsThenMovesBlocksIntoTheBatch) {
  OpGraph g("SpaceToBatchND");
  g.In(F32({2, 3, 7, 8})).Ints("block_shape", {2, 2}).Ints("pads", {2, 2, 3, 2});
  EXPECT_EQ(InferOut(g), "f32[8,3,6,6]");
  OpGraph odd("SpaceToBatchND");
  odd.In(F32({1, 3, 7, 8})).Ints("block_shape", {2, 2});
  EXPECT_TRUE(FailsWith(odd, {"not a multiple of the block 2"}));
  OpGraph no_block("SpaceToBatchND");
  no_block.In(F32({1, 3, 8, 8}));
  EXPECT_TRUE(FailsWith(no_block, {"block_shape"}));
}

TEST(BatchToSpaceND, MovesTheBatchBackAndCrops) {
  OpGraph g("BatchToSpaceND");
  g.In(F32({8, 3, 6, 6})).Ints("block_shape", {2, 2}).Ints("crops", {0, 0, 1, 0});
  EXPECT_EQ(InferOut(g), "f32[2,3,11,12]");
  OpGraph bad("BatchToSpaceND");
  bad.In(F32({6, 3, 6, 6})).Ints("block_shape", {2, 2});
  EXPECT_TRUE(FailsWith(bad, {"batch 6 is not a multiple of the block size 4"}));
}

}  // namespace
}  // namespace ge::test
