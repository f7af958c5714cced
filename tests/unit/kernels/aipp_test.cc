// The Aipp kernel on tiny images, values worked out by hand from ATC's
// formulas (the numpy reference, tests/aipp/aipp_reference.py, covers every
// format and switch end to end).
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

HostTensor U8(dims d, const std::vector<uint8_t>& v) { return HostTensor::Of(DataType::kUInt8, std::move(d), v); }

hal::Attrs Base(const std::string& format, std::vector<int64_t> crop, std::vector<int64_t> pads = {0, 0, 0, 0}) {
  hal::Attrs a;
  a.Set("input_format", format);
  a.Set("crop", std::move(crop));
  a.Set("pads", std::move(pads));
  return a;
}

std::vector<float> RunAipp(const hal::Attrs& a, const HostTensor& x, const dims& out, int32_t block = 0) {
  auto r = RunKernel("Aipp", a, {x}, {hal::TensorInfo{DataType::kFloat32, out, block}});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? (*r)[0].as<float>() : std::vector<float>{};
}

TEST(AippKernel, Rgb888ToPlanarWithNormalisation) {
  hal::Attrs a = Base("RGB888_U8", {0, 0, 1, 2});
  a.Set("mean_chn", std::vector<int64_t>{10, 20, 30, 0});
  a.Set("min_chn", std::vector<double>{1, 0, 0, 0});
  a.Set("var_reci_chn", std::vector<double>{0.5, 2, 1, 1});
  // Two pixels (R, G, B): (11, 21, 31), (13, 25, 29).
  const auto y = RunAipp(a, U8({1, 1, 2, 3}, {11, 21, 31, 13, 25, 29}), {1, 3, 1, 2});
  // (v - mean - min) * var: R (0, 1)*0.5, G (1, 5)*2, B (1, -1)*1.
  EXPECT_EQ(y, (std::vector<float>{0, 1, 2, 10, 1, -1}));
}

TEST(AippKernel, SwapsCropAndPadding) {
  hal::Attrs a = Base("RGB888_U8", {1, 1, 1, 1}, {1, 0, 0, 1});
  a.Set("rbuv_swap_switch", int64_t{1});
  a.Set("padding_value", 7.0);
  std::vector<uint8_t> img(2 * 2 * 3);
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(i);
  // Crop pixel (1, 1) = (9, 10, 11), swapped to (11, 10, 9), placed at (1, 0)
  // of a 2 x 2 output padded on top and on the right with 7.
  const auto y = RunAipp(a, U8({1, 2, 2, 3}, img), {1, 3, 2, 2});
  EXPECT_EQ(y, (std::vector<float>{7, 7, 11, 7, 7, 7, 10, 7, 7, 7, 9, 7}));
}

TEST(AippKernel, XrgbDropsXAndAxSwapReadsRgbx) {
  const HostTensor x = U8({1, 1, 1, 4}, {1, 2, 3, 4});
  EXPECT_EQ(RunAipp(Base("XRGB8888_U8", {0, 0, 1, 1}), x, {1, 3, 1, 1}), (std::vector<float>{2, 3, 4}));
  hal::Attrs swap = Base("XRGB8888_U8", {0, 0, 1, 1});
  swap.Set("ax_swap_switch", int64_t{1});
  EXPECT_EQ(RunAipp(swap, x, {1, 3, 1, 1}), (std::vector<float>{1, 2, 3}));
}

