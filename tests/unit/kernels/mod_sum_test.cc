// Mod (both fmod modes: the sign of the remainder follows the divisor or
// the dividend; integer zero divisors and INT_MIN % -1) and the variadic,
// broadcasting Sum, against hand-computed values.
#include <cmath>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs Fmod(int64_t v) { return Attr("fmod", v); }

TEST(ModKernel, FloorModTakesTheDivisorsSign) {
  // Python: 7 % 3 = 1, -7 % 3 = 2, 7 % -3 = -2, -7 % -3 = -1.
  RUN_OK(i, "Mod", Fmod(0), {I32({4}, {7, -7, 7, -7}), I32({4}, {3, 3, -3, -3})}, {{DataType::kInt32, {4}}});
  EXPECT_EQ(i[0].as<int32_t>(), (std::vector<int32_t>{1, 2, -2, -1}));
  RUN_OK(l, "Mod", {}, {HostTensor::I64({3}, {7, -7, 6}), HostTensor::I64({}, {-4})}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(l[0].as<int64_t>(), (std::vector<int64_t>{-1, -3, -2}));
  // Python: 5.5 % 2 = 1.5, -5.5 % 2 = 0.5, 5.5 % -2 = -0.5.
  RUN_OK(f, "Mod", Fmod(0), {HostTensor::F32({3}, {5.5f, -5.5f, 5.5f}), HostTensor::F32({3}, {2, 2, -2})},
         {{DataType::kFloat32, {3}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{1.5f, 0.5f, -0.5f}));
}

TEST(ModKernel, FmodTakesTheDividendsSign) {
  RUN_OK(i, "Mod", Fmod(1), {I32({4}, {7, -7, 7, -7}), I32({4}, {3, 3, -3, -3})}, {{DataType::kInt32, {4}}});
  EXPECT_EQ(i[0].as<int32_t>(), (std::vector<int32_t>{1, -1, 1, -1}));
  RUN_OK(f, "Mod", Fmod(1), {HostTensor::F32({3}, {5.5f, -5.5f, 1}), HostTensor::F32({3}, {2, 2, 0})},
         {{DataType::kFloat32, {3}}});
  const auto y = f[0].as<float>();
  EXPECT_EQ(y[0], 1.5f);
  EXPECT_EQ(y[1], -1.5f);
  EXPECT_TRUE(std::isnan(y[2]));  // float modulo zero is NaN, not an error
}

TEST(ModKernel, IntegerEdgeCases) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  for (int64_t fmod : {0, 1}) {
    RUN_OK(m, "Mod", Fmod(fmod), {I32({1}, {kMin}), I32({1}, {-1})}, {{DataType::kInt32, {1}}});
    EXPECT_EQ(m[0].as<int32_t>(), (std::vector<int32_t>{0})) << fmod;  // no trap
    auto zero = RunKernel("Mod", Fmod(fmod), {I32({2}, {1, 2}), I32({2}, {1, 0})}, {{DataType::kInt32, {2}}});
    ASSERT_TRUE(Refused(zero, StatusCode::kInvalidArgument, "division by zero"));
  }
  auto bad = RunKernel("Mod", Fmod(2), {I32({1}, {1}), I32({1}, {1})}, {{DataType::kInt32, {1}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "fmod must be 0 or 1"));
}

TEST(SumKernel, AddsAnyNumberOfBroadcastInputs) {
  // [2,3] + [3] + [2,1] + scalar
  RUN_OK(y, "Sum", {},
         {HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::F32({3}, {10, 20, 30}),
          HostTensor::F32({2, 1}, {100, 200}), HostTensor::F32({}, {1000})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{1111, 1122, 1133, 1214, 1225, 1236}));
  // The first input may be the broadcast one.
  RUN_OK(b, "Sum", {}, {HostTensor::F32({1}, {1}), HostTensor::F32({2, 2}, {1, 2, 3, 4})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{2, 3, 4, 5}));
}

TEST(SumKernel, OneInputIsACopyAndIntegersWrap) {
  RUN_OK(one, "Sum", {}, {HostTensor::F32({3}, {1, -2, 3})}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(one[0].as<float>(), (std::vector<float>{1, -2, 3}));
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  RUN_OK(i, "Sum", {}, {I32({2}, {kMax, 1}), I32({2}, {1, 2}), I32({2}, {0, 3})}, {{DataType::kInt32, {2}}});
  EXPECT_EQ(i[0].as<int32_t>(), (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), 6}));
}

TEST(SumKernel, RejectsMixedDtypesAndBadShapes) {
  auto mixed =
      RunKernel("Sum", {}, {HostTensor::F32({1}, {1}), HostTensor::I64({1}, {1})}, {{DataType::kFloat32, {1}}});
  ASSERT_TRUE(Refused(mixed, StatusCode::kInvalidArgument, "input 1 has dtype i64"));
  auto shapes = RunKernel("Sum", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::F32({3}, {1, 2, 3})},
                          {{DataType::kFloat32, {3}}});
  ASSERT_TRUE(Refused(shapes, StatusCode::kInvalidArgument, "do not broadcast"));
}

}  // namespace
}  // namespace ge::test
