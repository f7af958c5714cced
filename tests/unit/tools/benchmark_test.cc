// ge-run's benchmarking helpers (ge/tools/benchmark.h): reproducible random
// inputs in the documented ranges, nearest-rank percentiles.
#include <gtest/gtest.h>

#include <cstring>

#include "ge/tools/benchmark.h"

namespace ge::tools {
namespace {

TEST(RandomTensorBytes, SameSeedSameBytesAndValuesInTheirRanges) {
  const TensorDesc f(DataType::kFloat32, {4, 64});
  const auto a = RandomTensorBytes(f, 7), b = RandomTensorBytes(f, 7), c = RandomTensorBytes(f, 8);
  ASSERT_EQ(a.size(), 4u * 64 * 4);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<float> v(256);
  std::memcpy(v.data(), a.data(), a.size());
  for (float x : v) {
    EXPECT_GE(x, -1.f);
    EXPECT_LT(x, 1.f);
  }
  const auto i = RandomTensorBytes(TensorDesc(DataType::kInt64, {100}), 3);
  std::vector<int64_t> iv(100);
  std::memcpy(iv.data(), i.data(), i.size());
  for (int64_t x : iv) {
    EXPECT_GE(x, 0);
    EXPECT_LT(x, 100);
  }
  for (uint8_t x : RandomTensorBytes(TensorDesc(DataType::kBool, {50}), 1)) EXPECT_LE(x, 1);
  EXPECT_TRUE(RandomTensorBytes(TensorDesc(DataType::kFloat32, {0, 3}), 1).empty());
}

TEST(Percentiles, NearestRankOverUnsortedSamples) {
  std::vector<double> ms;
  for (int k = 100; k >= 1; --k) ms.push_back(k);
  const Latency l = Percentiles(ms);
  EXPECT_EQ(l.min, 1);
  EXPECT_EQ(l.p50, 51);  // rank round(0.5 * 99) = 50 -> the 51st value
  EXPECT_EQ(l.p90, 90);
  EXPECT_EQ(l.p99, 99);
  EXPECT_DOUBLE_EQ(l.mean, 50.5);
  const Latency none = Percentiles({});
  EXPECT_EQ(none.p50, 0);
  EXPECT_EQ(none.mean, 0);
}

}  // namespace
}  // namespace ge::tools
