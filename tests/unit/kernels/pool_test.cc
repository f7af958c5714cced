// Pooling kernels vs a naive reference with onnxruntime's semantics
// (ceil_mode drops a window starting in the end padding; count_include_pad
// counts declared pads only).
#include <algorithm>
#include <cfloat>
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

struct PoolCase {
  dims x;  // N, C, H, W
  dims k, s = {1, 1}, pads = {0, 0, 0, 0}, dil = {1, 1};
  bool ceil = false;
  bool include_pad = false;
};

int64_t OutSize(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe, int64_t d, bool ceil) {
  const int64_t span = in + pb + pe - ((k - 1) * d + 1);
  int64_t o = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (o - 1) * s >= in + pb) --o;
  return o;
}

std::pair<dims, std::vector<float>> RefPool(const std::vector<float>& x, const PoolCase& c, bool is_max) {
  const int64_t n = c.x[0], ch = c.x[1], h = c.x[2], w = c.x[3];
  const int64_t oh = OutSize(h, c.k[0], c.s[0], c.pads[0], c.pads[2], c.dil[0], c.ceil);
  const int64_t ow = OutSize(w, c.k[1], c.s[1], c.pads[1], c.pads[3], c.dil[1], c.ceil);
  std::vector<float> y(n * ch * oh * ow);
  for (int64_t b = 0; b < n * ch; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t h0 = i * c.s[0] - c.pads[0], w0 = j * c.s[1] - c.pads[1];
        float mx = -FLT_MAX;
        double sum = 0;
        int64_t real = 0;
        for (int64_t ki = 0; ki < c.k[0]; ++ki)
          for (int64_t kj = 0; kj < c.k[1]; ++kj) {
            const int64_t ih = h0 + ki * c.dil[0], iw = w0 + kj * c.dil[1];
            if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
            const float v = x[(b * h + ih) * w + iw];
            mx = std::max(mx, v);
            sum += v;
            ++real;
          }
        // Include-pad divisor: the window clipped to input + declared pads.
        const int64_t hs = std::min(h0 + c.k[0], h + c.pads[2]) - h0;
        const int64_t ws = std::min(w0 + c.k[1], w + c.pads[3]) - w0;
        y[(b * oh + i) * ow + j] = is_max ? mx : static_cast<float>(sum / (c.include_pad ? hs * ws : real));
      }
  return {{n, ch, oh, ow}, y};
}

hal::Attrs PoolAttrs(const PoolCase& c) {
  hal::Attrs a;
  a.Set("kernel_shape", c.k);
  a.Set("strides", c.s);
  a.Set("pads", c.pads);
  a.Set("dilations", c.dil);
  a.Set("ceil_mode", int64_t{c.ceil});
  a.Set("count_include_pad", int64_t{c.include_pad});
  return a;
}

