// Reductions over the innermost axis, a middle axis, several separated
// axes (the general walk) and everything; keepdims, negative and input
// axes, noop_with_empty_axes; ArgMax/ArgMin with select_last_index.
#include <cmath>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs Axes(const dims& axes, int64_t keepdims = 1) {
  hal::Attrs a;
  a.Set("axes", axes);
  a.Set("keepdims", keepdims);
  return a;
}

// x = Iota(24) as [2,3,4].
const HostTensor& X234() {
  static const HostTensor x = HostTensor::F32({2, 3, 4}, Iota(24));
  return x;
}

TEST(ReduceKernel, MeanOfLastAxisKeepdims) {
  RUN_OK(out, "ReduceMean", Axes({-1}), {X234()}, {{DataType::kFloat32, {2, 3, 1}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1.5f, 5.5f, 9.5f, 13.5f, 17.5f, 21.5f}));
}

TEST(ReduceKernel, SumOfMiddleAxisFromInput) {
  // ReduceSum opset 13: axes as input 1; keepdims 0.
  hal::Attrs a;
  a.Set("keepdims", int64_t{0});
  RUN_OK(out, "ReduceSum", a, {X234(), HostTensor::I64({1}, {1}, true)}, {{DataType::kFloat32, {2, 4}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{12, 15, 18, 21, 48, 51, 54, 57}));
}

TEST(ReduceKernel, SumOfFirstAxis) {
  RUN_OK(out, "ReduceSum", Axes({0}, 0), {X234()}, {{DataType::kFloat32, {3, 4}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34}));
}

TEST(ReduceKernel, MaxAndMinOverSeparatedAxes) {
  // axes {0, 2} of [2,3,4]: the general walk.
  RUN_OK(mx, "ReduceMax", Axes({0, 2}), {X234()}, {{DataType::kFloat32, {1, 3, 1}}});
  EXPECT_EQ(mx[0].as<float>(), (std::vector<float>{15, 19, 23}));
  RUN_OK(mn, "ReduceMin", Axes({0, -1}, 0), {X234()}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(mn[0].as<float>(), (std::vector<float>{0, 4, 8}));
  RUN_OK(sum, "ReduceSum", Axes({0, 2}, 0), {X234()}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(sum[0].as<float>(),
            (std::vector<float>{0 + 1 + 2 + 3 + 12 + 13 + 14 + 15, 4 + 5 + 6 + 7 + 16 + 17 + 18 + 19,
                                8 + 9 + 10 + 11 + 20 + 21 + 22 + 23}));
}

TEST(ReduceKernel, GeneralWalkWithInnerKeptAxis) {
  // [2,3,2,2] reducing {1,3}: kept axes 0 and 2 with reduced axes between.
  RUN_OK(out, "ReduceSum", Axes({1, 3}, 0), {HostTensor::F32({2, 3, 2, 2}, Iota(24))}, {{DataType::kFloat32, {2, 2}}});
  // element (a, b, c, d) = a*12 + b*4 + c*2 + d
  std::vector<float> want;
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 2; ++c) {
      float s = 0;
      for (int b = 0; b < 3; ++b)
        for (int d = 0; d < 2; ++d) s += static_cast<float>(a * 12 + b * 4 + c * 2 + d);
      want.push_back(s);
    }
  EXPECT_EQ(out[0].as<float>(), want);
  // Reducing {0,2} instead: the innermost axis is kept.
  RUN_OK(inner, "ReduceSum", Axes({0, 2}, 0), {HostTensor::F32({2, 3, 2, 2}, Iota(24))},
         {{DataType::kFloat32, {3, 2}}});
  want.clear();
  for (int b = 0; b < 3; ++b)
    for (int d = 0; d < 2; ++d) {
      float s = 0;
      for (int a = 0; a < 2; ++a)
        for (int c = 0; c < 2; ++c) s += static_cast<float>(a * 12 + b * 4 + c * 2 + d);
      want.push_back(s);
    }
  EXPECT_EQ(inner[0].as<float>(), want);
  // [2,3,4] reducing {0,1} keeps the innermost axis: kept after reduced.
  RUN_OK(mid, "ReduceMax", Axes({0, 1}, 0), {X234()}, {{DataType::kFloat32, {4}}});
  EXPECT_EQ(mid[0].as<float>(), (std::vector<float>{20, 21, 22, 23}));
}

TEST(ReduceKernel, EmptyAxesReduceAllOrNoop) {
  RUN_OK(all, "ReduceSum", {}, {X234()}, {{DataType::kFloat32, {1, 1, 1}}});
  EXPECT_EQ(all[0].as<float>(), (std::vector<float>{276}));
  hal::Attrs noop;
  noop.Set("noop_with_empty_axes", int64_t{1});
  RUN_OK(same, "ReduceSum", noop, {X234()}, {{DataType::kFloat32, {2, 3, 4}}});
  EXPECT_EQ(same[0].as<float>(), Iota(24));
  hal::Attrs keep0;
  keep0.Set("keepdims", int64_t{0});
  RUN_OK(scalar, "ReduceMax", keep0, {X234()}, {{DataType::kFloat32, {}}});
  EXPECT_EQ(scalar[0].as<float>(), (std::vector<float>{23}));
}

TEST(ReduceKernel, ProdL1L2SumSquareLogSum) {
  const auto x = HostTensor::F32({2, 2}, {1, -2, 3, 4});
  RUN_OK(p, "ReduceProd", Axes({1}), {x}, {{DataType::kFloat32, {2, 1}}});
  EXPECT_EQ(p[0].as<float>(), (std::vector<float>{-2, 12}));
  RUN_OK(l1, "ReduceL1", Axes({1}), {x}, {{DataType::kFloat32, {2, 1}}});
  EXPECT_EQ(l1[0].as<float>(), (std::vector<float>{3, 7}));
  RUN_OK(l2, "ReduceL2", Axes({1}), {x}, {{DataType::kFloat32, {2, 1}}});
  ExpectNear(l2[0].as<float>(), {std::sqrt(5.0f), 5});
  RUN_OK(ss, "ReduceSumSquare", Axes({0}), {x}, {{DataType::kFloat32, {1, 2}}});
  EXPECT_EQ(ss[0].as<float>(), (std::vector<float>{10, 20}));
  RUN_OK(ls, "ReduceLogSum", Axes({0}), {HostTensor::F32({2, 1}, {1, 2})}, {{DataType::kFloat32, {1, 1}}});
  ExpectNear(ls[0].as<float>(), {std::log(3.0f)});
}

TEST(ReduceKernel, LogSumExpIsStableForLargeValues) {
  // log(e^1 + e^2) = 2 + log(1 + e^-1); values near 1000 would overflow exp().
  const auto x = HostTensor::F32({2, 2}, {1, 2, 1000, 1000});
  RUN_OK(out, "ReduceLogSumExp", Axes({1}, 0), {x}, {{DataType::kFloat32, {2}}});
  ExpectNear(out[0].as<float>(), {2 + std::log1p(std::exp(-1.0f)), 1000 + std::log(2.0f)});
  // Over an inner kept axis (the middle form) and with -inf, which adds nothing.
  const float ninf = -std::numeric_limits<float>::infinity();
  RUN_OK(mid, "ReduceLogSumExp", Axes({0}, 0), {HostTensor::F32({2, 2}, {0, ninf, 0, ninf})},
         {{DataType::kFloat32, {2}}});
  EXPECT_NEAR(mid[0].as<float>()[0], std::log(2.0f), 1e-6);
  EXPECT_EQ(mid[0].as<float>()[1], ninf);
}

TEST(ReduceKernel, Float64Reductions) {
  const auto x = HostTensor::Of<double>(DataType::kFloat64, {2, 3}, {1, 2, 3, 4, 5, 6});
  RUN_OK(s, "ReduceSum", Axes({1}, 0), {x}, {{DataType::kFloat64, {2}}});
  EXPECT_EQ(s[0].as<double>(), (std::vector<double>{6, 15}));
  RUN_OK(lse, "ReduceLogSumExp", Axes({0}, 0), {x}, {{DataType::kFloat64, {3}}});
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(lse[0].as<double>()[j], std::log(std::exp(1.0 + j) + std::exp(4.0 + j)), 1e-12);
}

TEST(ReduceKernel, Int64SumMeanAndMax) {
  const auto x = HostTensor::I64({2, 3}, {1, 2, 4, -5, 7, 9});
  RUN_OK(s, "ReduceSum", Axes({1}, 0), {x}, {{DataType::kInt64, {2}}});
  EXPECT_EQ(s[0].as<int64_t>(), (std::vector<int64_t>{7, 11}));
  RUN_OK(m, "ReduceMean", Axes({1}, 0), {x}, {{DataType::kInt64, {2}}});
  EXPECT_EQ(m[0].as<int64_t>(), (std::vector<int64_t>{2, 3}));  // 7/3, 11/3 truncated
  RUN_OK(mx, "ReduceMax", Axes({0}, 0), {x}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(mx[0].as<int64_t>(), (std::vector<int64_t>{1, 7, 9}));
}

TEST(ReduceKernel, LayerNormSizedRowsInParallel) {
  const int64_t rows = 128, n = 1024;  // [1,128,1024], mean over the last axis
  std::vector<float> x(rows * n);
  for (int64_t i = 0; i < rows * n; ++i) x[i] = static_cast<float>((i * 7919) % 1000) * 0.001f;
  RUN_OK(out, "ReduceMean", Axes({2}), {HostTensor::F32({1, rows, n}, x)}, {{DataType::kFloat32, {1, rows, 1}}});
  const auto y = out[0].as<float>();
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += x[r * n + j];
    ASSERT_NEAR(y[r], s / n, 1e-5) << r;
  }
}

TEST(ReduceKernel, BoolMaxIsAnyAndMinIsAll) {
  // [2,3]: rows {1,0,1} and {0,0,0}.
  const HostTensor x = Bool({2, 3}, {1, 0, 1, 0, 0, 0});
  RUN_OK(any, "ReduceMax", Axes({1}, 0), {x}, {{DataType::kBool, {2}}});
  EXPECT_EQ(any[0].as<uint8_t>(), (std::vector<uint8_t>{1, 0}));
  RUN_OK(all, "ReduceMin", Axes({0}, 1), {x}, {{DataType::kBool, {1, 3}}});
  EXPECT_EQ(all[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0, 0}));
  RUN_OK(every, "ReduceMin", Axes({1}, 0), {Bool({2, 2}, {1, 1, 1, 0})}, {{DataType::kBool, {2}}});
  EXPECT_EQ(every[0].as<uint8_t>(), (std::vector<uint8_t>{1, 0}));
  // Over an empty axis: Any is false, All is true.
  RUN_OK(none, "ReduceMax", Axes({1}, 0), {Bool({2, 0}, {})}, {{DataType::kBool, {2}}});
  EXPECT_EQ(none[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0}));
  RUN_OK(vacuous, "ReduceMin", Axes({1}, 0), {Bool({2, 0}, {})}, {{DataType::kBool, {2}}});
  EXPECT_EQ(vacuous[0].as<uint8_t>(), (std::vector<uint8_t>{1, 1}));
  // Sum of bools stays unsupported.
  auto sum = RunKernel("ReduceSum", Axes({1}, 0), {x}, {{DataType::kBool, {2}}});
  EXPECT_TRUE(Refused(sum, StatusCode::kUnsupported, "input dtype bool is not supported (f32, f64, i64, i32)"));
}

