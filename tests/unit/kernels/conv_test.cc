// Conv kernel vs a direct-convolution reference written here (padding,
// stride, dilation, groups), plus hand-computed cases and post-ops.
#include <algorithm>
#include <cmath>
#include <random>

#include "hal/fused_attrs.h"
#include "kernels/conv_gemv.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

struct ConvRef {
  dims y_dims;
  std::vector<float> y;
};

// 2-D direct convolution; pads = {top, left, bottom, right} (ONNX order).
ConvRef RefConv2D(const std::vector<float>& x, const dims& xd, const std::vector<float>& w, const dims& wd,
                  const std::vector<float>* b, int64_t group, dims strides, dims pads, dims dil) {
  const int64_t n = xd[0], c = xd[1], h = xd[2], wi = xd[3];
  const int64_t m = wd[0], cg = wd[1], kh = wd[2], kw = wd[3];
  const int64_t oh = (h + pads[0] + pads[2] - ((kh - 1) * dil[0] + 1)) / strides[0] + 1;
  const int64_t ow = (wi + pads[1] + pads[3] - ((kw - 1) * dil[1] + 1)) / strides[1] + 1;
  ConvRef r;
  r.y_dims = {n, m, oh, ow};
  r.y.assign(n * m * oh * ow, 0.0f);
  const int64_t mg = m / group;
  for (int64_t in = 0; in < n; ++in)
    for (int64_t om = 0; om < m; ++om) {
      const int64_t g = om / mg;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double acc = b ? (*b)[om] : 0.0;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = y * strides[0] - pads[0] + ky * dil[0];
                const int64_t ix = xo * strides[1] - pads[1] + kx * dil[1];
                if (iy < 0 || iy >= h || ix < 0 || ix >= wi) continue;
                const int64_t ch = g * cg + ic;
                acc += double(x[((in * c + ch) * h + iy) * wi + ix]) * w[((om * cg + ic) * kh + ky) * kw + kx];
              }
          r.y[((in * m + om) * oh + y) * ow + xo] = static_cast<float>(acc);
        }
    }
  (void)c;
  return r;
}

struct Case {
  dims x, w;
  bool bias = false;
  int64_t group = 1;
  dims strides = {1, 1}, pads = {0, 0, 0, 0}, dil = {1, 1};
  std::string auto_pad = "";  // when set, the kernel gets it and the reference the explicit `pads`
  bool const_w = true;
  std::string act = "";
  float amin = 0, amax = 0;
  bool sum = false;
  bool winograd = false;  // conv_algorithm = "winograd"
  bool input_scale = false;  // input 4 scales X per channel
  float tol = 1e-4f;
};

// Runs the kernel and the reference on the same random data.
void CheckConv(const Case& k, uint32_t seed = 1) {
  auto x = Random(Count(k.x), seed), w = Random(Count(k.w), seed + 1), b = Random(k.w[0], seed + 2);
  const auto scale = Random(k.x[1], seed + 4);
  std::vector<float> x_ref = x;  // what the conv sees: x * scale[c] with an input scale
  if (k.input_scale)
    for (size_t i = 0; i < x_ref.size(); ++i) x_ref[i] *= scale[(i / (k.x[2] * k.x[3])) % k.x[1]];
  ConvRef ref = RefConv2D(x_ref, k.x, w, k.w, k.bias ? &b : nullptr, k.group, k.strides, k.pads, k.dil);
  auto res = Random(Count(ref.y_dims), seed + 3);
  for (size_t i = 0; i < ref.y.size(); ++i) {
    float v = ref.y[i] + (k.sum ? res[i] : 0.0f);
    if (k.act == "Relu") v = std::max(v, 0.0f);
    if (k.act == "Clip") v = std::min(std::max(v, k.amin), k.amax);
    if (k.act == "Sigmoid") v = 1.0f / (1.0f + std::exp(-v));
    if (k.act == "Swish") v = v / (1.0f + std::exp(-v));
    ref.y[i] = v;
  }
  hal::Attrs a;
  a.Set("group", k.group);
  a.Set("strides", k.strides);
  a.Set("dilations", k.dil);
  a.Set("kernel_shape", dims(k.w.begin() + 2, k.w.end()));
  if (k.auto_pad.empty()) {
    a.Set("pads", k.pads);
  } else {
    a.Set("auto_pad", k.auto_pad);
  }
  if (!k.act.empty()) a.Set("activation", k.act);
  if (k.winograd) a.Set("conv_algorithm", std::string("winograd"));
  if (k.act == "Clip") {
    a.Set("activation_min", double(k.amin));
    a.Set("activation_max", double(k.amax));
  }
  std::vector<HostTensor> in = {HostTensor::F32(k.x, x), HostTensor::F32(k.w, w, k.const_w),
                                k.bias ? HostTensor::F32({k.w[0]}, b, k.const_w) : HostTensor::Absent()};
  if (k.sum) {
    a.Set("fused_sum", int64_t{1});
    in.push_back(HostTensor::F32(ref.y_dims, res));
  }
  if (k.input_scale) {
    if (!k.sum) in.push_back(HostTensor::Absent());
    in.push_back(HostTensor::F32({1, k.x[1], 1, 1}, scale));
  }
  auto out = RunKernel("Conv", a, in, {{DataType::kFloat32, ref.y_dims}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), ref.y, k.tol);
}

