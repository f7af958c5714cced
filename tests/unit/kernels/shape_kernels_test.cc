// Shape kernels: views that copy bytes (and skip in place), Expand, Shape,
// Size, Cast conversions, ConstantOfShape, Range; and their checks of the
// given output dims.
#include <cmath>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(ShapeKernel, ReshapeWithConstantShapeZeroAndMinusOne) {
  RUN_OK(out, "Reshape", {}, {HostTensor::F32({2, 3, 4}, Iota(24)), HostTensor::I64({3}, {0, -1, 2}, true)},
         {{DataType::kFloat32, {2, 6, 2}}});
  EXPECT_EQ(out[0].as<float>(), Iota(24));
  EXPECT_EQ(out[0].dims, (dims{2, 6, 2}));
}

TEST(ShapeKernel, ReshapeChecksOutputAgainstConstantShape) {
  auto r = RunKernel("Reshape", {}, {HostTensor::F32({2, 3, 4}, Iota(24)), HostTensor::I64({2}, {4, -1}, true)},
                     {{DataType::kFloat32, {3, 8}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("test_Reshape"), std::string::npos) << r.status().ToString();
  EXPECT_NE(r.status().message().find("[4,6]"), std::string::npos) << r.status().ToString();
}

TEST(ShapeKernel, ReshapeWithRuntimeShapeChecksCounts) {
  RUN_OK(ok, "Reshape", {}, {HostTensor::F32({6}, Iota(6)), HostTensor::I64({2}, {3, 2})},
         {{DataType::kFloat32, {3, 2}}});
  EXPECT_EQ(ok[0].as<float>(), Iota(6));
  auto bad = RunKernel("Reshape", {}, {HostTensor::F32({6}, Iota(6)), HostTensor::I64({2}, {4, 2})},
                       {{DataType::kFloat32, {4, 2}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "output [4,2] has a different element count than input [6]"));
}

TEST(ShapeKernel, FlattenAxes) {
  RUN_OK(d, "Flatten", {}, {HostTensor::F32({2, 3, 4}, Iota(24))}, {{DataType::kFloat32, {2, 12}}});
  EXPECT_EQ(d[0].as<float>(), Iota(24));
  RUN_OK(n, "Flatten", Attr("axis", int64_t{-1}), {HostTensor::F32({2, 3, 4}, Iota(24))},
         {{DataType::kFloat32, {6, 4}}});
  EXPECT_EQ(n[0].as<float>(), Iota(24));
  auto bad = RunKernel("Flatten", Attr("axis", int64_t{0}), {HostTensor::F32({2, 3, 4}, Iota(24))},
                       {{DataType::kFloat32, {2, 12}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument,
                      "output 0 dims [2,12] do not match [1,24] implied by the inputs and"));  // axis 0 gives [1, 24]
}

TEST(ShapeKernel, SqueezeFromInputAttrAndAll) {
  RUN_OK(in, "Squeeze", {}, {HostTensor::F32({1, 3, 1}, Iota(3)), HostTensor::I64({1}, {-1}, true)},
         {{DataType::kFloat32, {1, 3}}});
  EXPECT_EQ(in[0].as<float>(), Iota(3));
  RUN_OK(at, "Squeeze", Attr("axes", dims{0}), {HostTensor::F32({1, 3, 1}, Iota(3))}, {{DataType::kFloat32, {3, 1}}});
  EXPECT_EQ(at[0].as<float>(), Iota(3));
  RUN_OK(all, "Squeeze", {}, {HostTensor::F32({1, 3, 1}, Iota(3))}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(all[0].as<float>(), Iota(3));
  auto bad = RunKernel("Squeeze", Attr("axes", dims{1}), {HostTensor::F32({1, 3, 1}, Iota(3))},
                       {{DataType::kFloat32, {1, 3}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "squeeze axis 1"));
}

TEST(ShapeKernel, UnsqueezeNegativeAxes) {
  RUN_OK(out, "Unsqueeze", {}, {HostTensor::F32({3, 2}, Iota(6)), HostTensor::I64({2}, {0, -1}, true)},
         {{DataType::kFloat32, {1, 3, 2, 1}}});
  EXPECT_EQ(out[0].as<float>(), Iota(6));
  auto bad = RunKernel("Unsqueeze", Attr("axes", dims{1}), {HostTensor::F32({3, 2}, Iota(6))},
                       {{DataType::kFloat32, {3, 2, 1}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument,
                      "output 0 dims [3,2,1] do not match [3,1,2] implied by the inputs and"));
}

TEST(ShapeKernel, IdentityAnyDtype) {
  RUN_OK(out, "Identity", {}, {HostTensor::I64({3}, {7, -8, 9})}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{7, -8, 9}));
}

TEST(ShapeKernel, InPlaceCopyIsANoOp) {
  hal::KernelSpec spec;
  spec.op = "Reshape";
  spec.name = "inplace";
  spec.inputs = {{DataType::kFloat32, {2, 2}}, {DataType::kInt64, {1}}};
  spec.outputs = {{DataType::kFloat32, {4}}};
  auto k = Cpu().kernels().Create(spec);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  auto buf = Cpu().Allocate(64);
  ASSERT_TRUE(buf.ok());
  float* p = static_cast<float*>(buf->data());
  for (int i = 0; i < 4; ++i) p[i] = static_cast<float>(i + 1);
  int64_t shape = 4;
  const void* in[] = {p, &shape};
  void* out[] = {p};
  ASSERT_TRUE((*k)->Run(in, out).ok());
  EXPECT_EQ(std::vector<float>(p, p + 4), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ShapeKernel, ExpandBroadcastsToOutput) {
  RUN_OK(out, "Expand", {}, {HostTensor::F32({3, 1}, {1, 2, 3}), HostTensor::I64({3}, {2, 1, 4}, true)},
         {{DataType::kFloat32, {2, 3, 4}}});
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (float v : {1.0f, 2.0f, 3.0f})
      for (int k = 0; k < 4; ++k) want.push_back(v);
  EXPECT_EQ(out[0].as<float>(), want);
  RUN_OK(row, "Expand", {}, {HostTensor::I64({3}, {1, 2, 3}), HostTensor::I64({2}, {2, 1})},
         {{DataType::kInt64, {2, 3}}});
  EXPECT_EQ(row[0].as<int64_t>(), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
  auto bad = RunKernel("Expand", {}, {HostTensor::F32({3}, {1, 2, 3}), HostTensor::I64({1}, {2}, true)},
                       {{DataType::kFloat32, {2}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "shapes [3] vs [2] do not broadcast"));
}

TEST(ShapeKernel, ShapeWithStartAndEnd) {
  const auto x = HostTensor::F32({2, 3, 4, 5}, std::vector<float>(120));
  RUN_OK(all, "Shape", {}, {x}, {{DataType::kInt64, {4}}});
  EXPECT_EQ(all[0].as<int64_t>(), (std::vector<int64_t>{2, 3, 4, 5}));
  hal::Attrs a;
  a.Set("start", int64_t{1});
  a.Set("end", int64_t{-1});
  RUN_OK(mid, "Shape", a, {x}, {{DataType::kInt64, {2}}});
  EXPECT_EQ(mid[0].as<int64_t>(), (std::vector<int64_t>{3, 4}));
  RUN_OK(clamped, "Shape", Attr("start", int64_t{-10}), {x}, {{DataType::kInt64, {4}}});
  EXPECT_EQ(clamped[0].as<int64_t>(), (std::vector<int64_t>{2, 3, 4, 5}));
  auto bad = RunKernel("Shape", {}, {x}, {{DataType::kInt64, {3}}});
  EXPECT_TRUE(
      Refused(bad, StatusCode::kInvalidArgument, "output 0 dims [3] do not match [4] implied by the inputs and"));
}

TEST(ShapeKernel, Size) {
  RUN_OK(out, "Size", {}, {HostTensor::F32({2, 3, 4}, std::vector<float>(24))}, {{DataType::kInt64, {}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{24}));
}

TEST(ShapeKernel, CastFloatToInt64Truncates) {
  RUN_OK(out, "Cast", Attr("to", int64_t{7}),
         {HostTensor::F32({7}, {-1.7f, -0.5f, 0.5f, 2.9f, std::nanf(""), 1e30f, -1e30f})}, {{DataType::kInt64, {7}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{-1, 0, 0, 2, 0, std::numeric_limits<int64_t>::max(),
                                                        std::numeric_limits<int64_t>::min()}));
}

TEST(ShapeKernel, CastInt64ToFloatAndOthers) {
  RUN_OK(f, "Cast", Attr("to", int64_t{1}), {HostTensor::I64({3}, {-3, 0, int64_t{1} << 40})},
         {{DataType::kFloat32, {3}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{-3, 0, 1099511627776.0f}));
  RUN_OK(b, "Cast", Attr("to", int64_t{9}), {HostTensor::F32({3}, {0, -0.1f, 2})}, {{DataType::kBool, {3}}});
  EXPECT_EQ(b[0].as<uint8_t>(), (std::vector<uint8_t>{0, 1, 1}));
  RUN_OK(fb, "Cast", Attr("to", int64_t{1}), {HostTensor::Of<uint8_t>(DataType::kBool, {2}, {1, 0})},
         {{DataType::kFloat32, {2}}});
  EXPECT_EQ(fb[0].as<float>(), (std::vector<float>{1, 0}));
  RUN_OK(i32, "Cast", Attr("to", int64_t{6}), {HostTensor::Of<double>(DataType::kFloat64, {2}, {-2.5, 3e10})},
         {{DataType::kInt32, {2}}});
  EXPECT_EQ(i32[0].as<int32_t>(), (std::vector<int32_t>{-2, std::numeric_limits<int32_t>::max()}));
  RUN_OK(u8, "Cast", Attr("to", int64_t{2}), {HostTensor::F32({3}, {-5, 7.9f, 300})}, {{DataType::kUInt8, {3}}});
  EXPECT_EQ(u8[0].as<uint8_t>(), (std::vector<uint8_t>{0, 7, 255}));
  RUN_OK(like, "CastLike", {}, {HostTensor::F32({2}, {1.5f, -1.5f}), HostTensor::I64({1}, {0})},
         {{DataType::kInt64, {2}}});
  EXPECT_EQ(like[0].as<int64_t>(), (std::vector<int64_t>{1, -1}));
}

// float16 through float32, rounding to nearest even: to and from every numeric type.
TEST(ShapeKernel, CastFloat16AndFloat32) {
  RUN_OK(h, "Cast", Attr("to", int64_t{10}), {HostTensor::F32({4}, {1.0f, 0.1f, -65520.0f, 1.0f + 1.0f / 2048})},
         {{DataType::kFloat16, {4}}});
  EXPECT_EQ(h[0].as<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0x2e66, 0xfc00, 0x3c00}));
  RUN_OK(f, "Cast", Attr("to", int64_t{1}), {HostTensor::Of<uint16_t>(DataType::kFloat16, {3}, {0x3c00, 0xc000, 0x0001})},
         {{DataType::kFloat32, {3}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{1.0f, -2.0f, 5.9604645e-08f}));
}

TEST(ShapeKernel, CastFloat16AndOtherTypes) {
  RUN_OK(h, "Cast", Attr("to", int64_t{10}), {HostTensor::I64({3}, {1, -2, 70000})}, {{DataType::kFloat16, {3}}});
  EXPECT_EQ(h[0].as<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0xc000, 0x7c00}));  // 70000 overflows to inf
  RUN_OK(hd, "Cast", Attr("to", int64_t{10}), {HostTensor::Of<double>(DataType::kFloat64, {1}, {0.5})},
         {{DataType::kFloat16, {1}}});
  EXPECT_EQ(hd[0].as<uint16_t>(), (std::vector<uint16_t>{0x3800}));
  RUN_OK(d, "Cast", Attr("to", int64_t{11}), {HostTensor::Of<uint16_t>(DataType::kFloat16, {2}, {0x3555, 0xbc00})},
         {{DataType::kFloat64, {2}}});
  EXPECT_EQ(d[0].as<double>(), (std::vector<double>{0.333251953125, -1.0}));
  RUN_OK(i, "Cast", Attr("to", int64_t{6}), {HostTensor::Of<uint16_t>(DataType::kFloat16, {2}, {0x4100, 0xc100})},
         {{DataType::kInt32, {2}}});
  EXPECT_EQ(i[0].as<int32_t>(), (std::vector<int32_t>{2, -2}));  // 2.5 and -2.5 truncate
}

TEST(ShapeKernel, CastRejectsStringsAndMismatchedTarget) {
  auto str = RunKernel("Cast", Attr("to", int64_t{8}), {HostTensor::F32({1}, {1})}, {{DataType::kUInt8, {1}}});
  ASSERT_FALSE(str.ok());
  EXPECT_EQ(str.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(str.status().message().find("to=8"), std::string::npos) << str.status().ToString();
  auto mismatch = RunKernel("Cast", Attr("to", int64_t{7}), {HostTensor::F32({1}, {1})}, {{DataType::kInt32, {1}}});
  ASSERT_TRUE(Refused(mismatch, StatusCode::kInvalidArgument, "output dtype i32 differs from the target i64"));
  EXPECT_EQ(mismatch.status().code(), StatusCode::kInvalidArgument);
  auto missing = RunKernel("Cast", {}, {HostTensor::F32({1}, {1})}, {{DataType::kInt32, {1}}});
  EXPECT_TRUE(Refused(missing, StatusCode::kInvalidArgument, "attribute to is required"));
}

TEST(ShapeKernel, DropoutCopiesAndMasksAllTrue) {
  RUN_OK(y, "Dropout", {}, {HostTensor::F32({2, 2}, {1, -2, 3, 4})}, {{DataType::kFloat32, {2, 2}}, {DataType::kBool, {2, 2}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{1, -2, 3, 4}));
  EXPECT_EQ(y[1].as<uint8_t>(), (std::vector<uint8_t>{1, 1, 1, 1}));
  // A constant false training_mode is inference; true or a runtime value is refused.
  const auto ratio = HostTensor::F32({}, {0.5f}, true);
  RUN_OK(f, "Dropout", {}, {HostTensor::F32({1}, {7}), ratio, HostTensor::Of<uint8_t>(DataType::kBool, {}, {0}, true)},
         {{DataType::kFloat32, {1}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{7}));
  for (bool is_const : {true, false}) {
    auto t = RunKernel("Dropout", {},
                       {HostTensor::F32({1}, {7}), ratio, HostTensor::Of<uint8_t>(DataType::kBool, {}, {1}, is_const)},
                       {{DataType::kFloat32, {1}}});
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().code(), StatusCode::kUnsupported);
    EXPECT_NE(t.status().message().find("training mode is not supported"), std::string::npos);
  }
}

TEST(ShapeKernel, ConstantOfShapeFillsValue) {
  RUN_OK(f, "ConstantOfShape", Attr("value", 1.5), {HostTensor::I64({2}, {2, 3}, true)},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(f[0].as<float>(), std::vector<float>(6, 1.5f));
  RUN_OK(i, "ConstantOfShape", Attr("value", 7.0), {HostTensor::I64({1}, {3})}, {{DataType::kInt64, {3}}});
  EXPECT_EQ(i[0].as<int64_t>(), std::vector<int64_t>(3, 7));
  RUN_OK(z, "ConstantOfShape", {}, {HostTensor::I64({1}, {4}, true)}, {{DataType::kFloat32, {4}}});
  EXPECT_EQ(z[0].as<float>(), std::vector<float>(4, 0.0f));
  auto bad = RunKernel("ConstantOfShape", {}, {HostTensor::I64({1}, {4}, true)}, {{DataType::kFloat32, {5}}});
  EXPECT_TRUE(
      Refused(bad, StatusCode::kInvalidArgument, "output 0 dims [5] do not match [4] implied by the inputs and"));
}

TEST(ShapeKernel, RangeIntegerAndFloat) {
  RUN_OK(i, "Range", {},
         {HostTensor::I64({}, {0}, true), HostTensor::I64({}, {10}, true), HostTensor::I64({}, {3}, true)},
         {{DataType::kInt64, {4}}});
  EXPECT_EQ(i[0].as<int64_t>(), (std::vector<int64_t>{0, 3, 6, 9}));
  RUN_OK(neg, "Range", {}, {HostTensor::I64({}, {5}), HostTensor::I64({}, {-1}), HostTensor::I64({}, {-2})},
         {{DataType::kInt64, {3}}});
  EXPECT_EQ(neg[0].as<int64_t>(), (std::vector<int64_t>{5, 3, 1}));
  RUN_OK(f, "Range", {},
         {HostTensor::F32({}, {1}, true), HostTensor::F32({}, {2}, true), HostTensor::F32({}, {0.25f}, true)},
         {{DataType::kFloat32, {4}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{1, 1.25f, 1.5f, 1.75f}));
}

// The count and the values at the ends of int64: limit - start and i * delta
// do not fit in int64, the elements do (issue 46: the count wrapped).
TEST(ShapeKernel, RangeOverTheWholeInt64Span) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  RUN_OK(c, "Range", {},
         {HostTensor::I64({}, {kMin}, true), HostTensor::I64({}, {kMax}, true), HostTensor::I64({}, {kMax}, true)},
         {{DataType::kInt64, {3}}});
  EXPECT_EQ(c[0].as<int64_t>(), (std::vector<int64_t>{kMin, -1, kMax - 1}));
  RUN_OK(r, "Range", {}, {HostTensor::I64({}, {kMax}), HostTensor::I64({}, {kMin}), HostTensor::I64({}, {kMin})},
         {{DataType::kInt64, {2}}});
  EXPECT_EQ(r[0].as<int64_t>(), (std::vector<int64_t>{kMax, -1}));
  auto huge = RunKernel("Range", {},
                        {HostTensor::I64({}, {kMin}, true), HostTensor::I64({}, {kMax}, true), HostTensor::I64({}, {1}, true)},
                        {{DataType::kInt64, {1}}});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(huge.status().message().find("node test_Range (Range): range has too many elements"), std::string::npos)
      << huge.status().ToString();
}

TEST(ShapeKernel, RangeChecksCountAtCreateAndRun) {
  auto create = RunKernel(
      "Range", {}, {HostTensor::I64({}, {0}, true), HostTensor::I64({}, {10}, true), HostTensor::I64({}, {3}, true)},
      {{DataType::kInt64, {3}}});
  ASSERT_TRUE(
      Refused(create, StatusCode::kInvalidArgument, "output 0 dims [3] do not match [4] implied by the inputs and"));
  EXPECT_EQ(create.status().code(), StatusCode::kInvalidArgument);
  auto run = RunKernel("Range", {}, {HostTensor::I64({}, {0}), HostTensor::I64({}, {10}), HostTensor::I64({}, {3})},
                       {{DataType::kInt64, {3}}});
  ASSERT_TRUE(Refused(run, StatusCode::kInvalidArgument, "4 elements"));
  auto zero = RunKernel("Range", {}, {HostTensor::I64({}, {0}), HostTensor::I64({}, {10}), HostTensor::I64({}, {0})},
                        {{DataType::kInt64, {3}}});
  EXPECT_TRUE(Refused(zero, StatusCode::kInvalidArgument, "delta is 0"));
}

TEST(ShapeKernel, ViewsRejectDtypeOrCountMismatch) {
  auto dt = RunKernel("Identity", {}, {HostTensor::F32({2}, {1, 2})}, {{DataType::kInt32, {2}}});
  ASSERT_TRUE(Refused(dt, StatusCode::kInvalidArgument, "dtype"));
  auto count = RunKernel("Flatten", {}, {HostTensor::F32({2, 2}, {1, 2, 3, 4})}, {{DataType::kFloat32, {2, 3}}});
  ASSERT_TRUE(Refused(count, StatusCode::kInvalidArgument, "element count"));
}

}  // namespace
}  // namespace ge::test
