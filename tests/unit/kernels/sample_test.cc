// GridSample in each mode and padding, RoiAlign (avg and max, both
// coordinate modes) and Det, against values worked out by hand.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs GridAttrs(const std::string& mode, const std::string& pad, int64_t align) {
  hal::Attrs a = Attr("mode", mode);
  a.Set("padding_mode", pad);
  a.Set("align_corners", align);
  return a;
}

// X 1x1x2x2 = [[1, 2], [3, 4]].
const HostTensor kImage = HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4});

TEST(GridSampleKernel, BilinearAlignCorners) {
  // (-1,-1) and (1,1) are the corner pixels; (0,0) the mean; (0,-1) between 1 and 2.
  RUN_OK(y, "GridSample", GridAttrs("bilinear", "zeros", 1),
         {kImage, HostTensor::F32({1, 1, 4, 2}, {-1, -1, 1, 1, 0, 0, 0, -1})}, {{DataType::kFloat32, {1, 1, 1, 4}}});
  ExpectNear(y[0].as<float>(), {1, 4, 2.5f, 1.5f});
}

TEST(GridSampleKernel, PaddingModes) {
  // Without align_corners -1 is the outer edge: x = -0.5, half a pixel of padding.
  const auto grid = HostTensor::F32({1, 1, 2, 2}, {-1, -1, 3, 0});
  RUN_OK(z, "GridSample", GridAttrs("bilinear", "zeros", 0), {kImage, grid}, {{DataType::kFloat32, {1, 1, 1, 2}}});
  ExpectNear(z[0].as<float>(), {0.25f, 0});
  RUN_OK(b, "GridSample", GridAttrs("bilinear", "border", 0), {kImage, grid}, {{DataType::kFloat32, {1, 1, 1, 2}}});
  ExpectNear(b[0].as<float>(), {1, 3});  // (x=3.5 clamps to 1, y=0.5: rows 0 and 1 of column 1 -> 3)
  RUN_OK(r, "GridSample", GridAttrs("nearest", "reflection", 1), {kImage, HostTensor::F32({1, 1, 1, 2}, {3, -1})},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(r[0].as<float>(), {1});  // x = 2 reflects at 1 back to 0
}

TEST(GridSampleKernel, NearestRoundsHalfToEvenAndBicubicKeepsConstants) {
  RUN_OK(n, "GridSample", GridAttrs("nearest", "zeros", 1), {kImage, HostTensor::F32({1, 1, 1, 2}, {0, 0})},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(n[0].as<float>(), {1});  // (0.5, 0.5) rounds to (0, 0)
  const auto flat = HostTensor::F32({1, 1, 3, 3}, std::vector<float>(9, 5.f));
  RUN_OK(c, "GridSample", GridAttrs("bicubic", "border", 1), {flat, HostTensor::F32({1, 1, 2, 2}, {0.3f, -0.7f, 2, 2})},
         {{DataType::kFloat32, {1, 1, 1, 2}}});
  ExpectNear(c[0].as<float>(), {5, 5});
}

TEST(RoiAlignKernel, AverageOfBilinearSamples) {
  // X 4x4 = 0..15; roi (0,0)-(2,2) without the half-pixel shift, one bin,
  // 2x2 samples at 0.5 and 1.5: the mean of X at those points = X(1, 1) = 5.
  hal::Attrs a = Attr("coordinate_transformation_mode", std::string("output_half_pixel"));
  a.Set("sampling_ratio", int64_t{2});
  const auto x = HostTensor::F32({1, 1, 4, 4}, Iota(16));
  RUN_OK(y, "RoiAlign", a, {x, HostTensor::F32({1, 4}, {0, 0, 2, 2}), HostTensor::I64({1}, {0})},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(y[0].as<float>(), {5});
  // half_pixel shifts the roi by -0.5: samples at 0, 1 -> mean of X(0..1, 0..1) = 2.5.
  hal::Attrs h = Attr("sampling_ratio", int64_t{2});
  RUN_OK(hp, "RoiAlign", h, {x, HostTensor::F32({1, 4}, {0, 0, 2, 2}), HostTensor::I64({1}, {0})},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(hp[0].as<float>(), {2.5f});
  a.Set("mode", std::string("max"));
  RUN_OK(mx, "RoiAlign", a, {x, HostTensor::F32({1, 4}, {0, 0, 2, 2}), HostTensor::I64({1}, {0})},
         {{DataType::kFloat32, {1, 1, 1, 1}}});
  ExpectNear(mx[0].as<float>(), {2.5f});  // the largest weighted corner: 0.25 * X(2, 2)
  auto bad = RunKernel("RoiAlign", a, {x, HostTensor::F32({1, 4}, {0, 0, 2, 2}), HostTensor::I64({1}, {1})},
                       {{DataType::kFloat32, {1, 1, 1, 1}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "batch index 1 is out of range for N 1"));
}

TEST(CropAndResizeKernel, TensorFlowSamplingOnNchw) {
  // Two channels of 3 x 3 (0..8 and 10..18). Box (0, 0.5, 1, 1) at 2 x 2:
  // rows 0 and 2, columns 1 and 2; a box past the edge extrapolates; a
  // 1 x 1 crop samples the box's middle, nearest rounding halves up.
  std::vector<float> img = Iota(9);
  for (int i = 0; i < 9; ++i) img.push_back(10.f + static_cast<float>(i));
  const auto x = HostTensor::F32({1, 2, 3, 3}, img);
  hal::Attrs a = Attr("crop_height", int64_t{2});
  a.Set("crop_width", int64_t{2});
  a.Set("extrapolation_value", -1.0);
  RUN_OK(y, "CropAndResize", a,
         {x, HostTensor::F32({2, 4}, {0, 0.5f, 1, 1, 0, 0.5f, 1, 1.5f}), I32({2}, {0, 0})},
         {{DataType::kFloat32, {2, 2, 2, 2}}});
  ExpectNear(y[0].as<float>(), {1, 2, 7, 8, 11, 12, 17, 18, 1, -1, 7, -1, 11, -1, 17, -1});
  hal::Attrs one = Attr("crop_height", int64_t{1});
  one.Set("crop_width", int64_t{1});
  one.Set("method", std::string("nearest"));
  RUN_OK(n, "CropAndResize", one, {x, HostTensor::F32({1, 4}, {0, 0.5f, 0.5f, 1}), I32({1}, {0})},
         {{DataType::kFloat32, {1, 2, 1, 1}}});
  ExpectNear(n[0].as<float>(), {5, 15});  // the middle (0.25 * 2, 0.75 * 2) = (0.5, 1.5) rounds to (1, 2)
  auto bad = RunKernel("CropAndResize", a, {x, HostTensor::F32({1, 4}, {0, 0, 1, 1}), I32({1}, {1})},
                       {{DataType::kFloat32, {1, 2, 2, 2}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "box index 1 is out of range for 1 images"));
}

TEST(DetKernel, BatchesAndPivoting) {
  RUN_OK(d, "Det", {}, {HostTensor::F32({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0})}, {{DataType::kFloat32, {2}}});
  ExpectNear(d[0].as<float>(), {-2, -1});
  RUN_OK(s, "Det", {}, {HostTensor::Of<double>(DataType::kFloat64, {3, 3}, {2, 0, 1, 1, 3, 2, 1, 1, 2})},
         {{DataType::kFloat64, {}}});
  EXPECT_NEAR(s[0].as<double>()[0], 6.0, 1e-12);
  RUN_OK(z, "Det", {}, {HostTensor::F32({2, 2}, {1, 2, 2, 4})}, {{DataType::kFloat32, {}}});
  EXPECT_EQ(z[0].as<float>()[0], 0.f);
}

}  // namespace
}  // namespace ge::test
