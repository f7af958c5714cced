// Binary kernels with numpy broadcasting in each of its forms, integer
// semantics (truncating division, wrapping), comparisons, logic, Where, and
// the support checks. Expected values are written out by hand or from a
// direct index formula.
#include <cmath>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

Result<std::vector<float>> F32Op(const std::string& op, const HostTensor& a, const HostTensor& b, const dims& out) {
  GE_ASSIGN_OR_RETURN(auto r, RunKernel(op, {}, {a, b}, {{DataType::kFloat32, out}}));
  return r[0].as<float>();
}

TEST(BinaryKernel, SameShape) {
  auto y = F32Op("Add", HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::F32({2, 2}, {10, 20, 30, 40}), {2, 2});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(*y, (std::vector<float>{11, 22, 33, 44}));
}

TEST(BinaryKernel, RowBroadcast) {  // [2,3] + [3]
  auto y = F32Op("Sub", HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::F32({3}, {1, 10, 100}), {2, 3});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(*y, (std::vector<float>{0, -8, -97, 3, -5, -94}));
}

TEST(BinaryKernel, ColumnBroadcast) {  // [2,3] * [2,1]
  auto y = F32Op("Mul", HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::F32({2, 1}, {10, -1}), {2, 3});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(*y, (std::vector<float>{10, 20, 30, -4, -5, -6}));
}

