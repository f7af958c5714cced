// ge_base/checked_math.h: size arithmetic that reports overflow instead of
// wrapping, at the edges of int64.
#include <gtest/gtest.h>

#include <limits>

#include "ge_base/checked_math.h"
#include "ge_base/dtype.h"

namespace ge {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(CheckedMathTest, MulAndAddOverflowAtTheEdgesOnly) {
  EXPECT_FALSE(MulOverflows(int64_t{1} << 31, int64_t{1} << 31));
  EXPECT_TRUE(MulOverflows(int64_t{1} << 32, int64_t{1} << 31));
  EXPECT_FALSE(MulOverflows(kMax, 1));
  EXPECT_TRUE(MulOverflows(kMax, 2));
  EXPECT_TRUE(MulOverflows(kMin, -1));
  EXPECT_FALSE(AddOverflows(kMax - 1, 1));
  EXPECT_TRUE(AddOverflows(kMax, 1));
  EXPECT_TRUE(AddOverflows(kMin, -1));
  EXPECT_EQ(CheckedMul(int64_t{1} << 20, int64_t{1} << 20), int64_t{1} << 40);
  EXPECT_EQ(CheckedMul(kMax, 2), std::nullopt);
  EXPECT_EQ(CheckedMul(0, kMax), 0);
  EXPECT_EQ(CheckedAdd(kMax - 5, 5), kMax);
  EXPECT_EQ(CheckedAdd(kMax - 5, 6), std::nullopt);
}

TEST(CheckedMathTest, AlignUpRoundsAndRefusesWhatDoesNotFit) {
  EXPECT_EQ(CheckedAlignUp(0, 64), 0);
  EXPECT_EQ(CheckedAlignUp(1, 64), 64);
  EXPECT_EQ(CheckedAlignUp(64, 64), 64);
  EXPECT_EQ(CheckedAlignUp(65, 64), 128);
  EXPECT_EQ(CheckedAlignUp(kMax - 62, 64), std::nullopt);  // would round past the top
  EXPECT_EQ(CheckedAlignUp(kMax & ~int64_t{63}, 64), kMax & ~int64_t{63});
  EXPECT_EQ(CheckedAlignUp(-1, 64), std::nullopt);
  EXPECT_EQ(CheckedAlignUp(5, 0), std::nullopt);
}

TEST(CheckedMathTest, ProductOfDims) {
  EXPECT_EQ(CheckedProduct({}), 1);
  EXPECT_EQ(CheckedProduct({1, 3, 224, 224}), 150528);
  EXPECT_EQ(CheckedProduct({0, int64_t{1} << 62, 4}), 0);
  EXPECT_EQ(CheckedProduct({int64_t{1} << 32, int64_t{1} << 32}), std::nullopt);
  EXPECT_EQ(CheckedProduct({3, -1}), std::nullopt);
  // NumElements keeps its contract: -1 for unknown and for overflow.
  EXPECT_EQ(NumElements({int64_t{1} << 32, int64_t{1} << 32}), -1);
  EXPECT_EQ(NumElements({2, -1}), -1);
  EXPECT_EQ(NumElements({2, 3}), 6);
}

}  // namespace
}  // namespace ge
