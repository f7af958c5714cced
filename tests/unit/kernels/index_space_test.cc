// CumSum (exclusive, reverse, a run-time axis), TopK (largest, smallest,
// ties to the lower index, unsorted) and SpaceToBatchND / BatchToSpaceND
// on NCHW, against hand-computed values.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using I64s = std::vector<int64_t>;

hal::Attrs CumSumAttrs(int64_t exclusive, int64_t reverse) {
  hal::Attrs a;
  a.Set("exclusive", exclusive);
  a.Set("reverse", reverse);
  return a;
}

TEST(CumSumKernel, ModesAlongARunTimeAxis) {
  const HostTensor x = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  RUN_OK(a, "CumSum", CumSumAttrs(0, 0), {x, HostTensor::I64({}, {1})}, {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(a[0].as<float>(), (std::vector<float>{1, 3, 6, 4, 9, 15}));
  RUN_OK(b, "CumSum", CumSumAttrs(1, 1), {x, I32({1}, {-1})}, {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{5, 3, 0, 11, 6, 0}));
  RUN_OK(c, "CumSum", CumSumAttrs(0, 0), {HostTensor::I64({2, 2}, {1, 2, 3, 4}), HostTensor::I64({}, {0}, true)},
         {{DataType::kInt64, {2, 2}}});
  EXPECT_EQ(c[0].as<int64_t>(), (I64s{1, 2, 4, 6}));
  auto bad = RunKernel("CumSum", {}, {x, HostTensor::I64({}, {2})}, {{DataType::kFloat32, {2, 3}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "axis 2 is out of range"));
}

TEST(TopKKernel, LargestSmallestTiesAndUnsorted) {
  const HostTensor x = HostTensor::F32({2, 4}, {1, 3, 3, 2, 5, 0, 7, 6});
  const std::vector<hal::TensorInfo> out = {{DataType::kFloat32, {2, 2}}, {DataType::kInt64, {2, 2}}};
  RUN_OK(a, "TopK", {}, {x, HostTensor::I64({1}, {2})}, out);
  EXPECT_EQ(a[0].as<float>(), (std::vector<float>{3, 3, 7, 6}));
  EXPECT_EQ(a[1].as<int64_t>(), (I64s{1, 2, 2, 3}));
  RUN_OK(b, "TopK", Attr("largest", int64_t{0}), {x, HostTensor::I64({1}, {2})}, out);
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{1, 2, 0, 5}));
  EXPECT_EQ(b[1].as<int64_t>(), (I64s{0, 3, 1, 0}));
  RUN_OK(c, "TopK", Attr("sorted", int64_t{0}), {x, HostTensor::I64({1}, {2})}, out);
  EXPECT_EQ(c[1].as<int64_t>(), (I64s{1, 2, 2, 3}));  // the chosen ones in input order
  RUN_OK(d, "TopK", Attr("axis", int64_t{0}), {x, HostTensor::I64({1}, {1}, true)},
         {{DataType::kFloat32, {1, 4}}, {DataType::kInt64, {1, 4}}});
  EXPECT_EQ(d[0].as<float>(), (std::vector<float>{5, 3, 7, 6}));
  EXPECT_EQ(d[1].as<int64_t>(), (I64s{1, 0, 1, 1}));
}

TEST(SpaceBatchKernels, PadBlockAndCropRoundTrip) {
  // x [1,1,3,2]; pads top 1: rows -1..2 in 2x1 blocks -> [2,1,2,2].
  hal::Attrs s2b;
  s2b.Set("block_shape", I64s{2, 1});
  s2b.Set("pads", I64s{1, 0, 0, 0});
  const HostTensor x = HostTensor::F32({1, 1, 3, 2}, {1, 2, 3, 4, 5, 6});
  RUN_OK(b, "SpaceToBatchND", s2b, {x}, {{DataType::kFloat32, {2, 1, 2, 2}}});
  // batch 0 holds padded rows 0, 2 (input rows -1, 1); batch 1 rows 1, 3 (input 0, 2).
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{0, 0, 3, 4, 1, 2, 5, 6}));
  hal::Attrs b2s;
  b2s.Set("block_shape", I64s{2, 1});
  b2s.Set("crops", I64s{1, 0, 0, 0});
  RUN_OK(back, "BatchToSpaceND", b2s, {b[0]}, {{DataType::kFloat32, {1, 1, 3, 2}}});
  EXPECT_EQ(back[0].as<float>(), x.as<float>());
  auto bad = RunKernel("SpaceToBatchND", s2b, {x}, {{DataType::kFloat32, {2, 1, 3, 2}}});
  EXPECT_TRUE(
      Refused(bad, StatusCode::kInvalidArgument, "input [1,1,3,2] and output [2,1,3,2] do not match the blocks"));
}

}  // namespace
}  // namespace ge::test
