// ge_base/tensor_bytes.h: the one checked size every allocation uses, at the
// edges a run-time shape can reach (negative, zero, wrapping, above the cap).
#include <gtest/gtest.h>

#include "ge_base/tensor_bytes.h"
#include "tests/common/refusal.h"

namespace ge {
namespace {

TEST(TensorBytesTest, CountsScalarsOrdinaryAndZeroSizedTensors) {
  EXPECT_EQ(TensorBytes({}, DataType::kFloat32).value(), 4u);
  EXPECT_EQ(TensorBytes({2, 3}, DataType::kInt64).value(), 48u);
  EXPECT_EQ(TensorBytes({0, 16}, DataType::kFloat32).value(), 0u);
  EXPECT_EQ(TensorBytes({int64_t{1} << 62, 4, 0}, DataType::kFloat32).value(), 0u);  // empty, whatever the rest multiply to
  EXPECT_EQ(CheckedElementCount({0, 16}).value(), 0);
  EXPECT_EQ(CheckedElementCount({}).value(), 1);
  EXPECT_EQ(CheckedElementCount({int64_t{1} << 31, int64_t{1} << 31}).value(), int64_t{1} << 62);
}

TEST(TensorBytesTest, RefusesNegativeDimsNamingTheShape) {
  EXPECT_TRUE(Refused(CheckedElementCount({2, -1}), StatusCode::kInvalidArgument, "shape [2,-1] has a negative dim"));
  EXPECT_TRUE(Refused(TensorBytes({-2}, DataType::kFloat32), StatusCode::kInvalidArgument, "f32[-2] has a negative dim"));
  // A negative dim is refused even next to a 0, which would make the product 0.
  EXPECT_TRUE(Refused(TensorBytes({0, -3}, DataType::kUInt8), StatusCode::kInvalidArgument, "negative dim"));
}

TEST(TensorBytesTest, RefusesElementCountsThatOverflow) {
  EXPECT_TRUE(Refused(CheckedElementCount({int64_t{1} << 32, int64_t{1} << 32}), StatusCode::kInvalidArgument,
                      "shape [4294967296,4294967296] is too large: its element count overflows int64"));
  EXPECT_TRUE(Refused(TensorBytes({int64_t{1} << 62, 4}, DataType::kInt8), StatusCode::kInvalidArgument,
                      "i8[4611686018427387904,4] is too large: its element count overflows int64"));
}

TEST(TensorBytesTest, RefusesByteCountsThatOverflowOrPassTheCap) {
  // 2^61 x 2 elements fit in int64; their 4-byte bytes (2^65) do not.
  EXPECT_TRUE(Refused(TensorBytes({int64_t{1} << 61, 2}, DataType::kFloat32), StatusCode::kInvalidArgument,
                      "f32[2305843009213693952,2] is too large: its byte count overflows int64"));
  // 2^31 x 2^31 floats: 2^64 bytes.
  EXPECT_TRUE(Refused(TensorBytes({int64_t{1} << 31, int64_t{1} << 31}, DataType::kFloat32),
                      StatusCode::kInvalidArgument, "byte count overflows"));
  // Fits in int64 but is above the 64 TiB cap; exactly the cap is allowed.
  EXPECT_TRUE(Refused(TensorBytes({(kMaxTensorBytes / 4) + 1}, DataType::kFloat32), StatusCode::kInvalidArgument,
                      "is too large: 70368744177668 bytes, above the limit of 2^46 bytes (64 TiB) per tensor"));
  EXPECT_EQ(TensorBytes({kMaxTensorBytes / 4}, DataType::kFloat32).value(), static_cast<size_t>(kMaxTensorBytes));
  EXPECT_TRUE(Refused(TensorBytes({int64_t{1} << 62}, DataType::kFloat64), StatusCode::kInvalidArgument, "too large"));
}

}  // namespace
}  // namespace ge
