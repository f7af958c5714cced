// LpPool, GlobalLpPool, LpNormalization and MaxRoiPool (the plain loops of
// lp_kernels.cc) against values worked out by hand.
#include <cmath>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(LpKernels, LpPoolP2WithPadsAndStride) {
  // One row [3, 4, 0, 12]: windows of 2, stride 2, one pad each side ->
  // taps {3}, {4, 0}, {12} -> the 2-norms 3, 4, 12.
  hal::Attrs a = Attr("kernel_shape", std::vector<int64_t>{2});
  a.Set("strides", std::vector<int64_t>{2});
  a.Set("pads", std::vector<int64_t>{1, 1});
  RUN_OK(y, "LpPool", a, {HostTensor::F32({1, 1, 4}, {3, -4, 0, 12})}, {{DataType::kFloat32, {1, 1, 3}}});
  ExpectNear(y[0].as<float>(), {3, 4, 12});
}

TEST(LpKernels, LpPoolP1AndP3On2D) {
  const auto x = HostTensor::F32({1, 1, 2, 2}, {1, -2, 3, -4});
  hal::Attrs a = Attr("kernel_shape", std::vector<int64_t>{2, 2});
  a.Set("p", int64_t{1});
  RUN_OK(p1, "LpPool", a, {x}, {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(p1[0].as<float>(), {10});
  a.Set("p", int64_t{3});
  RUN_OK(p3, "LpPool", a, {x}, {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(p3[0].as<float>(), {std::cbrt(1.0f + 8 + 27 + 64)});
  a.Set("p", int64_t{0});
  EXPECT_TRUE(Refused(RunKernel("LpPool", a, {x}, {{DataType::kFloat32, {1, 1, 1, 1}}}), StatusCode::kInvalidArgument,
                      "p must be at least 1, but is 0"));
}

TEST(LpKernels, GlobalLpPoolPerChannel) {
  RUN_OK(y, "GlobalLpPool", hal::Attrs{}, {HostTensor::F32({1, 2, 1, 2}, {3, 4, 6, -8})},
         {{DataType::kFloat32, {1, 2, 1, 1}}});
  ExpectNear(y[0].as<float>(), {5, 10});
}

TEST(LpKernels, LpNormalizationAlongEachAxis) {
  const auto x = HostTensor::F32({2, 2}, {3, 4, 0, 0});
  RUN_OK(l2, "LpNormalization", hal::Attrs{}, {x}, {{DataType::kFloat32, {2, 2}}});
  ExpectNear(l2[0].as<float>(), {0.6f, 0.8f, 0, 0});  // a zero row stays zero
  hal::Attrs a = Attr("axis", int64_t{0});
  a.Set("p", int64_t{1});
  RUN_OK(l1, "LpNormalization", a, {x}, {{DataType::kFloat32, {2, 2}}});
  ExpectNear(l1[0].as<float>(), {1, 1, 0, 0});
  a.Set("p", int64_t{3});
  EXPECT_TRUE(Refused(RunKernel("LpNormalization", a, {x}, {{DataType::kFloat32, {2, 2}}}),
                      StatusCode::kInvalidArgument, "p must be 1 or 2, but is 3"));
}

TEST(LpKernels, MaxRoiPoolBinsAndBatchIndex) {
  // Batch 1 holds 0..15 in a 4x4 plane; the roi (0,0)-(3,3) split 2x2 takes
  // each quadrant's max; a roi naming batch 2 of 2 is an error, not a read.
  std::vector<float> data(32);
  for (int i = 0; i < 32; ++i) data[i] = i < 16 ? 0.0f : static_cast<float>(i - 16);
  hal::Attrs a = Attr("pooled_shape", std::vector<int64_t>{2, 2});
  RUN_OK(y, "MaxRoiPool", a, {HostTensor::F32({2, 1, 4, 4}, data), HostTensor::F32({1, 5}, {1, 0, 0, 3, 3})},
         {{DataType::kFloat32, {1, 1, 2, 2}}});
  ExpectNear(y[0].as<float>(), {5, 7, 13, 15});
  // spatial_scale 0.5 maps the roi (0,0)-(6,6) onto (0,0)-(3,3).
  a.Set("spatial_scale", 0.5f);
  RUN_OK(s, "MaxRoiPool", a, {HostTensor::F32({2, 1, 4, 4}, data), HostTensor::F32({1, 5}, {1, 0, 0, 6, 6})},
         {{DataType::kFloat32, {1, 1, 2, 2}}});
  ExpectNear(s[0].as<float>(), {5, 7, 13, 15});
  EXPECT_TRUE(Refused(
      RunKernel("MaxRoiPool", a, {HostTensor::F32({2, 1, 4, 4}, data), HostTensor::F32({1, 5}, {2, 0, 0, 1, 1})},
                {{DataType::kFloat32, {1, 1, 2, 2}}}),
      StatusCode::kInvalidArgument, "MaxRoiPool: roi 0 names batch 2.000000, but X has 2"));
}

}  // namespace
}  // namespace ge::test