TEST(BinaryKernel, OuterBroadcastBothSides) {  // [2,1] + [1,3]
  auto y = F32Op("Add", HostTensor::F32({2, 1}, {10, 20}), HostTensor::F32({1, 3}, {1, 2, 3}), {2, 3});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(*y, (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST(BinaryKernel, ScalarOnEitherSide) {
  auto l = F32Op("Div", HostTensor::F32({}, {12}), HostTensor::F32({2, 2}, {1, 2, 3, 4}), {2, 2});
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(*l, (std::vector<float>{12, 6, 4, 3}));
  auto r = F32Op("Div", HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::F32({1}, {2}), {2, 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, (std::vector<float>{0.5f, 1, 1.5f, 2}));
}

TEST(BinaryKernel, ThreeDimBroadcastBothWays) {  // [1,4,1] + [2,1,5] -> [2,4,5]
  std::vector<float> a = {1, 2, 3, 4}, b(10);
  for (int i = 0; i < 10; ++i) b[i] = 100.0f * static_cast<float>(i);
  auto y = F32Op("Add", HostTensor::F32({1, 4, 1}, a), HostTensor::F32({2, 1, 5}, b), {2, 4, 5});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ASSERT_EQ(y->size(), 40u);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) EXPECT_EQ((*y)[(i * 4 + j) * 5 + k], a[j] + b[i * 5 + k]) << i << j << k;
}

TEST(BinaryKernel, BertRowBroadcastLarge) {  // [1,300,256] + [256]: above the parallel threshold
  const int64_t rows = 300, n = 256;
  std::vector<float> a(rows * n), b(n);
  for (int64_t i = 0; i < rows * n; ++i) a[i] = static_cast<float>(i % 1000);
  for (int64_t j = 0; j < n; ++j) b[j] = 0.5f * static_cast<float>(j);
  auto y = F32Op("Add", HostTensor::F32({1, rows, n}, a), HostTensor::F32({n}, b), {1, rows, n});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; j += 17) ASSERT_EQ((*y)[i * n + j], a[i * n + j] + b[j]) << i << "," << j;
}

TEST(BinaryKernel, LongSingleRowAndManyShortRows) {
  const int64_t n = 70001;  // one row split in pieces across threads
  std::vector<float> a(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<float>(i);
  auto y = F32Op("Mul", HostTensor::F32({1, n}, a), HostTensor::F32({}, {2}), {1, n});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  for (int64_t i = 0; i < n; i += 101) ASSERT_EQ((*y)[i], 2.0f * a[i]) << i;
  EXPECT_EQ((*y)[n - 1], 2.0f * a[n - 1]);
  // [n/7, 7] - [n/7, 1]: 10001 rows of 7 with a per-row constant.
  const int64_t r = n / 7;
  std::vector<float> c(r);
  for (int64_t i = 0; i < r; ++i) c[i] = static_cast<float>(3 * i);
  auto z = F32Op("Sub", HostTensor::F32({r, 7}, a), HostTensor::F32({r, 1}, c), {r, 7});
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  for (int64_t i = 0; i < r; i += 37)
    for (int64_t j = 0; j < 7; ++j) ASSERT_EQ((*z)[i * 7 + j], a[i * 7 + j] - c[i]) << i << "," << j;
}

TEST(BinaryKernel, IntegerDivisionTruncatesTowardZero) {
  RUN_OK(out, "Div", {}, {HostTensor::I64({4}, {7, -7, 7, -7}), HostTensor::I64({4}, {2, 2, -2, -2})},
         {{DataType::kInt64, {4}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{3, -3, -3, 3}));
  const int32_t mn = std::numeric_limits<int32_t>::min();
  RUN_OK(w, "Div", {}, {I32({2}, {mn, 9}), I32({}, {-1})}, {{DataType::kInt32, {2}}});
  EXPECT_EQ(w[0].as<int32_t>(), (std::vector<int32_t>{mn, -9}));  // wraps instead of trapping
}

TEST(BinaryKernel, IntegerDivisionByZeroIsAnError) {
  auto r =
      RunKernel("Div", {}, {HostTensor::I64({2}, {1, 2}), HostTensor::I64({2}, {1, 0})}, {{DataType::kInt64, {2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "division by zero"));
  EXPECT_NE(r.status().message().find("test_Div"), std::string::npos) << r.status().ToString();
}

TEST(BinaryKernel, IntegerArithmeticWraps) {
  const int64_t mx = std::numeric_limits<int64_t>::max();
  RUN_OK(out, "Add", {}, {HostTensor::I64({2}, {mx, 5}), HostTensor::I64({}, {1})}, {{DataType::kInt64, {2}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 6}));
  RUN_OK(m, "Mul", {}, {I32({3}, {3, -4, 5}), I32({3}, {7, 6, -5})}, {{DataType::kInt32, {3}}});
  EXPECT_EQ(m[0].as<int32_t>(), (std::vector<int32_t>{21, -24, -25}));
}

TEST(BinaryKernel, PowFloatExponents) {
  auto y = F32Op("Pow", HostTensor::F32({3}, {2, 9, 4}), HostTensor::F32({3}, {3, 0.5f, -1}), {3});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, {8, 3, 0.25f});
  // Constant scalar exponents take the squared/root fast paths.
  for (auto [e, want] :
       std::vector<std::pair<float, std::vector<float>>>{{2.0f, {9, 0.25f, 4}},
                                                         {0.5f, {1.7320508f, 0.70710678f, std::sqrt(2.0f)}},
                                                         {3.0f, {27, 0.125f, 8}},
                                                         {1.5f, {5.1961524f, 0.35355339f, 2.8284271f}}}) {
    auto z = F32Op("Pow", HostTensor::F32({3}, {3, 0.5f, 2}), HostTensor::F32({}, {e}, true), {3});
    ASSERT_TRUE(z.ok()) << z.status().ToString();
    ExpectNear(*z, want);
  }
}

TEST(BinaryKernel, PowIntegerExponents) {
  RUN_OK(f, "Pow", {}, {HostTensor::F32({3}, {2, -3, 0.5f}), HostTensor::I64({3}, {10, 3, -2})},
         {{DataType::kFloat32, {3}}});
  ExpectNear(f[0].as<float>(), {1024, -27, 4});
  RUN_OK(i, "Pow", {}, {HostTensor::I64({5}, {3, 2, -2, 2, 1}), HostTensor::I64({5}, {4, 62, 3, -1, -5})},
         {{DataType::kInt64, {5}}});
  EXPECT_EQ(i[0].as<int64_t>(), (std::vector<int64_t>{81, int64_t{1} << 62, -8, 0, 1}));
}

TEST(BinaryKernel, PowIntegerBaseFloatExponent) {
  RUN_OK(out, "Pow", {}, {HostTensor::I64({3}, {4, 9, 2}), HostTensor::F32({3}, {0.5f, 0.5f, 70})},
         {{DataType::kInt64, {3}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{2, 3, std::numeric_limits<int64_t>::max()}));  // 2^70 saturates
}

TEST(BinaryKernel, VariadicMaxMinMeanBroadcast) {
  RUN_OK(mx, "Max", {}, {HostTensor::F32({2}, {1, 9}), HostTensor::F32({1}, {4}), HostTensor::F32({2}, {3, 2})},
         {{DataType::kFloat32, {2}}});
  EXPECT_EQ(mx[0].as<float>(), (std::vector<float>{4, 9}));
  RUN_OK(one, "Min", {}, {HostTensor::F32({2}, {1, 9})}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(one[0].as<float>(), (std::vector<float>{1, 9}));
  RUN_OK(u8, "Max", {}, {HostTensor::Of<uint8_t>(DataType::kUInt8, {2}, {200, 3}), HostTensor::Of<uint8_t>(DataType::kUInt8, {2}, {7, 250})},
         {{DataType::kUInt8, {2}}});
  EXPECT_EQ(u8[0].as<uint8_t>(), (std::vector<uint8_t>{200, 250}));
  RUN_OK(mean, "Mean", {}, {HostTensor::F32({2, 1}, {1, 2}), HostTensor::F32({2}, {3, 5})}, {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(mean[0].as<float>(), (std::vector<float>{2, 3, 2.5f, 3.5f}));
  auto int_mean = RunKernel("Mean", {}, {HostTensor::I64({1}, {1}), HostTensor::I64({1}, {2})}, {{DataType::kInt64, {1}}});
  ASSERT_TRUE(Refused(int_mean, StatusCode::kUnsupported, "dtype i64 is not supported (f32, f64)"));
  EXPECT_EQ(int_mean.status().code(), StatusCode::kUnsupported);
}

TEST(BinaryKernel, MaxMinPropagateNaN) {
  auto mx = F32Op("Max", HostTensor::F32({4}, {1, 5, kNaN, 2}), HostTensor::F32({4}, {3, 4, 1, kNaN}), {4});
  ASSERT_TRUE(mx.ok()) << mx.status().ToString();
  EXPECT_EQ((*mx)[0], 3);
  EXPECT_EQ((*mx)[1], 5);
  EXPECT_TRUE(std::isnan((*mx)[2]));
  EXPECT_TRUE(std::isnan((*mx)[3]));
  RUN_OK(mn, "Min", {}, {HostTensor::I64({3}, {1, 5, -2}), HostTensor::I64({}, {2})}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(mn[0].as<int64_t>(), (std::vector<int64_t>{1, 2, -2}));
}

TEST(BinaryKernel, ComparisonsGiveBool) {
  const auto a = HostTensor::F32({2, 2}, {1, 2, 3, 4});
  const auto b = HostTensor::F32({2}, {2, 3});
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {{"Equal", {0, 0, 0, 0}},
                                                                           {"Less", {1, 1, 0, 0}},
                                                                           {"Greater", {0, 0, 1, 1}},
                                                                           {"LessOrEqual", {1, 1, 0, 0}},
                                                                           {"GreaterOrEqual", {0, 0, 1, 1}}};
  for (const auto& [op, want] : cases) {
    RUN_OK(out, op, {}, {a, b}, {{DataType::kBool, {2, 2}}});
    EXPECT_EQ(out[0].as<uint8_t>(), want) << op;
  }
  RUN_OK(eq, "Equal", {}, {HostTensor::I64({3}, {1, 2, 3}), HostTensor::I64({3}, {1, 0, 3})}, {{DataType::kBool, {3}}});
  EXPECT_EQ(eq[0].as<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));
  RUN_OK(le, "LessOrEqual", {}, {I32({3}, {1, 2, 3}), I32({}, {2})}, {{DataType::kBool, {3}}});
  EXPECT_EQ(le[0].as<uint8_t>(), (std::vector<uint8_t>{1, 1, 0}));
}

TEST(BinaryKernel, LogicalOps) {
  const auto a = Bool({4}, {0, 0, 1, 1}), b = Bool({4}, {0, 1, 0, 1});
  RUN_OK(and_, "And", {}, {a, b}, {{DataType::kBool, {4}}});
  EXPECT_EQ(and_[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0, 0, 1}));
  RUN_OK(or_, "Or", {}, {a, b}, {{DataType::kBool, {4}}});
  EXPECT_EQ(or_[0].as<uint8_t>(), (std::vector<uint8_t>{0, 1, 1, 1}));
  RUN_OK(xor_, "Xor", {}, {a, b}, {{DataType::kBool, {4}}});
  EXPECT_EQ(xor_[0].as<uint8_t>(), (std::vector<uint8_t>{0, 1, 1, 0}));
  RUN_OK(eq, "Equal", {}, {a, b}, {{DataType::kBool, {4}}});
  EXPECT_EQ(eq[0].as<uint8_t>(), (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(BinaryKernel, WhereBroadcastsAllThree) {
  // cond [2,1], X [1,3], Y scalar -> [2,3]
  RUN_OK(out, "Where", {}, {Bool({2, 1}, {1, 0}), HostTensor::F32({1, 3}, {1, 2, 3}), HostTensor::F32({}, {-1})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1, 2, 3, -1, -1, -1}));
  // cond [3], X [2,3], Y [2,1], i64
  RUN_OK(i, "Where", {},
         {Bool({3}, {1, 0, 1}), HostTensor::I64({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::I64({2, 1}, {-7, -8})},
         {{DataType::kInt64, {2, 3}}});
  EXPECT_EQ(i[0].as<int64_t>(), (std::vector<int64_t>{1, -7, 3, 4, -8, 6}));
}

TEST(BinaryKernel, WhereRejectsNonBoolCondition) {
  auto r = RunKernel("Where", {}, {HostTensor::F32({1}, {1}), HostTensor::F32({1}, {1}), HostTensor::F32({1}, {2})},
                     {{DataType::kFloat32, {1}}});
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "condition"));
}

TEST(BinaryKernel, RejectsMixedOrUnsupportedDtypes) {
  auto mixed =
      RunKernel("Add", {}, {HostTensor::F32({1}, {1}), HostTensor::I64({1}, {1})}, {{DataType::kFloat32, {1}}});
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(mixed.status().message().find("f32/i64"), std::string::npos) << mixed.status().ToString();
  auto f16 = RunKernel(
      "Mul", {},
      {HostTensor::Of<uint16_t>(DataType::kFloat16, {1}, {1}), HostTensor::Of<uint16_t>(DataType::kFloat16, {1}, {1})},
      {{DataType::kFloat16, {1}}});
  ASSERT_TRUE(Refused(f16, StatusCode::kUnsupported, "f16"));
  auto logic = RunKernel("And", {}, {HostTensor::F32({1}, {1}), HostTensor::F32({1}, {1})}, {{DataType::kBool, {1}}});
  EXPECT_TRUE(Refused(logic, StatusCode::kUnsupported, "dtypes f32/f32 are not supported (bool/bool)"));
}

TEST(BinaryKernel, RejectsIncompatibleShapesAndWrongOutput) {
  auto bad =
      F32Op("Add", HostTensor::F32({2, 3}, std::vector<float>(6)), HostTensor::F32({4}, std::vector<float>(4)), {2, 4});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("broadcast"), std::string::npos) << bad.status().ToString();
  auto wrong =
      F32Op("Add", HostTensor::F32({2, 3}, std::vector<float>(6)), HostTensor::F32({3}, std::vector<float>(3)), {3, 2});
  ASSERT_TRUE(Refused(wrong, StatusCode::kInvalidArgument, "test_Add"));
  auto dtype =
      RunKernel("Less", {}, {HostTensor::F32({1}, {1}), HostTensor::F32({1}, {1})}, {{DataType::kFloat32, {1}}});
  ASSERT_TRUE(Refused(dtype, StatusCode::kInvalidArgument, "bool"));
}

}  // namespace
}  // namespace ge::test
