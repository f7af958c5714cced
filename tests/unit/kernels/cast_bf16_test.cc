// Cast and CastLike to and from bfloat16: through float32, rounding to
// nearest even, or truncating for models before opset 19 (ONNX's reference
// Cast then); f16 <-> bf16 and integers go through float32 too.
#include "ge_base/float16.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace cast_bf16 {

hal::Attrs ToOpset(int64_t to, int64_t opset) {
  hal::Attrs a;
  a.Set("to", to);
  if (opset >= 0) a.Set("_opset", opset);
  return a;
}
HostTensor Bf16(dims d, std::vector<uint16_t> bits) { return HostTensor::Of(DataType::kBFloat16, std::move(d), bits); }

// 1 + 2^-8 + 2^-9 lies above the halfway point between two bf16 values.
const float kAboveHalf = 1.0f + 0.005859375f;

TEST(CastBf16Kernel, FromFloatRoundsOrTruncatesByOpset) {
  const auto x = HostTensor::F32({3}, {kAboveHalf, -2.0f, kNaN});
  RUN_OK(rne, "Cast", ToOpset(16, 19), {x}, {{DataType::kBFloat16, {3}}});
  EXPECT_EQ(rne[0].as<uint16_t>(), (std::vector<uint16_t>{0x3f81, 0xc000, 0x7fc0}));
  RUN_OK(unknown, "Cast", ToOpset(16, -1), {x}, {{DataType::kBFloat16, {3}}});  // hand-built: newest rules
  EXPECT_EQ(unknown[0].as<uint16_t>(), rne[0].as<uint16_t>());
  RUN_OK(old, "Cast", ToOpset(16, 13), {x}, {{DataType::kBFloat16, {3}}});
  EXPECT_EQ(old[0].as<uint16_t>(), (std::vector<uint16_t>{0x3f80, 0xc000, 0x7fc0}));
}

TEST(CastBf16Kernel, ToFloatIntegersAndHalf) {
  const auto x = Bf16({3}, {0x3f80, 0xc0a0, 0x3ec0});  // 1, -5, 0.375
  RUN_OK(f, "Cast", ToOpset(1, 13), {x}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{1, -5, 0.375f}));
  RUN_OK(i, "Cast", ToOpset(6, 13), {x}, {{DataType::kInt32, {3}}});
  EXPECT_EQ(i[0].as<int32_t>(), (std::vector<int32_t>{1, -5, 0}));
  RUN_OK(h, "Cast", ToOpset(10, 13), {x}, {{DataType::kFloat16, {3}}});
  EXPECT_EQ(h[0].as<uint16_t>(), (std::vector<uint16_t>{FloatToHalf(1), FloatToHalf(-5), FloatToHalf(0.375f)}));
  RUN_OK(back, "Cast", ToOpset(16, 13), {h[0]}, {{DataType::kBFloat16, {3}}});
  EXPECT_EQ(back[0].as<uint16_t>(), x.as<uint16_t>());
}

TEST(CastBf16Kernel, CastLikeTakesTheSecondInputsDtype) {
  RUN_OK(y, "CastLike", {}, {HostTensor::F32({2}, {0.5f, 3}), Bf16({1}, {0})}, {{DataType::kBFloat16, {2}}});
  EXPECT_EQ(y[0].as<uint16_t>(), (std::vector<uint16_t>{0x3f00, 0x4040}));
}

}  // namespace cast_bf16
}  // namespace ge::test
