// LRN (ONNX's channel window, even sizes lean right) and
// MeanVarianceNormalization (default and given axes), on values worked out
// by hand.
#include <cmath>

#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace local_norm {

hal::Attrs Lrn(int64_t size, double alpha, double beta) {
  hal::Attrs a;
  a.Set("size", size);
  a.Set("alpha", alpha);
  a.Set("beta", beta);
  a.Set("bias", 1.0);
  return a;
}

TEST(LrnKernel, OddAndEvenWindows) {
  const auto x = HostTensor::F32({1, 3, 1, 1}, {1, 2, 3});
  // size 3 (one channel each side), alpha/size = 0.1: sums 5, 14, 13.
  RUN_OK(odd, "LRN", Lrn(3, 0.3, 1.0), {x}, {{DataType::kFloat32, {1, 3, 1, 1}}});
  ExpectNear(odd[0].as<float>(), {1 / 1.5f, 2 / 2.4f, 3 / 2.3f});
  // size 2: the channel and the next one; sums 5, 13, 9; beta 0.75.
  RUN_OK(even, "LRN", Lrn(2, 0.2, 0.75), {x}, {{DataType::kFloat32, {1, 3, 1, 1}}});
  ExpectNear(even[0].as<float>(), {1 / std::pow(1.5f, 0.75f), 2 / std::pow(2.3f, 0.75f), 3 / std::pow(1.9f, 0.75f)});
}

TEST(LrnKernel, SpatialPositionsAreIndependent) {
  // [1,2,1,2]: channel sums per position: (1+9, 4+16); size 2 -> channel 0 sees both, channel 1 itself.
  RUN_OK(y, "LRN", Lrn(2, 0.2, 1.0), {HostTensor::F32({1, 2, 1, 2}, {1, 2, 3, 4})}, {{DataType::kFloat32, {1, 2, 1, 2}}});
  ExpectNear(y[0].as<float>(), {1 / 2.0f, 2 / 3.0f, 3 / 1.9f, 4 / 2.6f});
}

TEST(MvnKernel, DefaultAxesAndLastAxis) {
  const auto x = HostTensor::F32({2, 1, 1, 2}, {1, 3, 5, 7});
  RUN_OK(all, "MeanVarianceNormalization", {}, {x}, {{DataType::kFloat32, {2, 1, 1, 2}}});
  const float s = std::sqrt(5.0f);  // mean 4, E[x^2] 21
  ExpectNear(all[0].as<float>(), {-3 / s, -1 / s, 1 / s, 3 / s});
  hal::Attrs last;
  last.Set("axes", std::vector<int64_t>{-1});
  RUN_OK(rows, "MeanVarianceNormalization", last, {x}, {{DataType::kFloat32, {2, 1, 1, 2}}});
  ExpectNear(rows[0].as<float>(), {-1, 1, -1, 1});
}

TEST(MvnKernel, ConstantSlicesGiveZerosNotNaN) {
  hal::Attrs last;
  last.Set("axes", std::vector<int64_t>{1});
  RUN_OK(y, "MeanVarianceNormalization", last, {HostTensor::F32({2, 2}, {3, 3, 1, 2})}, {{DataType::kFloat32, {2, 2}}});
  ExpectNear(y[0].as<float>(), {0, 0, -1, 1});
}

}  // namespace local_norm
}  // namespace ge::test
