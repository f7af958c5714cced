// Resize kernel on hand-computed cases: each mode and coordinate transform,
// nearest's rounding modes, cubic with exclude_outside, tf_crop_and_resize's
// extrapolation, and the refusals. The ONNX suite's Resize cases (through
// the tools) cover the reference's other corners.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs ResizeAttrs(const std::string& mode, const std::string& transform = "half_pixel",
                       const std::string& nearest = "round_prefer_floor") {
  hal::Attrs a;
  a.Set("mode", mode);
  a.Set("coordinate_transformation_mode", transform);
  a.Set("nearest_mode", nearest);
  return a;
}

HostTensor Scales(const std::vector<float>& s) { return HostTensor::F32({static_cast<int64_t>(s.size())}, s, true); }

TEST(ResizeKernel, NearestUpsampleByScales) {
  RUN_OK(y, "Resize", ResizeAttrs("nearest"),
         {HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4}), HostTensor::Absent(), Scales({1, 1, 2, 3})},
         {{DataType::kFloat32, {1, 1, 4, 6}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
                                                  3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
}

TEST(ResizeKernel, NearestRoundingModesOnTheHalves) {
  // asymmetric, x 1 -> 4 samples at 0, 0.5, 1, 1.5 of [10, 20].
  const auto x = HostTensor::F32({1, 2}, {10, 20});
  for (const auto& [mode, want] : std::vector<std::pair<std::string, std::vector<float>>>{
           {"round_prefer_floor", {10, 10, 20, 20}},
           {"round_prefer_ceil", {10, 20, 20, 20}},
           {"floor", {10, 10, 20, 20}},
           {"ceil", {10, 20, 20, 20}}}) {
    RUN_OK(y, "Resize", ResizeAttrs("nearest", "asymmetric", mode), {x, HostTensor::Absent(), Scales({1, 2})},
           {{DataType::kFloat32, {1, 4}}});
    EXPECT_EQ(y[0].as<float>(), want) << mode;
  }
}

TEST(ResizeKernel, LinearHalfPixelAndAlignCorners) {
  const auto x = HostTensor::F32({1, 2}, {0, 8});
  // half_pixel, 2 -> 4: x_ori = -0.25, 0.25, 0.75, 1.25 (clamped at the edges).
  RUN_OK(h, "Resize", ResizeAttrs("linear"), {x, HostTensor::Absent(), Scales({1, 2})}, {{DataType::kFloat32, {1, 4}}});
  ExpectNear(h[0].as<float>(), {0, 2, 6, 8});
  // align_corners, 2 -> 3 (by sizes): 0, 0.5, 1.
  RUN_OK(a, "Resize", ResizeAttrs("linear", "align_corners"),
         {x, HostTensor::Absent(), HostTensor::Absent(), HostTensor::I64({2}, {1, 3}, true)},
         {{DataType::kFloat32, {1, 3}}});
  ExpectNear(a[0].as<float>(), {0, 4, 8});
}

TEST(ResizeKernel, CubicWeightsSumToOneAndExcludeOutside) {
  // A constant row stays constant under any cubic weights that sum to 1.
  const auto x = HostTensor::F32({1, 4}, {5, 5, 5, 5});
  RUN_OK(y, "Resize", ResizeAttrs("cubic"), {x, HostTensor::Absent(), Scales({1, 1.5f})}, {{DataType::kFloat32, {1, 6}}});
  ExpectNear(y[0].as<float>(), std::vector<float>(6, 5));
  // A ramp: asymmetric at x_ori = 1.5 with a = -0.5 (Catmull-Rom) is exact for lines: 1.5.
  hal::Attrs a = ResizeAttrs("cubic", "asymmetric");
  a.Set("cubic_coeff_a", -0.5);
  a.Set("exclude_outside", int64_t{1});
  RUN_OK(r, "Resize", a, {HostTensor::F32({1, 4}, {0, 1, 2, 3}), HostTensor::Absent(), Scales({1, 2})},
         {{DataType::kFloat32, {1, 8}}});
  EXPECT_NEAR(r[0].as<float>()[3], 1.5f, 1e-5);
  EXPECT_NEAR(r[0].as<float>()[2], 1.0f, 1e-6);
}

TEST(ResizeKernel, CubicTableRoundsTheFractionAsTensorFlow) {
  // An impulse at 1, 4 -> 12 asymmetric: output 1 reads x = 1/3, whose
  // weight on input 1 is f(2/3); TF's 1024-entry table reads f(683/1024).
  auto f = [](double s, double a) { return ((a + 2) * s - (a + 3)) * s * s + 1; };
  hal::Attrs a = ResizeAttrs("cubic", "asymmetric");
  const auto x = HostTensor::F32({1, 4}, {0, 1, 0, 0});
  RUN_OK(exact, "Resize", a, {x, HostTensor::Absent(), Scales({1, 3})}, {{DataType::kFloat32, {1, 12}}});
  EXPECT_NEAR(exact[0].as<float>()[1], f(2.0 / 3, -0.75), 1e-6);
  a.Set("_cubic_table_size", int64_t{1024});
  RUN_OK(table, "Resize", a, {x, HostTensor::Absent(), Scales({1, 3})}, {{DataType::kFloat32, {1, 12}}});
  EXPECT_NEAR(table[0].as<float>()[1], f(683.0 / 1024, -0.75), 1e-6);
  EXPECT_GT(std::abs(table[0].as<float>()[1] - exact[0].as<float>()[1]), 1e-4);
}

TEST(ResizeKernel, CropAndResizeExtrapolates) {
  // roi [0.5, 1.5] of [0, 10, 20] on the last axis: samples at 1, 1.5, 2, 2.5, 3 -> the last two are outside.
  hal::Attrs a = ResizeAttrs("linear", "tf_crop_and_resize");
  a.Set("extrapolation_value", 7.0);
  RUN_OK(y, "Resize", a,
         {HostTensor::F32({1, 3}, {0, 10, 20}), HostTensor::F32({4}, {0, 0.5f, 1, 1.5f}, true), HostTensor::Absent(),
          HostTensor::I64({2}, {1, 5}, true)},
         {{DataType::kFloat32, {1, 5}}});
  ExpectNear(y[0].as<float>(), {10, 15, 20, 7, 7});
}

TEST(ResizeKernel, RefusesWhatItCannotDo) {
  const auto x = HostTensor::F32({1, 2}, {0, 8});
  auto mode = RunKernel("Resize", ResizeAttrs("area"), {x, HostTensor::Absent(), Scales({1, 2})},
                        {{DataType::kFloat32, {1, 4}}});
  ASSERT_TRUE(Refused(mode, StatusCode::kUnsupported, "mode 'area' is not nearest, linear or cubic"));
  EXPECT_EQ(mode.status().code(), StatusCode::kUnsupported);
  auto shape = RunKernel("Resize", ResizeAttrs("nearest"), {x, HostTensor::Absent(), Scales({1, 2})},
                         {{DataType::kFloat32, {1, 5}}});
  ASSERT_TRUE(Refused(shape, StatusCode::kInvalidArgument, "floor(X dims * scales)"));
  auto runtime = RunKernel("Resize", ResizeAttrs("nearest"),
                           {x, HostTensor::Absent(), HostTensor::F32({2}, {1, 2}, false)}, {{DataType::kFloat32, {1, 4}}});
  ASSERT_TRUE(Refused(runtime, StatusCode::kUnsupported, "must be a constant"));
}

}  // namespace
}  // namespace ge::test
