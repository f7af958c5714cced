// ConvTranspose kernel vs a scatter reference written here (strides,
// dilations, groups, pads, output_padding, output_shape), plus a 1-D case by
// hand.
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

// 2-D transposed convolution by scattering every input element: full result
// positions o = i*stride + k*dilation, output index o - pad_begin (dropped
// outside [0, out)). W is ONNX's [C, M/group, kh, kw].
std::vector<float> RefDeconv2D(const std::vector<float>& x, const dims& xd, const std::vector<float>& w,
                               const dims& wd, const std::vector<float>* b, int64_t group, dims strides, dims dil,
                               dims pad_begin, dims out_hw) {
  const int64_t n = xd[0], c = xd[1], h = xd[2], wi = xd[3];
  const int64_t mg = wd[1], kh = wd[2], kw = wd[3], m = mg * group, cg = c / group;
  std::vector<float> y(n * m * out_hw[0] * out_hw[1]);
  for (int64_t in = 0; in < n; ++in)
    for (int64_t om = 0; om < m; ++om)
      for (int64_t p = 0; p < out_hw[0] * out_hw[1]; ++p) y[(in * m + om) * out_hw[0] * out_hw[1] + p] = b ? (*b)[om] : 0;
  for (int64_t in = 0; in < n; ++in)
    for (int64_t ic = 0; ic < c; ++ic) {
      const int64_t g = ic / cg;
      for (int64_t iy = 0; iy < h; ++iy)
        for (int64_t ix = 0; ix < wi; ++ix)
          for (int64_t oc = 0; oc < mg; ++oc)
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t oy = iy * strides[0] + ky * dil[0] - pad_begin[0];
                const int64_t ox = ix * strides[1] + kx * dil[1] - pad_begin[1];
                if (oy < 0 || oy >= out_hw[0] || ox < 0 || ox >= out_hw[1]) continue;
                const int64_t om = g * mg + oc;
                y[((in * m + om) * out_hw[0] + oy) * out_hw[1] + ox] +=
                    x[((in * c + ic) * h + iy) * wi + ix] * w[((ic * mg + oc) * kh + ky) * kw + kx];
              }
    }
  return y;
}

std::vector<float> DeconvRandom(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& e : v) e = d(gen);
  return v;
}

struct DeconvCase {
  dims x, w;
  int64_t group = 1;
  dims strides = {1, 1}, dil = {1, 1};
  dims pads = {0, 0, 0, 0}, out_pad = {0, 0}, output_shape = {};
  dims want_pad_begin, want_out;  // what the reference uses
  bool bias = true, const_w = true;
};

void CheckDeconv(const DeconvCase& k, uint32_t seed) {
  const auto x = DeconvRandom(Count(k.x), seed), w = DeconvRandom(Count(k.w), seed + 1);
  const auto b = DeconvRandom(k.w[1] * k.group, seed + 2);
  hal::Attrs a;
  a.Set("group", k.group);
  a.Set("strides", k.strides);
  a.Set("dilations", k.dil);
  a.Set("pads", k.pads);
  a.Set("output_padding", k.out_pad);
  if (!k.output_shape.empty()) a.Set("output_shape", k.output_shape);
  std::vector<HostTensor> in = {HostTensor::F32(k.x, x), HostTensor::F32(k.w, w, k.const_w)};
  if (k.bias) in.push_back(HostTensor::F32({k.w[1] * k.group}, b, true));
  const dims yd = {k.x[0], k.w[1] * k.group, k.want_out[0], k.want_out[1]};
  RUN_OK(out, "ConvTranspose", a, in, {{DataType::kFloat32, yd}});
  ExpectNear(out[0].as<float>(),
             RefDeconv2D(x, k.x, w, k.w, k.bias ? &b : nullptr, k.group, k.strides, k.dil, k.want_pad_begin, k.want_out),
             1e-4f);
}

