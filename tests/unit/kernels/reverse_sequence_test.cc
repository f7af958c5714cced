// ReverseSequence with time-major and batch-major layouts, an inner axis,
// and lengths checked at run time.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace reverse_sequence {

hal::Attrs Axes(int64_t batch, int64_t time) {
  hal::Attrs a;
  a.Set("batch_axis", batch);
  a.Set("time_axis", time);
  return a;
}

TEST(ReverseSequenceKernel, TimeMajor) {
  // x [T=4, B=2]: column b is sequence b; lens {4, 2}.
  const auto x = HostTensor::F32({4, 2}, {0, 10, 1, 11, 2, 12, 3, 13});
  RUN_OK(y, "ReverseSequence", Axes(1, 0), {x, HostTensor::I64({2}, {4, 2})}, {{DataType::kFloat32, {4, 2}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{3, 11, 2, 10, 1, 12, 0, 13}));
}

TEST(ReverseSequenceKernel, BatchMajorWithAnInnerAxis) {
  // x [B=2, T=3, 2] int64; lens {1, 3} (i32).
  const auto x = HostTensor::I64({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  RUN_OK(y, "ReverseSequence", Axes(0, 1), {x, HostTensor::Of<int32_t>(DataType::kInt32, {2}, {1, 3})},
         {{DataType::kInt64, {2, 3, 2}}});
  EXPECT_EQ(y[0].as<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 10, 11, 8, 9, 6, 7}));
}

TEST(ReverseSequenceKernel, ALengthBeyondTheStepsIsAnError) {
  auto r = RunKernel("ReverseSequence", Axes(1, 0), {HostTensor::F32({2, 1}, {1, 2}), HostTensor::I64({1}, {3})},
                     {{DataType::kFloat32, {2, 1}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "sequence_lens[0] = 3"));
}

}  // namespace reverse_sequence
}  // namespace ge::test
