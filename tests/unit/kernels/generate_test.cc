// EyeLike (diagonal k, any output dtype) and OneHot (axis, negative
// indices, out-of-range indices, float indices and depth).
#include "ge_base/float16.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace generate {

hal::Attrs IntAttr(const std::string& k, int64_t v) {
  hal::Attrs a;
  a.Set(k, v);
  return a;
}

TEST(EyeLikeKernel, DiagonalsAboveAndBelow) {
  const auto x = HostTensor::Of<int32_t>(DataType::kInt32, {3, 4}, std::vector<int32_t>(12, 7));
  RUN_OK(main, "EyeLike", {}, {x}, {{DataType::kInt32, {3, 4}}});
  EXPECT_EQ(main[0].as<int32_t>(), (std::vector<int32_t>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
  RUN_OK(up, "EyeLike", IntAttr("k", 2), {x}, {{DataType::kFloat32, {3, 4}}});
  EXPECT_EQ(up[0].as<float>(), (std::vector<float>{0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0}));
  RUN_OK(down, "EyeLike", IntAttr("k", -1), {x}, {{DataType::kFloat64, {3, 4}}});
  EXPECT_EQ(down[0].as<double>(), (std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}));
  RUN_OK(off, "EyeLike", IntAttr("k", 9), {x}, {{DataType::kInt64, {3, 4}}});
  EXPECT_EQ(off[0].as<int64_t>(), std::vector<int64_t>(12, 0));
  RUN_OK(half, "EyeLike", {}, {HostTensor::F32({2, 2}, {5, 5, 5, 5})}, {{DataType::kFloat16, {2, 2}}});
  EXPECT_EQ(half[0].as<uint16_t>(), (std::vector<uint16_t>{FloatToHalf(1), 0, 0, FloatToHalf(1)}));
}

TEST(EyeLikeKernel, RefusesNon2DOutputs) {
  auto r = RunKernel("EyeLike", {}, {HostTensor::F32({4}, {0, 0, 0, 0})}, {{DataType::kFloat32, {4}}});
  EXPECT_TRUE(Refused(r, StatusCode::kInvalidArgument, "output must be 2-D, got [4]"));
}

TEST(OneHotKernel, LastAxisWithNegativeAndOutOfRangeIndices) {
  const auto indices = HostTensor::I64({4}, {0, -1, 3, 2});  // -1 is depth-1; 3 is outside: all off
  RUN_OK(y, "OneHot", {}, {indices, HostTensor::F32({}, {3}), HostTensor::F32({2}, {-1, 5})},
         {{DataType::kFloat32, {4, 3}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, -1, -1, -1, 5}));
}

TEST(OneHotKernel, MiddleAxisFloatIndicesAndIntValues) {
  // indices [2,2] (floats truncate), depth 3 at axis 1 -> [2,3,2].
  const auto indices = HostTensor::F32({2, 2}, {0, 2.7f, 1, 0});
  RUN_OK(y, "OneHot", IntAttr("axis", -2),
         {indices, HostTensor::I64({1}, {3}), HostTensor::Of<int32_t>(DataType::kInt32, {2}, {0, 1})},
         {{DataType::kInt32, {2, 3, 2}}});
  // y[b, d, i] = indices[b, i] == d
  EXPECT_EQ(y[0].as<int32_t>(), (std::vector<int32_t>{1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0}));
}

TEST(OneHotKernel, ADepthOtherThanTheOutputsIsAnError) {
  auto r = RunKernel("OneHot", {}, {HostTensor::I64({1}, {0}), HostTensor::I64({}, {4}), HostTensor::F32({2}, {0, 1})},
                     {{DataType::kFloat32, {1, 3}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "depth 4"));
}

}  // namespace generate
}  // namespace ge::test