TEST(DeconvKernel, StridesPadsDilationsGroups) {
  // out = s*(in-1) + op + (k-1)*d + 1 - pads
  CheckDeconv({.x = {1, 2, 3, 4}, .w = {2, 3, 3, 3}, .want_pad_begin = {0, 0}, .want_out = {5, 6}}, 1);
  CheckDeconv({.x = {2, 3, 4, 3}, .w = {3, 2, 3, 2}, .strides = {2, 3}, .pads = {1, 0, 1, 1},
         .want_pad_begin = {1, 0}, .want_out = {7, 7}}, 2);
  CheckDeconv({.x = {1, 4, 3, 3}, .w = {4, 3, 2, 2}, .group = 2, .strides = {2, 2}, .dil = {2, 1},
         .want_pad_begin = {0, 0}, .want_out = {7, 6}, .bias = false}, 3);
  CheckDeconv({.x = {1, 2, 3, 3}, .w = {2, 1, 3, 3}, .strides = {3, 2}, .out_pad = {1, 1},
         .want_pad_begin = {0, 0}, .want_out = {10, 8}, .const_w = false}, 4);
}

TEST(DeconvKernel, OutputShapeBeyondTheResultGetsOnlyTheBias) {
  // Full result 9x7; output_shape 10x8: total pad -1 floors to 0 before, -1 after.
  CheckDeconv({.x = {1, 1, 3, 3}, .w = {1, 2, 3, 3}, .strides = {3, 2}, .output_shape = {10, 8},
         .want_pad_begin = {0, 0}, .want_out = {10, 8}}, 5);
  // Smaller than the result: pads 1 before (the larger half), 0 after... total 2 -> 1 and 1.
  CheckDeconv({.x = {1, 1, 3, 3}, .w = {1, 2, 3, 3}, .strides = {3, 2}, .output_shape = {7, 5},
         .want_pad_begin = {1, 1}, .want_out = {7, 5}}, 6);
}

TEST(DeconvKernel, OneDimensionalByHand) {
  // x = [1, 2], w = [1, 10, 100], stride 2: y = [1, 10, 102, 20, 200].
  hal::Attrs a;
  a.Set("strides", dims{2});
  RUN_OK(out, "ConvTranspose", a, {HostTensor::F32({1, 1, 2}, {1, 2}), HostTensor::F32({1, 1, 3}, {1, 10, 100}, true)},
         {{DataType::kFloat32, {1, 1, 5}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1, 10, 102, 20, 200}));
}

TEST(DeconvKernel, RejectsAMismatchedOutputAndGroup) {
  hal::Attrs a;
  auto bad = RunKernel("ConvTranspose", a, {HostTensor::F32({1, 1, 2}, {1, 2}), HostTensor::F32({1, 1, 3}, {1, 1, 1})},
                       {{DataType::kFloat32, {1, 1, 5}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "does not match the computed"));
  a.Set("group", int64_t{2});
  auto group = RunKernel("ConvTranspose", a, {HostTensor::F32({1, 3, 2}, std::vector<float>(6)),
                                               HostTensor::F32({3, 1, 3}, std::vector<float>(9))},
                         {{DataType::kFloat32, {1, 2, 4}}});
  EXPECT_TRUE(
      Refused(group, StatusCode::kInvalidArgument, "ConvTranspose: group 2 does not fit X [1,3,2] and W [3,1,3]"));
}

// A misspelt fused attribute is refused, not dropped (hal/fused_attrs.h).
TEST(DeconvKernel, RefusesAnAttributeItDoesNotRead) {
  hal::Attrs a;
  a.Set("strides", dims{2});
  const auto x = HostTensor::F32({1, 1, 2}, {1, 2});
  const auto w = HostTensor::F32({1, 1, 3}, {1, 10, 100}, true);
  ASSERT_TRUE(RunKernel("ConvTranspose", a, {x, w}, {{DataType::kFloat32, {1, 1, 5}}}).ok());
  a.Set("activaton", std::string("Relu"));
  EXPECT_TRUE(Refused(RunKernel("ConvTranspose", a, {x, w}, {{DataType::kFloat32, {1, 1, 5}}}),
                      StatusCode::kInvalidArgument, "unknown attribute 'activaton' (the ConvTranspose kernel reads "));
}

}  // namespace
}  // namespace ge::test
