// The binary kernels on the narrow, unsigned and f16/f64 dtypes: wrapping
// arithmetic, unsigned division and Mod (no "b == -1" shortcut for them),
// Mod on f16 through f32, BitShift, Pow with unsigned exponents, f16
// Max/Min and Clip on i8. Expected values are written out by hand.
#include "ge_base/float16.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace binary_dtypes {  // named: the unity build shares one anonymous namespace between test files

template <typename T>
HostTensor T_(DataType dt, dims d, std::vector<T> v) {
  return HostTensor::Of(dt, std::move(d), v);
}
HostTensor U8(dims d, std::vector<uint8_t> v) { return T_(DataType::kUInt8, std::move(d), std::move(v)); }
HostTensor U32(dims d, std::vector<uint32_t> v) { return T_(DataType::kUInt32, std::move(d), std::move(v)); }
HostTensor I8(dims d, std::vector<int8_t> v) { return T_(DataType::kInt8, std::move(d), std::move(v)); }
HostTensor F16(dims d, const std::vector<float>& v) {
  std::vector<uint16_t> h;
  for (float f : v) h.push_back(FloatToHalf(f));
  return T_(DataType::kFloat16, std::move(d), h);
}
std::vector<float> FromF16(const HostTensor& t) {
  std::vector<float> v;
  for (uint16_t h : t.as<uint16_t>()) v.push_back(HalfToFloat(h));
  return v;
}
hal::Attrs Attr(const std::string& k, hal::Attrs::Value v) {
  hal::Attrs a;
  a.Set(k, std::move(v));
  return a;
}

TEST(BinaryDtypes, Uint8ArithmeticWraps) {
  const auto a = U8({3}, {200, 3, 250}), b = U8({3}, {100, 5, 7});
  RUN_OK(add, "Add", {}, {a, b}, {{DataType::kUInt8, {3}}});
  EXPECT_EQ(add[0].as<uint8_t>(), (std::vector<uint8_t>{44, 8, 1}));
  RUN_OK(sub, "Sub", {}, {a, b}, {{DataType::kUInt8, {3}}});
  EXPECT_EQ(sub[0].as<uint8_t>(), (std::vector<uint8_t>{100, 254, 243}));
  RUN_OK(mul, "Mul", {}, {a, b}, {{DataType::kUInt8, {3}}});
  EXPECT_EQ(mul[0].as<uint8_t>(), (std::vector<uint8_t>{32, 15, 214}));
  RUN_OK(div, "Div", {}, {a, b}, {{DataType::kUInt8, {3}}});
  EXPECT_EQ(div[0].as<uint8_t>(), (std::vector<uint8_t>{2, 0, 35}));
}

TEST(BinaryDtypes, Uint16ProductsWrapWithoutIntOverflow) {
  RUN_OK(mul, "Mul", {}, {T_<uint16_t>(DataType::kUInt16, {1}, {0xffff}), T_<uint16_t>(DataType::kUInt16, {1}, {0xffff})},
         {{DataType::kUInt16, {1}}});
  EXPECT_EQ(mul[0].as<uint16_t>(), (std::vector<uint16_t>{1}));
}

TEST(BinaryDtypes, UnsignedDivisionAndModByTheLargestValue) {
  // 0xffffffff is -1 only for a signed type: no negation shortcut here.
  const auto a = U32({3}, {0xfffffffeu, 0xffffffffu, 5}), b = U32({}, {0xffffffffu});
  RUN_OK(div, "Div", {}, {a, b}, {{DataType::kUInt32, {3}}});
  EXPECT_EQ(div[0].as<uint32_t>(), (std::vector<uint32_t>{0, 1, 0}));
  for (int64_t fmod : {0, 1}) {
    RUN_OK(mod, "Mod", Attr("fmod", fmod), {a, b}, {{DataType::kUInt32, {3}}});
    EXPECT_EQ(mod[0].as<uint32_t>(), (std::vector<uint32_t>{0xfffffffeu, 0, 5})) << fmod;
  }
}

