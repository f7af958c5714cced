// The per-channel affine loops (channel_affine_loop.h) and the global
// average pool's on every ISA this CPU runs and every layout, against the
// formula; ChannelAffine and the
// channel-broadcast Mul/Add through the registry, in layouts.
#include "kernels/channel_affine_loop.h"
#include "kernels/global_avg_pool.h"
#include "hal/fused_attrs.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using hal::affine::Geometry;
using hal::Isa;
constexpr int32_t kLast = hal::kChannelsLast;

// The channel and image of flat element i of a tensor stored in g's layout.
std::pair<int64_t, int64_t> ImageAndChannel(const Geometry& g, int64_t i) {
  const int64_t per_image = g.c * g.spatial, r = i % per_image;
  if (g.block == 0) return {i / per_image, r / g.spatial};
  if (g.block == kLast) return {i / per_image, r % g.c};
  return {i / per_image, (r / (g.spatial * g.block)) * g.block + r % g.block};
}

std::vector<float> Reference(const Geometry& g, const std::vector<float>& x, const std::vector<float>& s,
                             const std::vector<float>& t) {
  std::vector<float> y(x.size());
  for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
    const auto [n, c] = ImageAndChannel(g, i);
    const float v = x[i] * s[n * g.scale_stride + c] + t[n * g.shift_stride + c];
    y[i] = g.relu ? std::max(v, 0.0f) : v;
  }
  return y;
}

TEST(ChannelAffineLoop, EveryIsaAndLayoutMatchesTheFormula) {
  // The large shape crosses the threshold where the work is split over threads.
  for (const dims& d : {dims{2, 16, 5, 7}, dims{1, 64, 32, 32}}) {
    for (int32_t block : {0, 8, 16, kLast}) {
      for (bool relu : {false, true}) {
        for (bool per_image : {false, true}) {
          Geometry g;
          g.n = d[0], g.c = d[1], g.spatial = d[2] * d[3], g.block = block, g.relu = relu;
          g.scale_stride = per_image ? g.c : 0;
          const auto x = Random(static_cast<size_t>(Count(d)), 1);
          const auto s = Random(static_cast<size_t>(g.n * g.c), 2), t = Random(static_cast<size_t>(g.n * g.c), 3);
          ASSERT_TRUE(hal::affine::Handles(g));
          const auto want = Reference(g, x, s, t);
          for (Isa isa : hal::AvailableIsas()) {
            std::vector<float> y(x.size());
            hal::affine::Run(g, x.data(), s.data(), t.data(), y.data(), isa);
            ExpectNear(y, want, 1e-6f);
            std::vector<float> in_place = x;  // y may be x (the op is in-place capable)
            hal::affine::Run(g, in_place.data(), s.data(), t.data(), in_place.data(), isa);
            ExpectNear(in_place, want, 1e-6f);
            if (HasFailure()) FAIL() << hal::IsaName(isa) << " block " << block << " relu " << relu;
          }
        }
      }
    }
  }
}

// The global average pool's loops (global_avg_pool.h), same ISAs and layouts.
TEST(GlobalAvgPoolLoop, EveryIsaAndLayoutIsTheMean) {
  for (const dims& d : {dims{2, 40, 3, 5}, dims{1, 96, 28, 28}}) {  // 40: a partial run of 16 channels last
    for (int32_t block : {0, 8, kLast}) {
      Geometry layout;
      layout.n = d[0], layout.c = d[1], layout.spatial = d[2] * d[3], layout.block = block;
      const auto x = Random(static_cast<size_t>(Count(d)), 14);
      std::vector<double> sum(static_cast<size_t>(d[0] * d[1]), 0.0);
      for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i) {
        const auto [n, c] = ImageAndChannel(layout, i);
        sum[static_cast<size_t>(n * d[1] + c)] += x[static_cast<size_t>(i)];
      }
      std::vector<float> want(sum.size());
      for (size_t k = 0; k < sum.size(); ++k) want[k] = static_cast<float>(sum[k] / static_cast<double>(layout.spatial));
      const hal::GapGeometry g{d[0], d[1], layout.spatial, block};
      for (Isa isa : hal::AvailableIsas()) {
        std::vector<float> y(want.size());
        hal::GlobalAvgPool(g, x.data(), y.data(), isa);
        ExpectNear(y, want, 1e-5f);
        if (HasFailure()) FAIL() << hal::IsaName(isa) << " block " << block;
      }
    }
  }
}