TEST(ReduceKernel, RejectsRuntimeAxesAndBadOutput) {
  auto axes = RunKernel("ReduceSum", {}, {X234(), HostTensor::I64({1}, {1})}, {{DataType::kFloat32, {2, 1, 4}}});
  ASSERT_FALSE(axes.ok());
  EXPECT_EQ(axes.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(axes.status().message().find("constant"), std::string::npos) << axes.status().ToString();
  auto out = RunKernel("ReduceMean", Axes({1}), {X234()}, {{DataType::kFloat32, {2, 4}}});
  ASSERT_TRUE(Refused(out, StatusCode::kInvalidArgument, "test_ReduceMean"));
  auto range = RunKernel("ReduceMean", Axes({3}), {X234()}, {{DataType::kFloat32, {2, 3, 4}}});
  EXPECT_TRUE(Refused(range, StatusCode::kInvalidArgument, "axis 3 is out of range for rank 3"));
  auto dtype = RunKernel("ReduceL2", Axes({0}), {HostTensor::I64({2}, {1, 2})}, {{DataType::kInt64, {1}}});
  ASSERT_TRUE(Refused(dtype, StatusCode::kUnsupported, "i64"));
}

// The compiler's support check carries no constant data: a ReduceSum whose
// axes are an initializer (opset 13 exports) must pass it.
TEST(ReduceKernel, SupportCheckDefersConstantAxesToCreate) {
  hal::KernelSpec s;
  s.op = "ReduceSum";
  s.name = "r";
  s.inputs = {{DataType::kFloat32, {2, 3, 4}}, {DataType::kInt64, {1}}};
  s.outputs = {{DataType::kFloat32, {2, 1, 4}}};
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok()) << Cpu().kernels().Supports(s).ToString();
}