void CheckPool(const std::string& op, const PoolCase& c, uint32_t seed = 1) {
  auto x = Random(c.x[0] * c.x[1] * c.x[2] * c.x[3], seed);
  auto [yd, want] = RefPool(x, c, op == "MaxPool");
  auto out = RunKernel(op, PoolAttrs(c), {HostTensor::F32(c.x, x)}, {{DataType::kFloat32, yd}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

const std::vector<float> k4x4 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

TEST(MaxPoolKernel, HandComputed) {
  hal::Attrs a;
  a.Set("kernel_shape", dims{2, 2});
  a.Set("strides", dims{2, 2});
  auto out = RunKernel("MaxPool", a, {HostTensor::F32({1, 1, 4, 4}, k4x4)}, {{DataType::kFloat32, {1, 1, 2, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {6, 8, 14, 16});
}

TEST(MaxPoolKernel, HandComputedCeilMode) {
  // 4x4, k 3, s 2: floor gives 1x1, ceil gives 2x2 (last window clipped).
  hal::Attrs a;
  a.Set("kernel_shape", dims{3, 3});
  a.Set("strides", dims{2, 2});
  a.Set("ceil_mode", int64_t{1});
  auto out = RunKernel("MaxPool", a, {HostTensor::F32({1, 1, 4, 4}, k4x4)}, {{DataType::kFloat32, {1, 1, 2, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {11, 12, 15, 16});
}

TEST(MaxPoolKernel, SqueezenetCeilModeOddSizes) {
  CheckPool("MaxPool", {.x = {1, 3, 9, 10}, .k = {3, 3}, .s = {2, 2}, .ceil = true});
  CheckPool("MaxPool", {.x = {2, 4, 13, 13}, .k = {3, 3}, .s = {2, 2}, .ceil = true});
  CheckPool("MaxPool", {.x = {1, 16, 55, 55}, .k = {3, 3}, .s = {2, 2}, .ceil = true});
}

TEST(MaxPoolKernel, CeilModeDropsWindowInPadding) {
  // in 5, k 2, s 2, pad end 1: ceil((5+1-2)/2)+1 = 3 windows, all start in the input.
  // in 4, k 2, s 2, pad end 1: ceil((4+1-2)/2)+1 = 3, but window 3 would start at 4 (padding): 2.
  CheckPool("MaxPool", {.x = {1, 2, 5, 4}, .k = {2, 2}, .s = {2, 2}, .pads = {0, 0, 1, 1}, .ceil = true});
}

TEST(MaxPoolKernel, FloorModeWithPads) {
  CheckPool("MaxPool", {.x = {1, 8, 11, 10}, .k = {3, 3}, .s = {2, 2}, .pads = {1, 1, 1, 1}});
}

TEST(MaxPoolKernel, ResnetStem) {
  CheckPool("MaxPool", {.x = {1, 64, 28, 28}, .k = {3, 3}, .s = {2, 2}, .pads = {1, 1, 1, 1}});
}

TEST(MaxPoolKernel, Dilation) {
  CheckPool("MaxPool", {.x = {1, 3, 10, 9}, .k = {2, 3}, .s = {1, 2}, .pads = {1, 0, 1, 2}, .dil = {2, 2}});
}

TEST(MaxPoolKernel, AutoPadSameUpper) {
  // in 5, k 2, s 2: out 3, total pad 1 at the end.
  PoolCase c{.x = {1, 2, 5, 5}, .k = {2, 2}, .s = {2, 2}, .pads = {0, 0, 1, 1}};
  auto x = Random(50, 4);
  auto [yd, want] = RefPool(x, c, true);
  hal::Attrs a;
  a.Set("kernel_shape", c.k);
  a.Set("strides", c.s);
  a.Set("auto_pad", std::string("SAME_UPPER"));
  auto out = RunKernel("MaxPool", a, {HostTensor::F32(c.x, x)}, {{DataType::kFloat32, yd}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

TEST(MaxPoolKernel, Pool1D) {
  hal::Attrs a;
  a.Set("kernel_shape", dims{3});
  a.Set("strides", dims{2});
  a.Set("pads", dims{1, 1});
  auto out =
      RunKernel("MaxPool", a, {HostTensor::F32({1, 1, 6}, {3, -1, 4, 1, -5, 9})}, {{DataType::kFloat32, {1, 1, 3}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // windows [pad,3,-1], [-1,4,1], [1,-5,9]
  ExpectNear((*out)[0].as<float>(), {3, 4, 9});
}

TEST(AveragePoolKernel, HandComputedIncludeVsExcludePad) {
  // 3x3 of 1..9, k 2, s 2, pads 1: the corner window covers only x[0][0] = 1.
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  hal::Attrs a;
  a.Set("kernel_shape", dims{2, 2});
  a.Set("strides", dims{2, 2});
  a.Set("pads", dims{1, 1, 1, 1});
  auto ex = RunKernel("AveragePool", a, {HostTensor::F32({1, 1, 3, 3}, x)}, {{DataType::kFloat32, {1, 1, 2, 2}}});
  ASSERT_TRUE(ex.ok()) << ex.status().ToString();
  ExpectNear((*ex)[0].as<float>(), {1, 2.5f, 5.5f, 7});
  a.Set("count_include_pad", int64_t{1});
  auto in = RunKernel("AveragePool", a, {HostTensor::F32({1, 1, 3, 3}, x)}, {{DataType::kFloat32, {1, 1, 2, 2}}});
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  ExpectNear((*in)[0].as<float>(), {0.25f, 1.25f, 2.75f, 7});
}

TEST(AveragePoolKernel, ExcludePadWithPads) {
  CheckPool("AveragePool", {.x = {2, 3, 7, 8}, .k = {3, 3}, .s = {2, 2}, .pads = {1, 1, 1, 1}});
}

TEST(AveragePoolKernel, IncludePadWithAsymmetricPads) {
  CheckPool("AveragePool", {.x = {2, 3, 7, 8}, .k = {3, 3}, .s = {2, 2}, .pads = {1, 0, 2, 1}, .include_pad = true});
}

TEST(AveragePoolKernel, CeilModeExcludePad) {
  CheckPool("AveragePool", {.x = {1, 4, 9, 10}, .k = {3, 3}, .s = {2, 2}, .ceil = true});
}

TEST(AveragePoolKernel, CeilModeIncludePadExactFit) {
  // in 9, k 3, s 2, pads 1/1: ceil and floor agree, no window beyond the pads.
  CheckPool("AveragePool",
        {.x = {1, 2, 9, 9}, .k = {3, 3}, .s = {2, 2}, .pads = {1, 1, 1, 1}, .ceil = true, .include_pad = true});
}

TEST(AveragePoolKernel, RejectsIncludePadBeyondPads) {
  hal::KernelSpec s;
  s.op = "AveragePool";
  s.name = "p";
  s.attrs = PoolAttrs({.x = {1, 1, 4, 4}, .k = {3, 3}, .s = {2, 2}, .ceil = true, .include_pad = true});
  s.inputs = {{DataType::kFloat32, {1, 1, 4, 4}}};
  s.outputs = {{DataType::kFloat32, {1, 1, 2, 2}}};
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.ToString();
}

TEST(GlobalPoolKernel, AverageAndMax) {
  auto x = Random(2 * 3 * 5 * 4, 9);
  std::vector<float> avg(6), mx(6, -FLT_MAX);
  for (int b = 0; b < 6; ++b) {
    double s = 0;
    for (int i = 0; i < 20; ++i) {
      s += x[b * 20 + i];
      mx[b] = std::max(mx[b], x[b * 20 + i]);
    }
    avg[b] = static_cast<float>(s / 20);
  }
  auto a = RunKernel("GlobalAveragePool", {}, {HostTensor::F32({2, 3, 5, 4}, x)}, {{DataType::kFloat32, {2, 3, 1, 1}}});
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ExpectNear((*a)[0].as<float>(), avg);
  auto m = RunKernel("GlobalMaxPool", {}, {HostTensor::F32({2, 3, 5, 4}, x)}, {{DataType::kFloat32, {2, 3, 1, 1}}});
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ExpectNear((*m)[0].as<float>(), mx);
}

TEST(GlobalPoolKernel, MobilenetHead) {
  auto x = Random(1 * 64 * 7 * 7, 10);
  std::vector<float> avg(64);
  for (int c = 0; c < 64; ++c) {
    double s = 0;
    for (int i = 0; i < 49; ++i) s += x[c * 49 + i];
    avg[c] = static_cast<float>(s / 49);
  }
  auto a =
      RunKernel("GlobalAveragePool", {}, {HostTensor::F32({1, 64, 7, 7}, x)}, {{DataType::kFloat32, {1, 64, 1, 1}}});
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ExpectNear((*a)[0].as<float>(), avg);
}

hal::KernelSpec MaxPoolSpec() {
  hal::KernelSpec s;
  s.op = "MaxPool";
  s.name = "p";
  s.attrs.Set("kernel_shape", dims{2, 2});
  s.inputs = {{DataType::kFloat32, {1, 1, 4, 4}}};
  s.outputs = {{DataType::kFloat32, {1, 1, 3, 3}}};
  return s;
}

TEST(MaxPoolKernel, SupportAcceptsPlainSpec) { EXPECT_TRUE(Cpu().kernels().Supports(MaxPoolSpec()).ok()); }

// The Indices output takes the plain loop (max_pool_loop_kernels.cc), which
// has no channel-blocked layouts.
TEST(MaxPoolKernel, IndicesOutputOnPlainLayoutsOnly) {
  auto s = MaxPoolSpec();
  s.outputs.push_back({DataType::kInt64, {1, 1, 3, 3}});
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok());
  s.inputs = {{DataType::kFloat32, {1, 16, 4, 4}, 16}};
  s.outputs = {{DataType::kFloat32, {1, 16, 3, 3}, 16}, {DataType::kInt64, {1, 16, 3, 3}, 16}};
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("plain layouts only"), std::string::npos) << st.message();
}

TEST(MaxPoolKernel, RejectsF16) {
  auto s = MaxPoolSpec();
  s.inputs[0].dtype = s.outputs[0].dtype = DataType::kFloat16;
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kUnsupported,
                      "input dtype f16 is not supported (f32, f64, u8, i8)"));
}

TEST(MaxPoolKernel, RejectsMissingKernelShape) {
  auto s = MaxPoolSpec();
  s.attrs = {};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument, "MaxPool: kernel_shape is required"));
}

TEST(MaxPoolKernel, RejectsWrongOutputShape) {
  auto s = MaxPoolSpec();
  s.outputs[0].dims = {1, 1, 2, 2};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "MaxPool: output [1,1,2,2] does not match the computed [1,1,3,3]"));
}

}  // namespace
}  // namespace ge::test
