// ge_base/bfloat16.h: exact widening; narrowing rounds to nearest even or
// truncates, and keeps NaN a NaN either way.
#include "ge_base/bfloat16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace ge {
namespace {

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

TEST(BFloat16, WideningIsExact) {
  EXPECT_EQ(BFloat16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(BFloat16ToFloat(0xc0a0), -5.0f);
  EXPECT_TRUE(std::isinf(BFloat16ToFloat(0x7f80)));
}

TEST(BFloat16, NarrowingRoundsToNearestEvenOrTruncates) {
  EXPECT_EQ(FloatToBFloat16(FromBits(0x3f808000)), 0x3f80);  // a tie, down to even
  EXPECT_EQ(FloatToBFloat16(FromBits(0x3f818000)), 0x3f82);  // a tie, up to even
  EXPECT_EQ(FloatToBFloat16(FromBits(0x3f80c000)), 0x3f81);  // above half
  EXPECT_EQ(FloatToBFloat16(FromBits(0x3f80c000), true), 0x3f80);
  EXPECT_EQ(FloatToBFloat16(FromBits(0x7f7fffff)), 0x7f80);  // rounds up to inf
  EXPECT_EQ(FloatToBFloat16(FromBits(0x7f7fffff), true), 0x7f7f);
}

TEST(BFloat16, NaNStaysNaN) {
  for (bool truncate : {false, true}) {
    // A NaN whose payload is only in the low half would truncate to inf.
    EXPECT_TRUE(std::isnan(BFloat16ToFloat(FloatToBFloat16(FromBits(0x7f800001), truncate))));
    EXPECT_TRUE(std::isnan(BFloat16ToFloat(FloatToBFloat16(std::numeric_limits<float>::quiet_NaN(), truncate))));
  }
  EXPECT_EQ(FloatToBFloat16(FromBits(0xff800001)) & 0x8000, 0x8000);
}

}  // namespace
}  // namespace ge
