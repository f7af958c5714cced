// Inference of EyeLike (the input's 2-D shape, the dtype attribute or the
// input's dtype) and OneHot (depth inserted at the axis when its value is
// known, unknown otherwise; the values' dtype).
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(GenerateOps, EyeLikeTakesShapeAndOptionalDtype) {
  OpGraph same("EyeLike");
  same.In(I64({3, 4}));
  EXPECT_EQ(InferOut(same), "i64[3,4]");
  OpGraph f64("EyeLike");
  f64.In(I64({3, 4})).Int("dtype", 11);
  EXPECT_EQ(InferOut(f64), "f64[3,4]");
  OpGraph rank3("EyeLike");
  rank3.In(F32({2, 2, 2}));
  EXPECT_TRUE(FailsWith(rank3, {"must be 2-D"}));
}

TEST(GenerateOps, OneHotInsertsAKnownDepthAtTheAxis) {
  OpGraph last("OneHot");
  last.In(I64({2, 3})).Const(I64Scalar(10)).In(F32({2}));
  EXPECT_EQ(InferOut(last), "f32[2,3,10]");
  OpGraph mid("OneHot");
  mid.In(F32({2, 3})).Const(F32Scalar(4)).In(I64({2})).Int("axis", -2);
  EXPECT_EQ(InferOut(mid), "i64[2,4,3]");
  OpGraph runtime("OneHot");
  runtime.In(I64({5})).In(F32({})).In(F32({2})).Int("axis", 0);
  EXPECT_EQ(InferOut(runtime), "f32[?,5]");
}

TEST(GenerateOps, OneHotRefusesBadOperands) {
  OpGraph values("OneHot");
  values.In(I64({3})).Const(I64Scalar(4)).In(F32({3}));
  EXPECT_TRUE(FailsWith(values, {"[off_value, on_value]"}));
  OpGraph depth("OneHot");
  depth.In(I64({3})).Const(I64Scalar(0)).In(F32({2}));
  EXPECT_TRUE(FailsWith(depth, {"depth 0 must be positive"}));
  OpGraph axis("OneHot");
  axis.In(I64({3})).Const(I64Scalar(4)).In(F32({2})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(axis, {"axis 2"}));
}

}  // namespace
}  // namespace ge::test
