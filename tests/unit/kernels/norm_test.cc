// BatchNormalization (inference), LayerNormalization and
// InstanceNormalization vs hand-computed values and naive loops.
#include <cmath>
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

std::vector<float> Random(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

TEST(BatchNormKernel, HandComputed) {
  // y = scale * (x - mean) / sqrt(var + eps) + B; var + eps = 4 and 1.
  hal::Attrs a;
  a.Set("epsilon", 0.5);
  auto out = RunKernel("BatchNormalization", a,
                       {HostTensor::F32({1, 2, 1, 2}, {3, 5, 0, 4}), HostTensor::F32({2}, {2, 0.5f}, true),
                        HostTensor::F32({2}, {1, -1}, true), HostTensor::F32({2}, {1, 2}, true),
                        HostTensor::F32({2}, {3.5f, 0.5f}, true)},
                       {{DataType::kFloat32, {1, 2, 1, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // c0: 2*(3-1)/2+1 = 3, 2*(5-1)/2+1 = 5; c1: 0.5*(0-2)/1-1 = -2, 0.5*(4-2)-1 = 0
  ExpectNear((*out)[0].as<float>(), {3, 5, -2, 0});
}

void CheckBatchNorm(const dims& xd, bool const_params, float eps, uint32_t seed) {
  const int64_t c = xd[1], n = xd[0], sp = Count(xd) / (n * c);
  auto x = Random(Count(xd), seed, -3, 3), scale = Random(c, seed + 1), b = Random(c, seed + 2),
       mean = Random(c, seed + 3), var = Random(c, seed + 4, 0.1f, 2.0f);
  std::vector<float> want(x.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t s = 0; s < sp; ++s) {
        const int64_t idx = (i * c + ch) * sp + s;
        want[idx] = scale[ch] * (x[idx] - mean[ch]) / std::sqrt(var[ch] + eps) + b[ch];
      }
  hal::Attrs a;
  a.Set("epsilon", double(eps));
  auto out = RunKernel(
      "BatchNormalization", a,
      {HostTensor::F32(xd, x), HostTensor::F32({c}, scale, const_params), HostTensor::F32({c}, b, const_params),
       HostTensor::F32({c}, mean, const_params), HostTensor::F32({c}, var, const_params)},
      {{DataType::kFloat32, xd}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

TEST(BatchNormKernel, Random4DConst) { CheckBatchNorm({2, 5, 3, 4}, true, 1e-3f, 1); }
TEST(BatchNormKernel, Random4DNonConstBigEpsilon) { CheckBatchNorm({1, 16, 7, 7}, false, 0.7f, 2); }
TEST(BatchNormKernel, Rank2) { CheckBatchNorm({3, 6}, true, 1e-5f, 3); }
TEST(BatchNormKernel, Rank3) { CheckBatchNorm({2, 4, 9}, false, 1e-5f, 4); }

hal::KernelSpec BatchNormSpec() {
  hal::KernelSpec s;
  s.op = "BatchNormalization";
  s.name = "bn";
  s.inputs = {{DataType::kFloat32, {1, 2, 3, 3}}};
  for (int i = 0; i < 4; ++i) s.inputs.push_back({DataType::kFloat32, {2}});
  s.outputs = {{DataType::kFloat32, {1, 2, 3, 3}}};
  return s;
}

TEST(BatchNormKernel, SupportAcceptsInference) {
  EXPECT_TRUE(Cpu().kernels().Supports(BatchNormSpec()).ok());
}

TEST(BatchNormKernel, RejectsTrainingMode) {
  auto s = BatchNormSpec();
  s.attrs.Set("training_mode", int64_t{1});
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported);
  EXPECT_NE(st.message().find("training_mode"), std::string::npos) << st.message();
}

TEST(BatchNormKernel, RejectsExtraOutputs) {
  auto s = BatchNormSpec();
  s.outputs.push_back({DataType::kFloat32, {2}});
  s.outputs.push_back({DataType::kFloat32, {2}});
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kUnsupported,
                      "BatchNormalization: 3 outputs requested, only the inference form"));
}

TEST(BatchNormKernel, RejectsF16) {
  auto s = BatchNormSpec();
  s.inputs[0].dtype = s.outputs[0].dtype = DataType::kFloat16;
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kUnsupported,
                      "BatchNormalization: input 0 is f16, only f32 is supported"));
}

TEST(BatchNormKernel, RejectsWrongParamSize) {
  auto s = BatchNormSpec();
  s.inputs[3].dims = {3};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "BatchNormalization: mean [3] must have 2 values"));
}

TEST(LayerNormKernel, HandComputed) {
  // x = 1..4: mean 2.5, var 1.25; eps chosen so var + eps = 1.5625 = 1.25^2.
  hal::Attrs a;
  a.Set("epsilon", 0.3125);
  auto out = RunKernel("LayerNormalization", a,
                       {HostTensor::F32({1, 4}, {1, 2, 3, 4}), HostTensor::F32({4}, {1, 2, 1, 1}, true),
                        HostTensor::F32({4}, {0, 0, 0, 10}, true)},
                       {{DataType::kFloat32, {1, 4}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {-1.2f, -0.8f, 0.4f, 11.2f});
}

TEST(LayerNormKernel, MeanAndInvStdDevOutputs) {
  // Rows 1..4 (mean 2.5, var 1.25) and 2,2,2,2 (var 0); eps 0.3125.
  hal::Attrs a;
  a.Set("epsilon", 0.3125);
  auto out = RunKernel("LayerNormalization", a,
                       {HostTensor::F32({2, 4}, {1, 2, 3, 4, 2, 2, 2, 2}), HostTensor::F32({4}, {1, 1, 1, 1}, true)},
                       {{DataType::kFloat32, {2, 4}}, {DataType::kFloat32, {2, 1}}, {DataType::kFloat32, {2, 1}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {-1.2f, -0.4f, 0.4f, 1.2f, 0, 0, 0, 0});
  ExpectNear((*out)[1].as<float>(), {2.5f, 2.0f});
  ExpectNear((*out)[2].as<float>(), {0.8f, 1.0f / std::sqrt(0.3125f)});
}

void CheckLayerNorm(const dims& xd, int64_t axis, bool bias, bool const_params, uint32_t seed) {
  const int64_t r = static_cast<int64_t>(xd.size()), ax = axis < 0 ? axis + r : axis;
  const dims pd(xd.begin() + ax, xd.end());
  const int64_t inner = Count(pd), outer = Count(xd) / inner;
  const float eps = 1e-5f;
  auto x = Random(Count(xd), seed, -2, 3), scale = Random(inner, seed + 1), b = Random(inner, seed + 2);
  std::vector<float> want(x.size());
  for (int64_t o = 0; o < outer; ++o) {
    double mean = 0, var = 0;
    for (int64_t i = 0; i < inner; ++i) mean += x[o * inner + i];
    mean /= inner;
    for (int64_t i = 0; i < inner; ++i) var += (x[o * inner + i] - mean) * (x[o * inner + i] - mean);
    var /= inner;
    for (int64_t i = 0; i < inner; ++i)
      want[o * inner + i] =
          static_cast<float>((x[o * inner + i] - mean) / std::sqrt(var + eps) * scale[i] + (bias ? b[i] : 0.0f));
  }
  hal::Attrs a;
  if (axis != -1) a.Set("axis", axis);
  std::vector<HostTensor> in = {HostTensor::F32(xd, x), HostTensor::F32(pd, scale, const_params)};
  if (bias) in.push_back(HostTensor::F32(pd, b, const_params));
  auto out = RunKernel("LayerNormalization", a, in, {{DataType::kFloat32, xd}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

TEST(LayerNormKernel, LastAxisWithBias) { CheckLayerNorm({2, 3, 8}, -1, true, true, 1); }
TEST(LayerNormKernel, BertLike) { CheckLayerNorm({1, 16, 64}, -1, true, false, 2); }
TEST(LayerNormKernel, NoBias) { CheckLayerNorm({4, 10}, -1, false, true, 3); }
TEST(LayerNormKernel, Axis1OverTwoDims) { CheckLayerNorm({2, 3, 4}, 1, true, true, 4); }
TEST(LayerNormKernel, NegativeAxis) { CheckLayerNorm({2, 3, 4, 5}, -2, false, false, 5); }

TEST(LayerNormKernel, StatOutputsMustHoldOneValuePerRow) {
  hal::KernelSpec s;
  s.op = "LayerNormalization";
  s.name = "ln";
  s.inputs = {{DataType::kFloat32, {2, 4}}, {DataType::kFloat32, {4}}};
  s.outputs = {{DataType::kFloat32, {2, 4}}};
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok());
  s.outputs.push_back({DataType::kFloat32, {2, 1}});
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok());
  s.outputs.push_back({DataType::kFloat32, {2, 2}});
  EXPECT_EQ(Cpu().kernels().Supports(s).code(), StatusCode::kInvalidArgument);
  s.outputs.back() = {DataType::kFloat32, {2, 1}};
  s.outputs.push_back({DataType::kFloat32, {2, 1}});  // a fourth output
  EXPECT_EQ(Cpu().kernels().Supports(s).code(), StatusCode::kUnsupported);
}

TEST(LayerNormKernel, RejectsScaleMismatch) {
  hal::KernelSpec s;
  s.op = "LayerNormalization";
  s.name = "ln";
  s.inputs = {{DataType::kFloat32, {2, 4}}, {DataType::kFloat32, {3}}};
  s.outputs = {{DataType::kFloat32, {2, 4}}};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument,
                      "LayerNormalization: Scale [3] must have 4 values"));
}

TEST(InstanceNormKernel, MatchesReference) {
  const dims xd = {2, 3, 4, 5};
  const float eps = 1e-3f;
  auto x = Random(Count(xd), 6, -1, 4), scale = Random(3, 7), b = Random(3, 8);
  std::vector<float> want(x.size());
  for (int64_t nc = 0; nc < 6; ++nc) {
    double mean = 0, var = 0;
    for (int i = 0; i < 20; ++i) mean += x[nc * 20 + i];
    mean /= 20;
    for (int i = 0; i < 20; ++i) var += (x[nc * 20 + i] - mean) * (x[nc * 20 + i] - mean);
    var /= 20;
    for (int i = 0; i < 20; ++i)
      want[nc * 20 + i] =
          static_cast<float>((x[nc * 20 + i] - mean) / std::sqrt(var + eps) * scale[nc % 3] + b[nc % 3]);
  }
  hal::Attrs a;
  a.Set("epsilon", double(eps));
  for (bool is_const : {true, false}) {
    auto out =
        RunKernel("InstanceNormalization", a,
                  {HostTensor::F32(xd, x), HostTensor::F32({3}, scale, is_const), HostTensor::F32({3}, b, is_const)},
                  {{DataType::kFloat32, xd}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    ExpectNear((*out)[0].as<float>(), want);
  }
}

}  // namespace
}  // namespace ge::test
