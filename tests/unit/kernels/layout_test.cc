// Kernels in channel-blocked and channels-last layouts: TransData moves
// values where the layout formula says, and Conv, the pools, Concat and the
// elementwise kernels give, in a layout, exactly the plain result laid out
// the same way. The registry refuses layouts a kernel does not take.
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

constexpr int32_t kLast = hal::kChannelsLast;

// Where element (n, c, h, w) of an NCHW tensor lives in a layout, written
// from the definitions (not through oneDNN).
size_t Offset(const dims& d, int32_t block, int64_t n, int64_t c, int64_t h, int64_t w) {
  const int64_t C = d[1], H = d[2], W = d[3];
  if (block == 0) return static_cast<size_t>(((n * C + c) * H + h) * W + w);
  if (block == kLast) return static_cast<size_t>(((n * H + h) * W + w) * C + c);
  return static_cast<size_t>((((n * (C / block) + c / block) * H + h) * W + w) * block + c % block);
}

std::vector<float> ToLayout(const std::vector<float>& plain, const dims& d, int32_t block) {
  std::vector<float> out(plain.size());
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t c = 0; c < d[1]; ++c)
      for (int64_t h = 0; h < d[2]; ++h)
        for (int64_t w = 0; w < d[3]; ++w) out[Offset(d, block, n, c, h, w)] = plain[Offset(d, 0, n, c, h, w)];
  return out;
}

HostTensor In(const dims& d, const std::vector<float>& plain, int32_t block) {
  HostTensor t = HostTensor::F32(d, ToLayout(plain, d, block));
  t.channel_block = block;
  return t;
}
hal::TensorInfo Out(const dims& d, int32_t block) { return hal::TensorInfo{DataType::kFloat32, d, block}; }

class LayoutTest : public ::testing::TestWithParam<int32_t> {};

TEST_P(LayoutTest, TransDataPutsEveryValueWhereTheLayoutSays) {
  const int32_t b = GetParam();
  const dims d = {2, 16, 3, 5};
  const auto x = Random(2 * 16 * 3 * 5, 1);
  auto to = RunKernel("TransData", {}, {In(d, x, 0)}, {Out(d, b)});
  ASSERT_TRUE(to.ok()) << to.status().ToString();
  EXPECT_EQ((*to)[0].as<float>(), ToLayout(x, d, b));
  auto back = RunKernel("TransData", {}, {In(d, x, b)}, {Out(d, 0)});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)[0].as<float>(), x);
}

TEST_P(LayoutTest, ConvInALayoutIsThePlainConvLaidOut) {
  const int32_t b = GetParam();
  const dims xd = {1, 16, 7, 7}, wd = {32, 16, 3, 3}, yd = {1, 32, 7, 7};
  const auto x = Random(16 * 49, 2), w = Random(32 * 16 * 9, 3), bias = Random(32, 4), res = Random(32 * 49, 5);
  hal::Attrs a;
  a.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  a.Set("fused_sum", int64_t{1});
  a.Set("activation", std::string("Relu"));
  const auto wt = HostTensor::F32(wd, w, true), bt = HostTensor::F32({32}, bias, true);
  auto plain = RunKernel("Conv", a, {In(xd, x, 0), wt, bt, In(yd, res, 0)}, {Out(yd, 0)});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  auto laid = RunKernel("Conv", a, {In(xd, x, b), wt, bt, In(yd, res, b)}, {Out(yd, b)});
  ASSERT_TRUE(laid.ok()) << laid.status().ToString();
  ExpectNear(laid->at(0).as<float>(), ToLayout(plain->at(0).as<float>(), yd, b), 1e-5f);
  // A plain source into a laid-out result (the first conv of a chain).
  auto mixed = RunKernel("Conv", a, {In(xd, x, 0), wt, bt, In(yd, res, b)}, {Out(yd, b)});
  ASSERT_TRUE(mixed.ok()) << mixed.status().ToString();
  ExpectNear(mixed->at(0).as<float>(), ToLayout(plain->at(0).as<float>(), yd, b), 1e-5f);
}

TEST_P(LayoutTest, PoolsInALayoutAreThePlainPoolsLaidOut) {
  const int32_t b = GetParam();
  const dims xd = {1, 16, 6, 6};
  const auto x = Random(16 * 36, 6);
  hal::Attrs a;
  a.Set("kernel_shape", std::vector<int64_t>{3, 3});
  a.Set("strides", std::vector<int64_t>{2, 2});
  const dims yd = {1, 16, 2, 2};
  for (const char* op : {"MaxPool", "AveragePool"}) {
    auto plain = RunKernel(op, a, {In(xd, x, 0)}, {Out(yd, 0)});
    auto laid = RunKernel(op, a, {In(xd, x, b)}, {Out(yd, b)});
    ASSERT_TRUE(plain.ok() && laid.ok()) << op;
    ExpectNear(laid->at(0).as<float>(), ToLayout(plain->at(0).as<float>(), yd, b), 1e-6f);
  }
  auto gap = RunKernel("GlobalAveragePool", {}, {In(xd, x, b)}, {Out({1, 16, 1, 1}, b)});
  auto gap_plain = RunKernel("GlobalAveragePool", {}, {In(xd, x, 0)}, {Out({1, 16, 1, 1}, 0)});
  ASSERT_TRUE(gap.ok() && gap_plain.ok());
  ExpectNear(gap->at(0).as<float>(), gap_plain->at(0).as<float>(), 1e-6f);  // 1x1: every layout is the same
}