TEST(ArgKernel, ArgMaxInnerAndOuterAxes) {
  const auto x = HostTensor::F32({2, 3}, {1, 5, 5, 7, 2, 7});
  hal::Attrs a;
  a.Set("axis", int64_t{-1});
  RUN_OK(first, "ArgMax", a, {x}, {{DataType::kInt64, {2, 1}}});
  EXPECT_EQ(first[0].as<int64_t>(), (std::vector<int64_t>{1, 0}));
  a.Set("select_last_index", int64_t{1});
  RUN_OK(last, "ArgMax", a, {x}, {{DataType::kInt64, {2, 1}}});
  EXPECT_EQ(last[0].as<int64_t>(), (std::vector<int64_t>{2, 2}));
  hal::Attrs b;
  b.Set("axis", int64_t{0});
  b.Set("keepdims", int64_t{0});
  RUN_OK(col, "ArgMax", b, {x}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(col[0].as<int64_t>(), (std::vector<int64_t>{1, 0, 1}));
}

TEST(ArgKernel, ArgMinWithTies) {
  const auto x = HostTensor::I64({4}, {3, 1, 4, 1});
  RUN_OK(first, "ArgMin", {}, {x}, {{DataType::kInt64, {1}}});
  EXPECT_EQ(first[0].as<int64_t>(), (std::vector<int64_t>{1}));
  hal::Attrs a;
  a.Set("select_last_index", int64_t{1});
  RUN_OK(last, "ArgMin", a, {x}, {{DataType::kInt64, {1}}});
  EXPECT_EQ(last[0].as<int64_t>(), (std::vector<int64_t>{3}));
  auto bad = RunKernel("ArgMin", {}, {x}, {{DataType::kInt32, {1}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kUnsupported, "output dtype i32 is not supported (i64)"));
}

}  // namespace
}  // namespace ge::test