TEST(AippKernel, Yuv420spCscIsTheIntegerFormulaSaturated) {
  hal::Attrs a = Base("YUV420SP_U8", {0, 0, 2, 2});
  a.Set("csc_switch", int64_t{1});
  a.Set("matrix", std::vector<int64_t>{256, 0, 359, 256, -88, -183, 256, 454, 0});  // JPEG YUV -> RGB
  a.Set("input_bias", std::vector<int64_t>{0, 128, 128});
  // 2 x 2 Y plane (0, 100, 200, 255), one UV pair (U 50, V 240) for all four.
  const auto y = RunAipp(a, U8({1, 3, 2, 1}, {0, 100, 200, 255, 50, 240}), {1, 3, 2, 2});
  // R = (256 Y + 359 * 112) >> 8 = Y + 157 (40208 / 256 = 157.06), saturated.
  // G = (256 Y - 88 * -78 - 183 * 112) >> 8 = floor(Y - 53.25) = Y - 54.
  // B = (256 Y + 454 * -78) >> 8 = floor(Y - 138.33) = Y - 139, saturated at 0.
  EXPECT_EQ(y, (std::vector<float>{157, 255, 255, 255, 0, 46, 146, 201, 0, 0, 61, 116}));
}

TEST(AippKernel, Nv21SwapsUAndV) {
  hal::Attrs a = Base("YUV420SP_U8", {0, 0, 2, 2});
  a.Set("rbuv_swap_switch", int64_t{1});
  const auto y = RunAipp(a, U8({1, 3, 2, 1}, {1, 2, 3, 4, 50, 240}), {1, 3, 2, 2});
  EXPECT_EQ(y, (std::vector<float>{1, 2, 3, 4, 240, 240, 240, 240, 50, 50, 50, 50}));
}

TEST(AippKernel, Yuv400AndTheOutputLayouts) {
  const HostTensor x = U8({1, 2, 2, 1}, {0, 64, 128, 255});
  hal::Attrs a = Base("YUV400_U8", {0, 0, 2, 2});
  a.Set("mean_chn", std::vector<int64_t>{128, 0, 0, 0});
  a.Set("var_reci_chn", std::vector<double>{1.0 / 128, 1, 1, 1});
  EXPECT_EQ(RunAipp(a, x, {1, 1, 2, 2}), (std::vector<float>{-1, -0.5f, 0, 127.f / 128}));
  // Three channels: NCHW, NHWC (layout attribute) and channels last (block).
  const HostTensor rgb = U8({1, 1, 2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(RunAipp(Base("RGB888_U8", {0, 0, 1, 2}), rgb, {1, 3, 1, 2}), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  hal::Attrs nhwc = Base("RGB888_U8", {0, 0, 1, 2});
  nhwc.Set("layout", std::string("NHWC"));
  EXPECT_EQ(RunAipp(nhwc, rgb, {1, 1, 2, 3}), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(RunAipp(Base("RGB888_U8", {0, 0, 1, 2}), rgb, {1, 3, 1, 2}, hal::kChannelsLast),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(AippKernel, RefusesWhatItCannotRun) {
  const HostTensor rgb = U8({1, 2, 2, 3}, std::vector<uint8_t>(12));
  auto fails = [](const hal::Attrs& a, const HostTensor& x, const dims& out, StatusCode code, const std::string& what,
                  int32_t block = 0) {
    auto r = RunKernel("Aipp", a, {x}, {hal::TensorInfo{DataType::kFloat32, out, block}});
    EXPECT_TRUE(Refused(r, code, what));
  };
  const StatusCode bad = StatusCode::kInvalidArgument, unsupported = StatusCode::kUnsupported;
  fails(Base("RGB888_U8", {1, 1, 2, 2}), rgb, {1, 3, 2, 2}, bad, "does not fit");
  fails(Base("RGB888_U8", {0, 0, 2, 2}), rgb, {1, 3, 3, 3}, bad, "output must be float32 [1,3,2,2]");
  fails(Base("RGB888_U8", {0, 0, 2, 2}), rgb, {1, 3, 2, 2}, unsupported, "channel_block 8", 8);
  fails(Base("YUV444_U8", {0, 0, 2, 2}), rgb, {1, 3, 2, 2}, unsupported, "input_format 'YUV444_U8'");
  fails(Base("XRGB8888_U8", {0, 0, 2, 2}), rgb, {1, 3, 2, 2}, bad, "[N, H, W, 4]");
}

}  // namespace
}  // namespace ge::test