TEST_P(LayoutTest, ConcatAlongChannelsInALayout) {
  const int32_t b = GetParam();
  const dims ad = {2, 16, 3, 3}, bd = {2, 32, 3, 3}, yd = {2, 48, 3, 3};
  const auto x = Random(2 * 16 * 9, 7), y = Random(2 * 32 * 9, 8);
  hal::Attrs a;
  a.Set("axis", int64_t{1});
  auto plain = RunKernel("Concat", a, {In(ad, x, 0), In(bd, y, 0)}, {Out(yd, 0)});
  auto laid = RunKernel("Concat", a, {In(ad, x, b), In(bd, y, b)}, {Out(yd, b)});
  ASSERT_TRUE(plain.ok() && laid.ok()) << laid.status().ToString();
  EXPECT_EQ(laid->at(0).as<float>(), ToLayout(plain->at(0).as<float>(), yd, b));
  hal::Attrs spatial;
  spatial.Set("axis", int64_t{2});
  EXPECT_TRUE(Refused(RunKernel("Concat", spatial, {In(ad, x, b), In(ad, x, b)}, {Out({2, 16, 6, 3}, b)}),
                      StatusCode::kUnsupported, "a Concat of channel-blocked or channels-last tensors must join the"));
  EXPECT_TRUE(Refused(RunKernel("Concat", a, {In(ad, x, b), In(bd, y, 0)}, {Out(yd, b)}), StatusCode::kUnsupported,
                      "all inputs need the output's layout"))
      << "mixed layouts";
}

TEST_P(LayoutTest, ElementwiseKernelsTakeOneSharedLayout) {
  const int32_t b = GetParam();
  const dims d = {1, 16, 2, 3};
  const auto x = Random(96, 9), y = Random(96, 10);
  auto relu = RunKernel("Relu", {}, {In(d, x, b)}, {Out(d, b)});
  ASSERT_TRUE(relu.ok()) << relu.status().ToString();
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = std::max(0.0f, x[i]);
  EXPECT_EQ(relu->at(0).as<float>(), ToLayout(want, d, b));
  auto add = RunKernel("Add", {}, {In(d, x, b), In(d, y, b)}, {Out(d, b)});
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] + y[i];
  EXPECT_EQ(add->at(0).as<float>(), ToLayout(want, d, b));
  // A scalar operand broadcasts the same in every layout.
  auto scaled = RunKernel("Mul", {}, {In(d, x, b), HostTensor::F32({}, {2.0f})}, {Out(d, b)});
  ASSERT_TRUE(scaled.ok()) << scaled.status().ToString();
  for (size_t i = 0; i < x.size(); ++i) want[i] = 2 * x[i];
  EXPECT_EQ(scaled->at(0).as<float>(), ToLayout(want, d, b));

  auto mixed = RunKernel("Relu", {}, {In(d, x, b)}, {Out(d, 0)});
  ASSERT_TRUE(Refused(mixed, StatusCode::kUnsupported, "one layout"));
  // Other broadcasts depend on the layout (per-channel ones: channel_affine_test.cc).
  auto bcast = RunKernel("Add", {}, {In(d, x, b), HostTensor::F32({1, 1, 2, 3}, Random(6, 11))}, {Out(d, b)});
  EXPECT_TRUE(Refused(bcast, StatusCode::kUnsupported, "laid-out operands need the output's layout and dims"))
      << "a spatial broadcast depends on the layout";
}

INSTANTIATE_TEST_SUITE_P(Layouts, LayoutTest, ::testing::Values(8, 16, kLast), [](const auto& info) {
  return info.param == kLast ? std::string("channels_last") : "block" + std::to_string(info.param);
});

TEST(LayoutRegistry, PlainOnlyKernelsRefuseLayouts) {
  const dims d = {1, 16, 2, 2};
  auto flat = RunKernel("Flatten", {}, {In(d, Random(64, 1), 8)}, {Out({1, 64}, 0)});
  ASSERT_TRUE(Refused(flat, StatusCode::kUnsupported, "plain layouts only"));
  // Conv takes its weights plain, and a residual in the output's layout.
  hal::Attrs a;
  HostTensor w = In({16, 16, 1, 1}, Random(256, 2), 8);
  w.is_const = true;
  EXPECT_TRUE(Refused(RunKernel("Conv", a, {In(d, Random(64, 3), 8), w}, {Out(d, 8)}), StatusCode::kUnsupported,
                      "Conv: weights and bias must be plain (input 1 is channel-blocked)"));
  a.Set("fused_sum", int64_t{1});
  const HostTensor wp = HostTensor::F32({16, 16, 1, 1}, Random(256, 2), true);
  EXPECT_TRUE(Refused(
      RunKernel("Conv", a, {In(d, Random(64, 3), 8), wp, HostTensor::Absent(), In(d, Random(64, 4), 0)}, {Out(d, 8)}),
      StatusCode::kUnsupported, "Conv: the fused_sum input must have the output's layout"));
  // A pool keeps its input's layout; channels the block does not divide have none.
  hal::Attrs pool;
  pool.Set("kernel_shape", std::vector<int64_t>{2, 2});
  EXPECT_TRUE(Refused(RunKernel("MaxPool", pool, {In(d, Random(64, 5), 8)}, {Out({1, 16, 1, 1}, 0)}),
                      StatusCode::kUnsupported, "MaxPool: input and output must share one layout"));
  EXPECT_TRUE(Refused(RunKernel("TransData", {}, {In({1, 12, 2, 2}, Random(48, 6), 0)}, {Out({1, 12, 2, 2}, 8)}),
                      StatusCode::kUnsupported, "TransData output: no layout for channel block 8 of [1,12,2,2]"));
}

}  // namespace
}  // namespace ge::test