TEST(BinaryDtypes, IntegerDivisionByZeroIsAnError) {
  auto r = RunKernel("Div", {}, {U8({2}, {1, 2}), U8({2}, {1, 0})}, {{DataType::kUInt8, {2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "division by zero"));
}

TEST(BinaryDtypes, Int8ModTakesTheDivisorsOrTheDividendsSign) {
  const auto a = I8({4}, {-4, 4, -128, 7}), b = I8({4}, {3, -3, -1, 7});
  RUN_OK(floor, "Mod", Attr("fmod", int64_t{0}), {a, b}, {{DataType::kInt8, {4}}});
  EXPECT_EQ(floor[0].as<int8_t>(), (std::vector<int8_t>{2, -2, 0, 0}));
  RUN_OK(trunc, "Mod", Attr("fmod", int64_t{1}), {a, b}, {{DataType::kInt8, {4}}});
  EXPECT_EQ(trunc[0].as<int8_t>(), (std::vector<int8_t>{-1, 1, 0, 0}));
}

TEST(BinaryDtypes, FloatModOnF16AndF64) {
  RUN_OK(h, "Mod", Attr("fmod", int64_t{1}), {F16({4}, {-4.5f, 7.25f, 5, -5}), F16({4}, {2, -3, 0.75f, -2})},
         {{DataType::kFloat16, {4}}});
  EXPECT_EQ(FromF16(h[0]), (std::vector<float>{-0.5f, 1.25f, 0.5f, -1}));
  RUN_OK(d, "Mod", Attr("fmod", int64_t{1}),
         {T_<double>(DataType::kFloat64, {2}, {-4.5, 7.25}), T_<double>(DataType::kFloat64, {}, {2})},
         {{DataType::kFloat64, {2}}});
  EXPECT_EQ(d[0].as<double>(), (std::vector<double>{-0.5, 1.25}));
}

TEST(BinaryDtypes, BitShiftBothWaysAndPastTheWidth) {
  const auto x = U8({4}, {16, 4, 1, 255}), s = U8({4}, {1, 2, 8, 7});
  RUN_OK(l, "BitShift", Attr("direction", std::string("LEFT")), {x, s}, {{DataType::kUInt8, {4}}});
  EXPECT_EQ(l[0].as<uint8_t>(), (std::vector<uint8_t>{32, 16, 0, 128}));
  RUN_OK(r, "BitShift", Attr("direction", std::string("RIGHT")), {x, s}, {{DataType::kUInt8, {4}}});
  EXPECT_EQ(r[0].as<uint8_t>(), (std::vector<uint8_t>{8, 1, 0, 1}));
  RUN_OK(w, "BitShift", Attr("direction", std::string("LEFT")),
         {T_<uint64_t>(DataType::kUInt64, {2}, {1, 3}), T_<uint64_t>(DataType::kUInt64, {}, {40})},
         {{DataType::kUInt64, {2}}});
  EXPECT_EQ(w[0].as<uint64_t>(), (std::vector<uint64_t>{uint64_t{1} << 40, uint64_t{3} << 40}));
}

TEST(BinaryDtypes, BitShiftRefusesSignedTypesAndBadDirections) {
  auto bad = RunKernel("BitShift", Attr("direction", std::string("UP")), {U8({1}, {1}), U8({1}, {1})},
                       {{DataType::kUInt8, {1}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "direction"));
  auto i8 = RunKernel("BitShift", Attr("direction", std::string("LEFT")), {I8({1}, {1}), I8({1}, {1})},
                      {{DataType::kInt8, {1}}});
  ASSERT_FALSE(i8.ok());
  EXPECT_EQ(i8.status().code(), StatusCode::kUnsupported) << i8.status().ToString();
}

TEST(BinaryDtypes, PowOfF32ByUnsignedExponents) {
  RUN_OK(p, "Pow", {}, {HostTensor::F32({3}, {2, -3, 0.5f}), U32({3}, {10, 3, 2})}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(p[0].as<float>(), (std::vector<float>{1024, -27, 0.25f}));
  RUN_OK(q, "Pow", {},
         {HostTensor::F32({2}, {2, 1.5f}), T_<uint64_t>(DataType::kUInt64, {2}, {3, 0})}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(q[0].as<float>(), (std::vector<float>{8, 1}));
}

TEST(BinaryDtypes, MaxAndMinOnF16) {
  const auto a = F16({4}, {1.5f, -2, 65504, 0.1f}), b = F16({}, {0.5f});
  RUN_OK(mx, "Max", {}, {a, b}, {{DataType::kFloat16, {4}}});
  EXPECT_EQ(mx[0].as<uint16_t>(), F16({4}, {1.5f, 0.5f, 65504, 0.5f}).as<uint16_t>());
  RUN_OK(mn, "Min", {}, {a, b, F16({4}, {3, 3, -1, 3})}, {{DataType::kFloat16, {4}}});
  EXPECT_EQ(mn[0].as<uint16_t>(), F16({4}, {0.5f, -2, -1, 0.1f}).as<uint16_t>());
}

TEST(BinaryDtypes, ClipOnInt8WithDefaultAndGivenBounds) {
  const auto x = I8({4}, {-128, -5, 5, 127});
  RUN_OK(none, "Clip", {}, {x}, {{DataType::kInt8, {4}}});
  EXPECT_EQ(none[0].as<int8_t>(), (std::vector<int8_t>{-128, -5, 5, 127}));
  RUN_OK(both, "Clip", {}, {x, I8({}, {-10}), I8({}, {3})}, {{DataType::kInt8, {4}}});
  EXPECT_EQ(both[0].as<int8_t>(), (std::vector<int8_t>{-10, -5, 3, 3}));
  RUN_OK(hi, "Clip", {}, {x, HostTensor::Absent(), I8({}, {0})}, {{DataType::kInt8, {4}}});
  EXPECT_EQ(hi[0].as<int8_t>(), (std::vector<int8_t>{-128, -5, 0, 0}));
}

}  // namespace binary_dtypes
}  // namespace ge::test

namespace ge::test {
namespace binary_dtypes {

TEST(BinaryDtypes, PReluBroadcastsTheSlope) {
  // x [2,3], slope [3]: negative values scale by their column's slope.
  RUN_OK(y, "PRelu", {}, {HostTensor::F32({2, 3}, {-1, 2, -3, 4, -5, 0}), HostTensor::F32({3}, {0.5f, 2, 3})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{-0.5f, 2, -9, 4, -10, 0}));
}

}  // namespace binary_dtypes
}  // namespace ge::test
