// Element-wise unary kernels against hand-computed values and <cmath> in
// double precision; in-place runs; the support checks.
#include <cmath>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> RunF32(const std::string& op, const hal::Attrs& a, const std::vector<float>& x) {
  const dims d = {static_cast<int64_t>(x.size())};
  auto r = RunKernel(op, a, {HostTensor::F32(d, x)}, {{DataType::kFloat32, d}});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? (*r)[0].as<float>() : std::vector<float>{};
}

// Values spanning the ranges where the approximations switch regimes.
std::vector<float> Sweep(float lo, float hi, int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n - 1));
  for (float s : {1e-30f, 1e-7f, 1e-4f, 0.01f, 0.3f, 0.6249f, 0.6251f}) {
    v.push_back(s);
    v.push_back(-s);
  }
  return v;
}

// Relative error against f (double), with an absolute floor for values
// near zero.
void ExpectClose(const std::vector<float>& x, const std::vector<float>& y, double (*f)(double), double rel,
                 double abs_floor) {
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = f(x[i]);
    if (std::isinf(want)) {
      EXPECT_EQ(y[i], static_cast<float>(want)) << "x=" << x[i];
      continue;
    }
    EXPECT_LE(std::abs(y[i] - want), std::max(rel * std::abs(want), abs_floor)) << "x=" << x[i] << " want " << want;
  }
}

