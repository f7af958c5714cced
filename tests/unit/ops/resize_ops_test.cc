#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(ResizeOp, SizeFromScalesOrSizes) {
  OpGraph s("Resize");
  s.In(F32({1, 3, 4, 5})).Absent().Const(Tensor::FromVector<float>(DataType::kFloat32, {4}, {1, 1, 0.6f, 2.5f}));
  EXPECT_EQ(InferOut(s), "f32[1,3,2,12]");  // floor(4*0.6f), floor(5*2.5)
  OpGraph z("Resize");
  z.In(F32({1, 3, 4, 5})).Absent().Absent().Const(Tensor::FromVector<int64_t>(DataType::kInt64, {4}, {1, 3, 9, 7}));
  EXPECT_EQ(InferOut(z), "f32[1,3,9,7]");
}

TEST(ResizeOp, RuntimeValuesGiveUnknownDims) {
  OpGraph g("Resize");
  g.In(F32({1, 3, 4, 5})).Absent().In(F32({4}));
  EXPECT_EQ(InferOut(g), "f32[?,?,?,?]");
}

TEST(ResizeOp, RefusesBadOperandsAndOpset18Options) {
  OpGraph n("Resize", 1, "r");
  n.In(F32({2, 2})).Absent().Const(Tensor::FromVector<float>(DataType::kFloat32, {3}, {1, 1, 1}));
  EXPECT_TRUE(FailsWith(n, {"node r (Resize)", "scales has 3 values for rank 2"}));
  OpGraph neg("Resize", 1, "r");
  neg.In(F32({2, 2})).Absent().Const(Tensor::FromVector<float>(DataType::kFloat32, {2}, {1, -2}));
  EXPECT_TRUE(FailsWith(neg, {"positive"}));
  OpGraph aa("Resize", 1, "r");
  aa.In(F32({2, 2})).Absent().Const(Tensor::FromVector<float>(DataType::kFloat32, {2}, {1, 2})).Int("antialias", 1);
  EXPECT_TRUE(FailsWith(aa, {"antialias=1 is not supported"}, StatusCode::kUnsupported));
}

}  // namespace
}  // namespace ge::test
