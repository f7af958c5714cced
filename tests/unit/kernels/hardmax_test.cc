// Hardmax: one 1 per slice along the axis at the first maximum; opset 13
// takes one axis, older opsets flatten to 2-D at the axis.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace hardmax {

hal::Attrs AxisOpset(int64_t axis, int64_t opset) {
  hal::Attrs a;
  a.Set("axis", axis);
  a.Set("_opset", opset);
  return a;
}

TEST(HardmaxKernel, LastAxisFirstMaximumWinsTies) {
  RUN_OK(y, "Hardmax", {}, {HostTensor::F32({2, 4}, {3, 1, 3, 2, -1, -5, 0, -0.5f})}, {{DataType::kFloat32, {2, 4}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{1, 0, 0, 0, 0, 0, 1, 0}));
}

TEST(HardmaxKernel, AxisZeroAndNegativeAxis) {
  const auto x = HostTensor::F32({2, 3}, {1, 5, 2, 4, 0, 2});
  RUN_OK(a0, "Hardmax", AxisOpset(0, 13), {x}, {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(a0[0].as<float>(), (std::vector<float>{0, 1, 1, 1, 0, 0}));
  RUN_OK(neg, "Hardmax", AxisOpset(-2, 13), {x}, {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(neg[0].as<float>(), a0[0].as<float>());
}

TEST(HardmaxKernel, LegacyOpsetFlattensFromTheAxis) {
  // Opset 11, axis 1 on [2,2,2]: one maximum per row of 4, not per pair.
  const auto x = HostTensor::F32({2, 2, 2}, {1, 2, 4, 3, 9, 0, 0, 9});
  RUN_OK(old, "Hardmax", AxisOpset(1, 11), {x}, {{DataType::kFloat32, {2, 2, 2}}});
  EXPECT_EQ(old[0].as<float>(), (std::vector<float>{0, 0, 1, 0, 1, 0, 0, 0}));
  RUN_OK(now, "Hardmax", AxisOpset(1, 13), {x}, {{DataType::kFloat32, {2, 2, 2}}});
  EXPECT_EQ(now[0].as<float>(), (std::vector<float>{0, 0, 1, 1, 1, 0, 0, 1}));
}

TEST(HardmaxKernel, RejectsAnAxisOutOfRange) {
  auto r = RunKernel("Hardmax", AxisOpset(2, 13), {HostTensor::F32({2, 2}, {1, 2, 3, 4})}, {{DataType::kFloat32, {2, 2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "axis"));
}

}  // namespace hardmax
}  // namespace ge::test