TEST(UnaryKernel, ReluF32AndInt64) {
  EXPECT_EQ(RunF32("Relu", {}, {-2, -0.5f, 0, 0.5f, 3}), (std::vector<float>{0, 0, 0, 0.5f, 3}));
  RUN_OK(out, "Relu", {}, {HostTensor::I64({4}, {-5, 0, 7, std::numeric_limits<int64_t>::min()})},
         {{DataType::kInt64, {4}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{0, 0, 7, 0}));
}

TEST(UnaryKernel, LeakyReluUsesAlpha) {
  hal::Attrs a;
  a.Set("alpha", 0.1);
  ExpectNear(RunF32("LeakyRelu", a, {-10, -1, 0, 2, 1, -3, 4, 5, -6}), {-1, -0.1f, 0, 2, 1, -0.3f, 4, 5, -0.6f});
  ExpectNear(RunF32("LeakyRelu", {}, {-100, 100}), {-1, 100});  // default alpha 0.01
}

TEST(UnaryKernel, ClipConstantBounds) {
  RUN_OK(out, "Clip", {},
         {HostTensor::F32({5}, {-3, -1, 0, 1, 3}), HostTensor::F32({}, {-1.5f}, true), HostTensor::F32({}, {2}, true)},
         {{DataType::kFloat32, {5}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{-1.5f, -1, 0, 1, 2}));
}

TEST(UnaryKernel, ClipAbsentMinAndRuntimeMax) {
  // min absent (kUndefined), max not constant: read per run.
  RUN_OK(out, "Clip", {}, {HostTensor::F32({4}, {-100, 0, 5, 100}), HostTensor::Absent(), HostTensor::F32({}, {6})},
         {{DataType::kFloat32, {4}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{-100, 0, 5, 6}));
}

TEST(UnaryKernel, ClipInt64AndLegacyAttributes) {
  RUN_OK(i, "Clip", {},
         {HostTensor::I64({4}, {-9, 2, 3, 9}), HostTensor::I64({}, {0}, true), HostTensor::I64({}, {3}, true)},
         {{DataType::kInt64, {4}}});
  EXPECT_EQ(i[0].as<int64_t>(), (std::vector<int64_t>{0, 2, 3, 3}));
  hal::Attrs a;  // opset 6: bounds as attributes
  a.Set("min", 0.0);
  a.Set("max", 6.0);
  EXPECT_EQ(RunF32("Clip", a, {-1, 3, 7}), (std::vector<float>{0, 3, 6}));
}

TEST(UnaryKernel, ClipRejectsNonScalarBound) {
  auto r = RunKernel("Clip", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {0, 0}, true)},
                     {{DataType::kFloat32, {2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "scalar"));
}

TEST(UnaryKernel, ExpMatchesCmath) {
  auto x = Sweep(-110, 95, 4001);
  for (float s : {88.72f, 88.7228f, 88.8f, -87.3f, -100.0f}) x.push_back(s);
  ExpectClose(
      x, RunF32("Exp", {}, x), [](double v) { return std::exp(v) > 3.4028234663852886e38 ? HUGE_VAL : std::exp(v); },
      4e-7, 1e-44);
  auto special = RunF32("Exp", {}, {kInf, -kInf, kNaN, 0});
  EXPECT_EQ(special[0], kInf);
  EXPECT_EQ(special[1], 0.0f);
  EXPECT_TRUE(std::isnan(special[2]));
  EXPECT_EQ(special[3], 1.0f);
}

TEST(UnaryKernel, TanhMatchesCmath) {
  const auto x = Sweep(-12, 12, 3001);
  ExpectClose(
      x, RunF32("Tanh", {}, x), [](double v) { return std::tanh(v); }, 4e-7, 1e-37);
  auto special = RunF32("Tanh", {}, {kInf, -kInf, kNaN, 100});
  EXPECT_EQ(special[0], 1.0f);
  EXPECT_EQ(special[1], -1.0f);
  EXPECT_TRUE(std::isnan(special[2]));
  EXPECT_EQ(special[3], 1.0f);
}

TEST(UnaryKernel, SigmoidMatchesCmath) {
  const auto x = Sweep(-30, 30, 3001);
  ExpectClose(
      x, RunF32("Sigmoid", {}, x), [](double v) { return 1.0 / (1.0 + std::exp(-v)); }, 1e-6, 1e-30);
  ExpectNear(RunF32("Sigmoid", {}, {0, -kInf, kInf}), {0.5f, 0, 1});
}

TEST(UnaryKernel, ErfMatchesCmath) {
  const auto x = Sweep(-6, 6, 3001);
  ExpectClose(
      x, RunF32("Erf", {}, x), [](double v) { return std::erf(v); }, 1e-6, 1e-30);
  ExpectNear(RunF32("Erf", {}, {0.5f}), {0.5204998778f}, 1e-6f);  // erf(0.5), from tables
}

TEST(UnaryKernel, GeluErfAndTanh) {
  const auto x = Sweep(-8, 8, 801);
  // 1 + erf(x) cancels for negative x: the tail (|y| < 1e-4) is good to an
  // absolute 1e-6, a few ulp of the 1 it cancels against.
  ExpectClose(
      x, RunF32("Gelu", {}, x), [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, 2e-6, 1e-6);
  hal::Attrs a;
  a.Set("approximate", std::string("tanh"));
  ExpectClose(
      x, RunF32("Gelu", a, x),
      [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); }, 2e-6, 1e-6);
  ExpectNear(RunF32("Gelu", {}, {1.0f}), {0.8413447461f}, 1e-6f);  // x * Phi(x) at 1
}

TEST(UnaryKernel, GeluRejectsUnknownApproximation) {
  hal::Attrs a;
  a.Set("approximate", std::string("fast"));
  auto r = RunKernel("Gelu", a, {HostTensor::F32({1}, {1})}, {{DataType::kFloat32, {1}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(r.status().message().find("approximate"), std::string::npos);
}

TEST(UnaryKernel, SimpleMathOps) {
  ExpectNear(RunF32("Sqrt", {}, {0, 1, 4, 2}), {0, 1, 2, 1.41421356f});
  EXPECT_TRUE(std::isnan(RunF32("Sqrt", {}, {-1})[0]));
  ExpectNear(RunF32("Log", {}, {1, 2.718281828f, 0.5f}), {0, 1, -0.693147181f});
  EXPECT_EQ(RunF32("Log", {}, {0})[0], -kInf);
  ExpectNear(RunF32("Reciprocal", {}, {2, -4, 0.5f}), {0.5f, -0.25f, 2});
  EXPECT_EQ(RunF32("Floor", {}, {-1.5f, -0.5f, 0.5f, 2}), (std::vector<float>{-2, -1, 0, 2}));
  EXPECT_EQ(RunF32("Ceil", {}, {-1.5f, -0.5f, 0.5f, 2}), (std::vector<float>{-1, -0.0f, 1, 2}));
  EXPECT_EQ(RunF32("Neg", {}, {1, -2, 0}), (std::vector<float>{-1, 2, -0.0f}));
  EXPECT_EQ(RunF32("Abs", {}, {-1.5f, 2, -0.0f}), (std::vector<float>{1.5f, 2, 0}));
  ExpectNear(RunF32("HardSigmoid", {}, {-5, 0, 1, 5}), {0, 0.5f, 0.7f, 1});
}

TEST(UnaryKernel, IntegerNegAndAbsWrapAtTheMinimum) {
  const int64_t mn = std::numeric_limits<int64_t>::min();
  RUN_OK(n, "Neg", {}, {HostTensor::I64({3}, {5, -7, mn})}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(n[0].as<int64_t>(), (std::vector<int64_t>{-5, 7, mn}));
  RUN_OK(a, "Abs", {}, {HostTensor::Of<int32_t>(DataType::kInt32, {3}, {-3, 4, 0})}, {{DataType::kInt32, {3}}});
  EXPECT_EQ(a[0].as<int32_t>(), (std::vector<int32_t>{3, 4, 0}));
}

TEST(UnaryKernel, NotOnBool) {
  RUN_OK(out, "Not", {}, {HostTensor::Of<uint8_t>(DataType::kBool, {3}, {1, 0, 1})}, {{DataType::kBool, {3}}});
  EXPECT_EQ(out[0].as<uint8_t>(), (std::vector<uint8_t>{0, 1, 0}));
}

TEST(UnaryKernel, LargeInputTakesTheParallelPathAndTail) {
  const int64_t n = (int64_t{1} << 17) + 5;  // above the threshold, not a multiple of the lanes
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 200) * 0.05f - 5.0f;
  RUN_OK(out, "Tanh", {}, {HostTensor::F32({n}, x)}, {{DataType::kFloat32, {n}}});
  const auto y = out[0].as<float>();
  for (int64_t i = 0; i < n; i += 997) EXPECT_NEAR(y[i], std::tanh(x[i]), 1e-6) << i;
  EXPECT_NEAR(y[n - 1], std::tanh(x[n - 1]), 1e-6);
  RUN_OK(r, "Relu", {}, {HostTensor::F32({n}, x)}, {{DataType::kFloat32, {n}}});
  const auto z = r[0].as<float>();
  for (int64_t i = 0; i < n; i += 991) EXPECT_EQ(z[i], std::max(x[i], 0.0f)) << i;
  EXPECT_EQ(z[n - 1], std::max(x[n - 1], 0.0f));
}

TEST(UnaryKernel, RoundHalvesToEven) {
  EXPECT_EQ(RunF32("Round", {}, {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 2.4f, -2.6f, 7}),
            (std::vector<float>{-2, -2, -0, 0, 2, 2, 2, -3, 7}));
}

TEST(UnaryKernel, SignOfFloatsAndIntegers) {
  const auto y = RunF32("Sign", {}, {-3.5f, -0.0f, 0, 2, kNaN});
  EXPECT_EQ(std::vector<float>(y.begin(), y.begin() + 4), (std::vector<float>{-1, 0, 0, 1}));
  EXPECT_TRUE(std::isnan(y[4]));
  RUN_OK(i, "Sign", {}, {HostTensor::I64({3}, {-7, 0, std::numeric_limits<int64_t>::min()})},
         {{DataType::kInt64, {3}}});
  EXPECT_EQ(i[0].as<int64_t>(), (std::vector<int64_t>{-1, 0, -1}));
  RUN_OK(j, "Sign", {}, {I32({2}, {5, -5})}, {{DataType::kInt32, {2}}});
  EXPECT_EQ(j[0].as<int32_t>(), (std::vector<int32_t>{1, -1}));
}

TEST(UnaryKernel, EluAndSeluUseTheirAttributes) {
  // elu(x) = x (x > 0), alpha (e^x - 1) (x <= 0); e^-1 - 1 = -0.6321206.
  ExpectNear(RunF32("Elu", {}, {-1, 0, 2}), {-0.6321206f, 0, 2});
  ExpectNear(RunF32("Elu", Attr("alpha", 0.5), {-1, 3}), {-0.3160603f, 3});
  // selu(x) = gamma x (x > 0), gamma alpha (e^x - 1) (x <= 0), defaults 1.6732632, 1.0507010.
  ExpectNear(RunF32("Selu", {}, {-1, 0, 2}), {-1.1113307f, 0, 2.1014020f});
  hal::Attrs a;
  a.Set("alpha", 2.0);
  a.Set("gamma", 3.0);
  ExpectNear(RunF32("Selu", a, {-1, 1}), {-3.7927234f, 3});
}

TEST(UnaryKernel, SoftplusIsStableAndSoftsignBounded) {
  // softplus(x) = log(1 + e^x): ln 2 at 0, x for large x, e^x for very negative x.
  ExpectNear(RunF32("Softplus", {}, {0, 1, -1, 100, -100}), {0.6931472f, 1.3132616f, 0.3132617f, 100, 3.7200760e-44f},
             1e-5f);
  EXPECT_EQ(RunF32("Softplus", {}, {1000})[0], 1000.0f);  // no overflow to inf
  ExpectNear(RunF32("Softsign", {}, {-3, 0, 1, 1e6f}), {-0.75f, 0, 0.5f, 0.999999f});
}

TEST(UnaryKernel, TrigonometricAndHyperbolicMatchCmath) {
  const std::vector<float> x = {-0.9f, -0.5f, 0.0f, 0.3f, 0.99f};
  const std::vector<std::pair<const char*, double (*)(double)>> ops = {
      {"Sin", std::sin},   {"Cos", std::cos},   {"Tan", std::tan},     {"Asin", std::asin},
      {"Acos", std::acos}, {"Atan", std::atan}, {"Sinh", std::sinh},   {"Cosh", std::cosh},
      {"Asinh", std::asinh}, {"Atanh", std::atanh}};
  for (const auto& [op, f] : ops) ExpectClose(x, RunF32(op, {}, x), f, 1e-6, 1e-7);
  const std::vector<float> ge1 = {1.0f, 1.5f, 10.0f};
  ExpectClose(ge1, RunF32("Acosh", {}, ge1), std::acosh, 1e-6, 1e-7);
  EXPECT_TRUE(std::isnan(RunF32("Asin", {}, {2.0f})[0]));  // outside the domain
}

TEST(UnaryKernel, ActivationsByHand) {
  ExpectNear(RunF32("HardSwish", {}, {-4, -1.5f, 0, 1.5f, 4}), {0, -0.375f, 0, 1.125f, 4});
  ExpectNear(RunF32("Mish", {}, {0, 1}), {0, static_cast<float>(std::tanh(std::log1p(std::exp(1.0))))});
  hal::Attrs alpha;
  alpha.Set("alpha", 2.0);
  ExpectNear(RunF32("ThresholdedRelu", alpha, {1, 2, 3}), {0, 0, 3});
  ExpectNear(RunF32("Celu", alpha, {-2, 0, 3}), {static_cast<float>(2 * std::expm1(-1.0)), 0, 3});
  hal::Attrs shrink;
  shrink.Set("lambd", 1.0);
  shrink.Set("bias", 0.5);
  ExpectNear(RunF32("Shrink", shrink, {-2, -0.5f, 0.5f, 2}), {-1.5f, 0, 0, 1.5f});
}

TEST(UnaryKernel, IsNaNAndIsInfGiveBool) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = HostTensor::F32({4}, {1, nan, kInf, -kInf});
  RUN_OK(n, "IsNaN", {}, {x}, {{DataType::kBool, {4}}});
  EXPECT_EQ(n[0].as<uint8_t>(), (std::vector<uint8_t>{0, 1, 0, 0}));
  hal::Attrs neg_only;
  neg_only.Set("detect_positive", int64_t{0});
  RUN_OK(i, "IsInf", neg_only, {x}, {{DataType::kBool, {4}}});
  EXPECT_EQ(i[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_TRUE(Refused(RunKernel("IsNaN", {}, {x}, {{DataType::kFloat32, {4}}}), StatusCode::kUnsupported,
                      "output dtype f32 is not supported (bool)"));  // output must be bool
}

TEST(UnaryKernel, RunsInPlace) {
  hal::KernelSpec spec;
  spec.op = "Sigmoid";
  spec.name = "inplace";
  spec.inputs = {{DataType::kFloat32, {11}}};
  spec.outputs = spec.inputs;
  auto k = Cpu().kernels().Create(spec);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  auto buf = Cpu().Allocate(11 * sizeof(float));
  ASSERT_TRUE(buf.ok());
  float* p = static_cast<float*>(buf->data());
  for (int i = 0; i < 11; ++i) p[i] = static_cast<float>(i - 5);
  const void* in[] = {p};
  void* out[] = {p};
  ASSERT_TRUE((*k)->Run(in, out).ok());
  for (int i = 0; i < 11; ++i) EXPECT_NEAR(p[i], 1.0 / (1.0 + std::exp(-(i - 5.0))), 1e-6) << i;
}

TEST(UnaryKernel, RejectsUnsupportedDtypeWithItsName) {
  auto r = RunKernel("Sigmoid", {}, {HostTensor::I64({2}, {1, 2})}, {{DataType::kInt64, {2}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(r.status().message().find("i64"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("Sigmoid"), std::string::npos) << r.status().ToString();
}

TEST(UnaryKernel, RejectsOutputShapeOrDtypeMismatch) {
  auto r = RunKernel("Relu", {}, {HostTensor::F32({2, 3}, std::vector<float>(6, 1))}, {{DataType::kFloat32, {3, 2}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("test_Relu"), std::string::npos) << r.status().ToString();
  auto d = RunKernel("Exp", {}, {HostTensor::F32({2}, {1, 2})}, {{DataType::kInt64, {2}}});
  ASSERT_TRUE(Refused(d, StatusCode::kInvalidArgument, "dtype"));
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

// Expm1, Log1p and Erfc keep their digits where the compositions lose them:
// near 0 (e^x - 1 and log(1 + x) in float32 give 0 or 1.19e-7 for 1e-8) and
// in erfc's tail (1 - erf(4) rounds to 0 in float32).
TEST(UnaryKernel, Expm1Log1pErfcArePreciseWhereCompositionsAreNot) {
  const std::vector<float> x = {1e-8f, -1e-8f, 1e-3f, 0.5f, 4.0f};
  const auto e = RunF32("Expm1", {}, x), l = RunF32("Log1p", {}, x), c = RunF32("Erfc", {}, x);
  ASSERT_EQ(e.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double xd = x[i];
    EXPECT_NEAR(e[i], std::expm1(xd), std::abs(std::expm1(xd)) * 1e-6) << x[i];
    EXPECT_NEAR(l[i], std::log1p(xd), std::abs(std::log1p(xd)) * 1e-6) << x[i];
    EXPECT_NEAR(c[i], std::erfc(xd), std::abs(std::erfc(xd)) * 1e-5) << x[i];
  }
  EXPECT_GT(c[4], 0.f);  // 1.54e-8, not 0
}

}  // namespace
}  // namespace ge::test