TEST(ChannelAffineLoop, BlocksMustDivideTheChannels) {
  Geometry g;
  g.c = 12, g.block = 8;
  EXPECT_FALSE(hal::affine::Handles(g));
  g.block = kLast;
  EXPECT_TRUE(hal::affine::Handles(g));
}

// The NCHW values of x laid out as the layout says (by the loop's own reading).
std::vector<float> Laid(const std::vector<float>& plain, const dims& d, int32_t block) {
  Geometry g;
  g.n = d[0], g.c = d[1], g.spatial = d[2] * d[3], g.block = block;
  std::vector<float> out(plain.size());
  std::vector<int64_t> seen(static_cast<size_t>(g.n * g.c), 0);
  for (int64_t i = 0; i < static_cast<int64_t>(plain.size()); ++i) {
    const auto [n, c] = ImageAndChannel(g, i);
    const int64_t k = seen[static_cast<size_t>(n * g.c + c)]++;  // pixels of one channel come in order
    out[static_cast<size_t>(i)] = plain[static_cast<size_t>((n * g.c + c) * g.spatial + k)];
  }
  return out;
}

HostTensor In(const dims& d, const std::vector<float>& plain, int32_t block) {
  HostTensor t = HostTensor::F32(d, Laid(plain, d, block));
  t.channel_block = block;
  return t;
}
hal::TensorInfo Out(const dims& d, int32_t block) { return hal::TensorInfo{DataType::kFloat32, d, block}; }

class ChannelAffineLayouts : public ::testing::TestWithParam<int32_t> {};