TEST(ConvKernel, HandComputed2x2OnesKernel) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> w = {1, 1, 1, 1};
  hal::Attrs a;
  a.Set("kernel_shape", dims{2, 2});
  auto out = RunKernel("Conv", a, {HostTensor::F32({1, 1, 3, 3}, x), HostTensor::F32({1, 1, 2, 2}, w, true)},
                       {{DataType::kFloat32, {1, 1, 2, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {12, 16, 24, 28});
}

TEST(ConvKernel, HandComputedBiasAndPad) {
  // 1x1 input 2, 3x3 kernel of ones with pad 1: only the centre tap hits.
  hal::Attrs a;
  a.Set("pads", dims{1, 1, 1, 1});
  auto out = RunKernel("Conv", a,
                       {HostTensor::F32({1, 1, 1, 1}, {2}), HostTensor::F32({2, 1, 3, 3}, std::vector<float>(18, 1.0f)),
                        HostTensor::F32({2}, {0.5f, -3.0f})},
                       {{DataType::kFloat32, {1, 2, 1, 1}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {2.5f, -1.0f});
}

TEST(ConvKernel, Plain3x3WithBias) {
  CheckConv({.x = {2, 4, 7, 7}, .w = {3, 4, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, NoBiasNoPad) { CheckConv({.x = {1, 3, 6, 5}, .w = {5, 3, 3, 2}}); }

TEST(ConvKernel, Stride2AsymmetricPads) {
  CheckConv({.x = {1, 3, 9, 8}, .w = {4, 3, 3, 3}, .bias = true, .strides = {2, 2}, .pads = {0, 1, 2, 1}});
}

TEST(ConvKernel, StrideLeavesRemainder) {
  // (8 - 3) / 2 is not exact: the last input row/column is never used.
  CheckConv({.x = {1, 2, 8, 8}, .w = {3, 2, 3, 3}, .strides = {2, 2}});
}

TEST(ConvKernel, NonConstWeightsAndBias) {
  CheckConv(
      {.x = {1, 8, 9, 9}, .w = {16, 8, 3, 3}, .bias = true, .strides = {2, 1}, .pads = {1, 0, 1, 2}, .const_w = false});
}

TEST(ConvKernel, Dilation2) {
  CheckConv({.x = {1, 3, 10, 9}, .w = {4, 3, 3, 3}, .bias = true, .pads = {2, 2, 2, 2}, .dil = {2, 2}});
}

TEST(ConvKernel, DilationAndStride) {
  CheckConv({.x = {1, 8, 11, 11}, .w = {8, 8, 3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1}, .dil = {2, 3}});
}

TEST(ConvKernel, Grouped) {
  CheckConv({.x = {2, 4, 6, 6}, .w = {6, 2, 3, 3}, .bias = true, .group = 2, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, GroupedLargeChannels) {
  CheckConv({.x = {1, 32, 8, 8}, .w = {64, 8, 3, 3}, .bias = true, .group = 4, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, Depthwise) {
  CheckConv({.x = {1, 16, 9, 9}, .w = {16, 1, 3, 3}, .bias = true, .group = 16, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, DepthwiseStride2NonConst) {
  CheckConv({.x = {1, 24, 10, 10},
         .w = {24, 1, 3, 3},
         .bias = true,
         .group = 24,
         .strides = {2, 2},
         .pads = {0, 0, 1, 1},
         .const_w = false});
}

TEST(ConvKernel, DepthwiseMultiplier) {
  CheckConv({.x = {1, 4, 7, 7}, .w = {8, 1, 3, 3}, .group = 4, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, Pointwise1x1) { CheckConv({.x = {1, 32, 7, 7}, .w = {64, 32, 1, 1}, .bias = true}); }

TEST(ConvKernel, Resnet3x3Block) {
  CheckConv({.x = {1, 64, 14, 14}, .w = {64, 64, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}});
}

TEST(ConvKernel, FirstLayer7x7Stride2) {
  CheckConv({.x = {1, 3, 23, 23}, .w = {16, 3, 7, 7}, .bias = true, .strides = {2, 2}, .pads = {3, 3, 3, 3}});
}

TEST(ConvKernel, AutoPadSameUpper) {
  // in 6, k 3, s 2: out 3, total pad 1, SAME_UPPER puts it at the end.
  CheckConv({.x = {1, 3, 6, 6}, .w = {4, 3, 3, 3}, .strides = {2, 2}, .pads = {0, 0, 1, 1}, .auto_pad = "SAME_UPPER"});
}

TEST(ConvKernel, AutoPadSameLower) {
  CheckConv({.x = {1, 3, 6, 6}, .w = {4, 3, 3, 3}, .strides = {2, 2}, .pads = {1, 1, 0, 0}, .auto_pad = "SAME_LOWER"});
}

TEST(ConvKernel, AutoPadSameUpperStride1) {
  // k 4: total pad 3 -> 1 before, 2 after.
  CheckConv({.x = {1, 2, 5, 5}, .w = {3, 2, 4, 4}, .bias = true, .pads = {1, 1, 2, 2}, .auto_pad = "SAME_UPPER"});
}

TEST(ConvKernel, AutoPadValidIgnoresPads) {
  CheckConv({.x = {1, 2, 5, 6}, .w = {3, 2, 3, 3}, .pads = {0, 0, 0, 0}, .auto_pad = "VALID"});
}

TEST(ConvKernel, FusedRelu) {
  CheckConv({.x = {1, 16, 8, 8}, .w = {16, 16, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}, .act = "Relu"});
}

TEST(ConvKernel, FusedClip) {
  CheckConv({.x = {1, 8, 8, 8},
         .w = {16, 8, 3, 3},
         .bias = true,
         .pads = {1, 1, 1, 1},
         .act = "Clip",
         .amin = -0.5f,
         .amax = 0.75f});
}

TEST(ConvKernel, FusedSigmoid) { CheckConv({.x = {1, 4, 6, 6}, .w = {8, 4, 3, 3}, .bias = true, .act = "Sigmoid"}); }

// Swish and Sigmoid run as an own pass after the primitive (activation_loop.h):
// after the residual is added, over every output value (sizes past the
// threads' split and not a multiple of the vector).
TEST(ConvKernel, FusedSwishAfterThePrimitive) {
  CheckConv({.x = {1, 16, 45, 45}, .w = {24, 16, 1, 1}, .bias = true, .act = "Swish"});
  CheckConv({.x = {1, 3, 7, 5}, .w = {5, 3, 3, 3}, .pads = {1, 1, 1, 1}, .act = "Swish"});
}

// conv_input_scale's input 4 (an SE gate): X scaled per channel, folded
// into the weights per run, constant or not, with the other post-ops.
TEST(ConvKernel, InputScaleScalesXPerChannel) {
  CheckConv({.x = {1, 24, 9, 9}, .w = {16, 24, 1, 1}, .bias = true, .input_scale = true});
  CheckConv({.x = {1, 24, 9, 9}, .w = {16, 24, 1, 1}, .const_w = false, .input_scale = true});
  CheckConv({.x = {1, 8, 7, 7}, .w = {16, 8, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}, .act = "Swish", .sum = true,
             .input_scale = true});
}

TEST(ConvKernel, InputScaleNeedsOneImageAndOneGroup) {
  hal::KernelSpec spec;
  spec.op = "Conv";
  spec.name = "c";
  spec.inputs = {{DataType::kFloat32, {2, 8, 5, 5}}, {DataType::kFloat32, {4, 8, 1, 1}}, {DataType::kFloat32, {4}},
                 {}, {DataType::kFloat32, {2, 8, 1, 1}}};
  spec.outputs = {{DataType::kFloat32, {2, 4, 5, 5}}};
  spec.attrs.Set("kernel_shape", dims{1, 1});
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kInvalidArgument,
                      "Conv: input scale [2,8,1,1] must be [1,8,1,1]"));  // two images
  spec.inputs[0].dims = {1, 8, 5, 5};
  spec.outputs[0].dims = {1, 4, 5, 5};
  spec.inputs[4].dims = {1, 8, 1, 1};
  EXPECT_TRUE(Cpu().kernels().Supports(spec).ok());
  spec.inputs[4].dims = {1, 8, 5, 5};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kInvalidArgument,
                      "Conv: input scale [1,8,5,5] must be [1,8,1,1]"));  // not one value per channel
  spec.inputs[4].dims = {1, 8, 1, 1};
  spec.attrs.Set("group", int64_t{2});
  spec.inputs[1].dims = {4, 4, 1, 1};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kUnsupported,
                      "Conv: an input scale needs group 1"));  // grouped
}

// A conv over 1x1 images with constant weights runs on conv_gemv.h's loop:
// every activation, with and without bias, two images, blocked layouts.
TEST(ConvKernel, MatrixVectorConvsOnTheOwnLoop) {
  for (const char* act : {"", "Relu", "Clip", "Sigmoid", "Swish", "HardSwish", "HardSigmoid"}) {
    Case k{.x = {2, 40, 1, 1}, .w = {24, 40, 1, 1}, .bias = true, .act = act, .amin = -0.2f, .amax = 0.3f};
    if (std::string(act) == "HardSwish" || std::string(act) == "HardSigmoid") {
      // the reference below has no formula for these: compare with the same conv on oneDNN (not constant W)
      auto x = Random(40 * 2, 7), w = Random(24 * 40, 8), b = Random(24, 9);
      hal::Attrs a;
      a.Set("kernel_shape", dims{1, 1});
      a.Set("activation", std::string(act));
      auto run = [&](bool const_w) {
        return RunKernel("Conv", a,
                         {HostTensor::F32(k.x, x), HostTensor::F32(k.w, w, const_w), HostTensor::F32({24}, b, const_w)},
                         {{DataType::kFloat32, {2, 24, 1, 1}}});
      };
      auto own = run(true), dnnl = run(false);
      ASSERT_TRUE(own.ok() && dnnl.ok()) << act;
      ExpectNear((*own)[0].as<float>(), (*dnnl)[0].as<float>(), 1e-5f);
      continue;
    }
    CheckConv(k);
    k.bias = false;
    CheckConv(k, 3);
  }
}

TEST(ConvKernel, MatrixVectorChoice) {
  hal::KernelSpec spec;
  spec.op = "Conv";
  spec.name = "c";
  spec.inputs = {{DataType::kFloat32, {1, 96, 1, 1}}, {DataType::kFloat32, {4, 96, 1, 1}}, {DataType::kFloat32, {4}}};
  spec.outputs = {{DataType::kFloat32, {1, 4, 1, 1}}};
  std::vector<float> w(4 * 96, 0.5f);
  spec.const_inputs = {nullptr, w.data()};
  EXPECT_TRUE(hal::ConvIsGemv(spec));
  spec.inputs[0].channel_block = hal::kChannelsLast;  // [N, C, 1, 1] is the same bytes in every layout
  EXPECT_TRUE(hal::ConvIsGemv(spec));
  auto other = spec;
  other.const_inputs = {};
  EXPECT_FALSE(hal::ConvIsGemv(other));  // W computed at run time
  other = spec;
  other.attrs.Set("pads", dims{0, 0, 0, 0});
  EXPECT_TRUE(hal::ConvIsGemv(other));
  other.attrs.Set("pads", dims{1, 1, 1, 1});
  other.attrs.Set("strides", dims{3, 3});
  EXPECT_FALSE(hal::ConvIsGemv(other));  // the one output reads the padding
  other = spec;
  other.inputs[0].dims = {1, 96, 2, 2};
  EXPECT_FALSE(hal::ConvIsGemv(other));
  other = spec;
  other.inputs[1].dims = {1024, 96, 1, 1};
  other.outputs[0].dims = {1, 1024, 1, 1};
  EXPECT_FALSE(hal::ConvIsGemv(other));  // more than kConvGemvMaxMacs
}

TEST(ConvKernel, FusedSumThenSwish) {
  CheckConv({.x = {1, 16, 8, 8}, .w = {32, 16, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}, .act = "Swish", .sum = true});
}

TEST(ConvKernel, DepthwiseWithSwishAndSigmoid) {
  for (const char* act : {"Swish", "Sigmoid"})
    CheckConv({.x = {1, 32, 40, 40}, .w = {32, 1, 3, 3}, .bias = true, .group = 32, .strides = {2, 2},
               .pads = {1, 1, 1, 1}, .act = act});
}

TEST(ConvKernel, FusedSumThenRelu) {
  CheckConv({.x = {1, 16, 8, 8}, .w = {32, 16, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}, .act = "Relu", .sum = true});
}

TEST(ConvKernel, FusedSumSmallChannels) {
  CheckConv({.x = {2, 3, 5, 5}, .w = {2, 3, 3, 3}, .pads = {1, 1, 1, 1}, .sum = true});
}

TEST(ConvKernel, FusedSumDepthwise) {
  CheckConv({.x = {1, 8, 6, 6},
         .w = {8, 1, 3, 3},
         .bias = true,
         .group = 8,
         .pads = {1, 1, 1, 1},
         .act = "Clip",
         .amin = 0.0f,
         .amax = 1.0f,
         .sum = true});
}

TEST(ConvKernel, FusedSumPlainLayout) {
  // oneDNN runs this shape (channel multiplier 2) in plain nchw: the residual
  // is copied into the output, not reordered.
  CheckConv({.x = {1, 4, 7, 7},
         .w = {8, 1, 3, 3},
         .bias = true,
         .group = 4,
         .pads = {1, 1, 1, 1},
         .act = "Relu",
         .sum = true});
}

TEST(ConvKernel, FusedSumInPlace) {
  // The residual buffer may be the output buffer (compiler in-place reuse).
  auto x = Random(1 * 8 * 5 * 5, 7), w = Random(8 * 8 * 3 * 3, 8), r = Random(8 * 5 * 5, 9);
  ConvRef ref = RefConv2D(x, {1, 8, 5, 5}, w, {8, 8, 3, 3}, nullptr, 1, {1, 1}, {1, 1, 1, 1}, {1, 1});
  hal::Attrs a;
  a.Set("pads", dims{1, 1, 1, 1});
  a.Set("fused_sum", int64_t{1});
  hal::KernelSpec spec;
  spec.op = "Conv";
  spec.name = "inplace";
  spec.attrs = a;
  spec.inputs = {
      {DataType::kFloat32, {1, 8, 5, 5}}, {DataType::kFloat32, {8, 8, 3, 3}}, {}, {DataType::kFloat32, {1, 8, 5, 5}}};
  spec.outputs = {{DataType::kFloat32, {1, 8, 5, 5}}};
  auto k = Cpu().kernels().Create(spec);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  auto xb = Cpu().Allocate(x.size() * 4), wb = Cpu().Allocate(w.size() * 4),
       yb = Cpu().Allocate(r.size() * 4);
  ASSERT_TRUE(xb.ok() && wb.ok() && yb.ok());
  std::memcpy(xb->data(), x.data(), x.size() * 4);
  std::memcpy(wb->data(), w.data(), w.size() * 4);
  std::memcpy(yb->data(), r.data(), r.size() * 4);
  const void* in[] = {xb->data(), wb->data(), nullptr, yb->data()};
  void* out[] = {yb->data()};
  ASSERT_TRUE((*k)->Run(in, out).ok());
  std::vector<float> got(r.size()), want(r.size());
  std::memcpy(got.data(), yb->data(), r.size() * 4);
  for (size_t i = 0; i < r.size(); ++i) want[i] = ref.y[i] + r[i];
  ExpectNear(got, want);
}

TEST(ConvKernel, Conv1D) {
  // A 1-D conv is the 2-D reference with height 1.
  auto x = Random(2 * 3 * 11, 3), w = Random(4 * 3 * 3, 4), b = Random(4, 5);
  ConvRef ref = RefConv2D(x, {2, 3, 1, 11}, w, {4, 3, 1, 3}, &b, 1, {1, 2}, {0, 1, 0, 2}, {1, 1});
  hal::Attrs a;
  a.Set("strides", dims{2});
  a.Set("pads", dims{1, 2});
  auto out = RunKernel(
      "Conv", a, {HostTensor::F32({2, 3, 11}, x), HostTensor::F32({4, 3, 3}, w, true), HostTensor::F32({4}, b, true)},
      {{DataType::kFloat32, {2, 4, ref.y_dims[3]}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), ref.y);
}

TEST(ConvKernel, PointwiseSumRelu) {
  // RunKernel runs twice: a sum post-op that accumulated into dst would double.
  CheckConv({.x = {1, 16, 6, 6}, .w = {16, 16, 1, 1}, .bias = true, .act = "Relu", .sum = true}, 11);
}

TEST(ConvKernel, Conv3D) {
  // A 3-D conv with depth 1 and kernel depth 1 is the 2-D reference.
  auto x = Random(2 * 5 * 5, 12), w = Random(3 * 2 * 3 * 3, 13);
  ConvRef ref = RefConv2D(x, {1, 2, 5, 5}, w, {3, 2, 3, 3}, nullptr, 1, {2, 1}, {1, 0, 1, 1}, {1, 1});
  hal::Attrs a;
  a.Set("strides", dims{1, 2, 1});
  a.Set("pads", dims{0, 1, 0, 0, 1, 1});
  auto out = RunKernel("Conv", a, {HostTensor::F32({1, 2, 1, 5, 5}, x), HostTensor::F32({3, 2, 1, 3, 3}, w, true)},
                       {{DataType::kFloat32, {1, 3, 1, ref.y_dims[2], ref.y_dims[3]}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), ref.y);
}

hal::KernelSpec ConvSpec() {
  hal::KernelSpec s;
  s.op = "Conv";
  s.name = "c";
  s.inputs = {{DataType::kFloat32, {1, 3, 8, 8}}, {DataType::kFloat32, {4, 3, 3, 3}}};
  s.outputs = {{DataType::kFloat32, {1, 4, 6, 6}}};
  return s;
}

TEST(ConvKernel, SupportAcceptsPlainSpec) { EXPECT_TRUE(Cpu().kernels().Supports(ConvSpec()).ok()); }

TEST(ConvKernel, RejectsF16) {
  auto s = ConvSpec();
  s.inputs[0].dtype = DataType::kFloat16;
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.ToString();
  EXPECT_NE(st.message().find("f16"), std::string::npos) << st.message();
}

TEST(ConvKernel, RejectsWrongOutputShape) {
  auto s = ConvSpec();
  s.outputs[0].dims = {1, 4, 8, 8};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "Conv: output [1,4,8,8] does not match the computed [1,4,6,6]"));
}

TEST(ConvKernel, RejectsBadGroup) {
  auto s = ConvSpec();
  s.attrs.Set("group", int64_t{2});
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "Conv: group 2 does not fit X [1,3,8,8] and W [4,3,3,3]"));
}

TEST(ConvKernel, RejectsUnknownActivation) {
  auto s = ConvSpec();
  s.attrs.Set("activation", std::string("Mish"));
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("Mish"), std::string::npos) << st.message();
}

TEST(ConvKernel, RejectsFusedSumWithoutInput) {
  auto s = ConvSpec();
  s.attrs.Set("fused_sum", int64_t{1});
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "Conv with fused_sum=1 needs the residual as input 3"));
}

TEST(ConvKernel, RejectsBadAutoPad) {
  auto s = ConvSpec();
  s.attrs.Set("auto_pad", std::string("SAME"));
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "auto_pad 'SAME' is not NOTSET, VALID, SAME_UPPER or SAME_LOWER"));
}

// conv_algorithm = "winograd" (the conv_winograd pass): oneDNN's Winograd
// kernels where the CPU has them (AVX-512), else the direct ones; the same
// numbers either way, within Winograd's rounding (its transforms add a few
// ulps per tile; 64 channels of 9 taps of [-1, 1] values sum to about 10).
// Without Winograd the tests check the direct fallback, then say in the ctest
// summary that the Winograd path was skipped on this CPU.
#define GE_SKIP_WITHOUT_WINOGRAD()         \
  if (!Cpu().capabilities().winograd_conv) \
  GTEST_SKIP() << "this CPU has no Winograd convolution (oneDNN: AVX-512 only); checked the direct fallback"

TEST(ConvKernel, Winograd3x3) {
  CheckConv({.x = {1, 64, 28, 28}, .w = {64, 64, 3, 3}, .bias = true, .pads = {1, 1, 1, 1}, .winograd = true,
             .tol = 2e-4f});
  GE_SKIP_WITHOUT_WINOGRAD();
}

TEST(ConvKernel, WinogradSumThenRelu) {
  CheckConv({.x = {1, 32, 14, 14},
             .w = {48, 32, 3, 3},
             .bias = true,
             .pads = {1, 1, 1, 1},
             .act = "Relu",
             .sum = true,
             .winograd = true,
             .tol = 2e-4f},
            5);
  GE_SKIP_WITHOUT_WINOGRAD();
}

TEST(ConvKernel, WinogradBatchNoPadOddSize) {
  CheckConv({.x = {2, 16, 9, 11}, .w = {32, 16, 3, 3}, .winograd = true, .tol = 2e-4f}, 9);
  GE_SKIP_WITHOUT_WINOGRAD();
}

TEST(ConvKernel, WinogradOnAShapeItCannotTakeRunsDirect) {
  // Stride 2 and a 5x5 window have no Winograd kernel: asked for, they run direct.
  CheckConv({.x = {1, 16, 12, 12}, .w = {16, 16, 3, 3}, .strides = {2, 2}, .pads = {1, 1, 1, 1}, .winograd = true});
  CheckConv({.x = {1, 16, 12, 12}, .w = {16, 16, 5, 5}, .pads = {2, 2, 2, 2}, .winograd = true});
}

TEST(ConvKernel, UnknownAlgorithmIsAnError) {
  hal::Attrs a;
  a.Set("pads", dims{1, 1, 1, 1});
  a.Set("conv_algorithm", std::string("fft"));
  auto out = RunKernel("Conv", a,
                       {HostTensor::F32({1, 4, 5, 5}, Random(100, 1)), HostTensor::F32({4, 4, 3, 3}, Random(144, 2), true)},
                       {{DataType::kFloat32, {1, 4, 5, 5}}});
  ASSERT_TRUE(Refused(out, StatusCode::kInvalidArgument, "conv_algorithm \"fft\""));
}

// Kernels share the thread's scratch memory (thread_scratch.h) for their
// temporaries and scratchpads: two convs with both, run interleaved, each
// still match the reference.
TEST(ConvKernel, InterleavedKernelsSharingScratchMatchTheReference) {
  struct One {
    hal::Attrs a;
    std::vector<float> x, w;
    dims xd, wd;
    std::vector<hal::TensorInfo> out;
    ConvRef ref;
  };
  auto make = [](int64_t c, int64_t hw, uint32_t seed, bool winograd) {
    One o;
    o.a.Set("pads", dims{1, 1, 1, 1});
    if (winograd) o.a.Set("conv_algorithm", std::string("winograd"));
    o.xd = {1, c, hw, hw};
    o.wd = {c, c, 3, 3};
    o.x = Random(Count(o.xd), seed);
    o.w = Random(Count(o.wd), seed + 1);
    o.ref = RefConv2D(o.x, o.xd, o.w, o.wd, nullptr, 1, {1, 1}, {1, 1, 1, 1}, {1, 1});
    o.out = {{DataType::kFloat32, o.ref.y_dims}};
    return o;
  };
  One first = make(32, 20, 1, true), second = make(16, 9, 5, false);
  auto k1 = CreateKernel("Conv", first.a, {HostTensor::F32(first.xd, first.x), HostTensor::F32(first.wd, first.w, true)},
                         first.out);
  auto k2 = CreateKernel("Conv", second.a,
                         {HostTensor::F32(second.xd, second.x), HostTensor::F32(second.wd, second.w, true)}, second.out);
  ASSERT_TRUE(k1.ok() && k2.ok());
  for (int round = 0; round < 2; ++round) {
    auto r1 = RunInto(*k1, first.out);
    ASSERT_TRUE(r1.ok()) << r1.status().ToString();
    auto r2 = RunInto(*k2, second.out);
    ASSERT_TRUE(r2.ok()) << r2.status().ToString();
    ExpectNear((*r1)[0].as<float>(), first.ref.y, 2e-4f);
    ExpectNear((*r2)[0].as<float>(), second.ref.y);
  }
}

// hal/fused_attrs.h: the kernel lists what it reads (KnownAttrs) and refuses
// the rest, so a misspelt post-op is not dropped.
TEST(ConvKernel, RefusesAMisspeltFusionAttribute) {
  hal::KernelSpec s = ConvSpec();
  s.attrs.Set(hal::kAttrActivation, std::string("Relu"));
  ASSERT_TRUE(Cpu().kernels().Supports(s).ok()) << Cpu().kernels().Supports(s).ToString();
  hal::KernelSpec typo = ConvSpec();
  typo.attrs.Set("activaton", std::string("Relu"));
  const std::string want =
      "node c (Conv): unknown attribute 'activaton' (the Conv kernel reads activation, activation_alpha, "
      "activation_beta, activation_max, activation_min, auto_pad, conv_algorithm, dilations, fused_sum, group, "
      "kernel_shape, pads, strides)";
  const Status supports = Cpu().kernels().Supports(typo);
  EXPECT_EQ(supports.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(supports.message(), want);
  // Create (at load, once per kernel) refuses it the same way.
  auto created = Cpu().kernels().Create(typo);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(created.status().message(), want);
}

// Names starting with '_' are the framework's bookkeeping (_opset,
// _precision), on any node: never refused.
TEST(ConvKernel, TakesTheFrameworksAttributes) {
  hal::KernelSpec s = ConvSpec();
  s.attrs.Set("_opset", int64_t{17});
  s.attrs.Set("_precision", std::string("bf16"));
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok()) << Cpu().kernels().Supports(s).ToString();
}

// The names of hal/fused_attrs.h: the strings the .om stores.
TEST(FusedAttrs, EveryValueRoundTripsThroughItsName) {
  using A = hal::FusedActivation;
  for (A a : {A::kNone, A::kRelu, A::kClip, A::kSigmoid, A::kHardSwish, A::kSwish, A::kHardSigmoid, A::kGelu})
    EXPECT_EQ(hal::ActivationFromName(hal::ActivationName(a)), a) << hal::ActivationName(a);
  for (hal::ConvAlgorithm c : {hal::ConvAlgorithm::kDirect, hal::ConvAlgorithm::kWinograd})
    EXPECT_EQ(hal::ConvAlgorithmFromName(hal::ConvAlgorithmName(c)), c) << hal::ConvAlgorithmName(c);
}

// The strings are the .om's: a model compiled before this header still loads.
TEST(FusedAttrs, NamesAreTheOnesTheOmStores) {
  EXPECT_STREQ(hal::kAttrActivation, "activation");
  EXPECT_STREQ(hal::kAttrFusedSum, "fused_sum");
  EXPECT_STREQ(hal::kAttrConvAlgorithm, "conv_algorithm");
  EXPECT_STREQ(hal::ActivationName(hal::FusedActivation::kRelu), "Relu");
  EXPECT_STREQ(hal::ActivationName(hal::FusedActivation::kNone), "");
  EXPECT_STREQ(hal::ConvAlgorithmName(hal::ConvAlgorithm::kWinograd), "winograd");
  EXPECT_EQ(hal::ActivationFromName("relu"), std::nullopt);
  EXPECT_EQ(hal::ConvAlgorithmFromName("fft"), std::nullopt);
}

}  // namespace
}  // namespace ge::test
