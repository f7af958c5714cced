// Inference of LRN, MeanVarianceNormalization, Hardmax and ReverseSequence:
// each keeps its input's shape and checks its attributes and operands.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(LocalNormOps, LrnAndMvnKeepTheShape) {
  OpGraph lrn("LRN");
  lrn.In(F32({1, 5, 4, 4})).Int("size", 3);
  EXPECT_EQ(InferOut(lrn), "f32[1,5,4,4]");
  OpGraph no_size("LRN");
  no_size.In(F32({1, 5, 4, 4}));
  EXPECT_TRUE(FailsWith(no_size, {"size 0 must be positive"}));
  OpGraph mvn("MeanVarianceNormalization");
  mvn.In(F32({2, 3, 4, 5}));
  EXPECT_EQ(InferOut(mvn), "f32[2,3,4,5]");
  OpGraph axes("MeanVarianceNormalization");
  axes.In(F32({2, 3})).Ints("axes", {0, 2});  // default [0,2,3] does not fit rank 2 either
  EXPECT_TRUE(FailsWith(axes, {"axes"}));
}

TEST(LocalNormOps, HardmaxChecksTheAxis) {
  OpGraph ok("Hardmax");
  ok.In(F32({3, 4, 5})).Int("axis", -3);
  EXPECT_EQ(InferOut(ok), "f32[3,4,5]");
  OpGraph bad("Hardmax");
  bad.In(F32({3, 4})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(bad, {"axis 2"}));
}

TEST(LocalNormOps, ReverseSequenceChecksAxesAndLengths) {
  OpGraph ok("ReverseSequence");
  ok.In(F32({4, 3, 2})).In(I64({3}));
  EXPECT_EQ(InferOut(ok), "f32[4,3,2]");
  OpGraph lens("ReverseSequence");
  lens.In(F32({4, 3})).In(I64({4})).Int("batch_axis", 1).Int("time_axis", 0);
  EXPECT_TRUE(FailsWith(lens, {"batch size 3"}));
  OpGraph axes("ReverseSequence");
  axes.In(F32({4, 3})).In(I64({3})).Int("batch_axis", 1).Int("time_axis", 1);
  EXPECT_TRUE(FailsWith(axes, {"0 and 1"}));
}

}  // namespace
}  // namespace ge::test