TEST_P(ChannelAffineLayouts, OpIsBatchNormThenRelu) {
  const int32_t b = GetParam();
  const dims d = {2, 16, 3, 3};
  const auto x = Random(288, 4), s = Random(16, 5), t = Random(16, 6);
  std::vector<float> want(x.size());
  for (size_t i = 0; i < x.size(); ++i) want[i] = std::max(0.0f, x[i] * s[(i / 9) % 16] + t[(i / 9) % 16]);
  auto y = RunKernel("ChannelAffine", Attr("activation", std::string("Relu")),
                     {In(d, x, b), HostTensor::F32({16}, s, true), HostTensor::F32({16}, t, true)}, {Out(d, b)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(y->at(0).as<float>(), Laid(want, d, b), 1e-6f);
  EXPECT_TRUE(Refused(RunKernel("ChannelAffine", Attr("activation", std::string("Tanh")),
                                {In(d, x, b), HostTensor::F32({16}, s), HostTensor::F32({16}, t)}, {Out(d, b)}),
                      StatusCode::kUnsupported, "activation 'Tanh' (only Relu)"));
  EXPECT_TRUE(Refused(RunKernel("ChannelAffine", {}, {In(d, x, b), HostTensor::F32({16}, s), HostTensor::F32({16}, t)},
                                {Out(d, b == 0 ? 8 : 0)}),
                      StatusCode::kInvalidArgument, "output must have the input's dims [2,16,3,3] and layout"))
      << "output in another layout";
}

TEST_P(ChannelAffineLayouts, MulAndAddByAPerChannelOperand) {
  const int32_t b = GetParam();
  const dims d = {2, 16, 3, 3};
  const auto x = Random(288, 7);
  for (const dims& vd : {dims{1, 16, 1, 1}, dims{2, 16, 1, 1}}) {
    const auto v = Random(static_cast<size_t>(Count(vd)), 8);
    HostTensor vt = HostTensor::F32(vd, v);
    vt.channel_block = b;  // [N, C, 1, 1] has the same bytes in every layout
    for (const char* op : {"Mul", "Add"}) {
      std::vector<float> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        const size_t n = i / 144, c = (i / 9) % 16, k = vd[0] == 1 ? c : n * 16 + c;
        want[i] = std::string(op) == "Mul" ? x[i] * v[k] : x[i] + v[k];
      }
      auto y = RunKernel(op, {}, {vt, In(d, x, b)}, {Out(d, b)});  // the gate first: either order
      ASSERT_TRUE(y.ok()) << y.status().ToString();
      ExpectNear(y->at(0).as<float>(), Laid(want, d, b), 1e-6f);
    }
  }
  // Other broadcasts still need plain memory.
  if (b != 0) {
    EXPECT_TRUE(Refused(RunKernel("Mul", {}, {In(d, x, b), HostTensor::F32({1, 1, 3, 3}, Random(9, 9))}, {Out(d, b)}),
                        StatusCode::kUnsupported, "laid-out operands need the output's layout and dims"));
  }
}

TEST_P(ChannelAffineLayouts, ConcatAffineWritesEachPartInItsPlace) {
  const int32_t b = GetParam();
  const dims ad = {2, 16, 3, 3}, bd = {2, 32, 3, 3}, yd = {2, 48, 3, 3};
  const auto x = Random(288, 10), z = Random(576, 11), s = Random(48, 12), t = Random(48, 13);
  std::vector<float> want(static_cast<size_t>(Count(yd)));
  for (size_t n = 0; n < 2; ++n)
    for (size_t c = 0; c < 48; ++c)
      for (size_t p = 0; p < 9; ++p) {
        const float v = c < 16 ? x[(n * 16 + c) * 9 + p] : z[(n * 32 + c - 16) * 9 + p];
        want[(n * 48 + c) * 9 + p] = std::max(0.0f, v * s[c] + t[c]);
      }
  auto y = RunKernel("ConcatAffine", Attr("activation", std::string("Relu")),
                     {In(ad, x, b), In(bd, z, b), HostTensor::F32({48}, s, true), HostTensor::F32({48}, t, true)},
                     {Out(yd, b)});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(y->at(0).as<float>(), Laid(want, yd, b), 1e-6f);
  EXPECT_TRUE(
      Refused(RunKernel("ConcatAffine", {},
                        {In(ad, x, b), In(bd, z, b == 0 ? 8 : 0), HostTensor::F32({48}, s), HostTensor::F32({48}, t)},
                        {Out(yd, b)}),
              StatusCode::kUnsupported, "every part needs the output's dtype and layout"))
      << "parts in another layout";
  EXPECT_TRUE(Refused(RunKernel("ConcatAffine", Attr(hal::kAttrActivationMin, 0.f),
                                {In(ad, x, b), In(bd, z, b), HostTensor::F32({48}, s, true),
                                 HostTensor::F32({48}, t, true)},
                                {Out(yd, b)}),
                      StatusCode::kInvalidArgument,
                      "unknown attribute 'activation_min' (the ConcatAffine kernel reads activation)"))
      << "a Clip bound it would drop";
}

INSTANTIATE_TEST_SUITE_P(Layouts, ChannelAffineLayouts, ::testing::Values(0, 8, 16, kLast), [](const auto& info) {
  return info.param == kLast ? std::string("channels_last") : "block" + std::to_string(info.param);
});

TEST(ChannelAffineKernel, RefusesAnActivationParameterItDoesNotRead) {
  hal::KernelSpec s;
  s.op = "ChannelAffine";
  s.name = "aff";
  s.inputs = {{DataType::kFloat32, {1, 4, 3, 3}}, {DataType::kFloat32, {4}}, {DataType::kFloat32, {4}}};
  s.outputs = {{DataType::kFloat32, {1, 4, 3, 3}}};
  s.attrs.Set(hal::kAttrActivation, std::string("Relu"));
  ASSERT_TRUE(Cpu().kernels().Supports(s).ok()) << Cpu().kernels().Supports(s).ToString();
  s.attrs.Set(hal::kAttrActivationMax, 6.0);
  const Status st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "node aff (ChannelAffine): unknown attribute 'activation_max' (the ChannelAffine kernel reads activation)");
}

}  // namespace
}  // namespace ge::test
