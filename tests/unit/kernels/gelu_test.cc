// Gelu (erf form, and the tanh approximation) against std::erf / std::tanh in
// double, over a range that covers the tails, on sizes that are not a
// multiple of the vector width.
#include <cmath>

#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(GeluKernel, ErfFormMatchesTheDefinition) {
  for (int64_t n : {1, 7, 8, 17, 1000}) {
    std::vector<float> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = -8.f + 16.f * static_cast<float>(i) / static_cast<float>(std::max<int64_t>(n - 1, 1));
    auto out = RunKernel("Gelu", {}, {HostTensor::F32({n}, x)}, {hal::TensorInfo{DataType::kFloat32, {n}}});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const auto y = (*out)[0].as<float>();
    for (int64_t i = 0; i < n; ++i) {
      const double r = 0.5 * x[i] * (1.0 + std::erf(x[i] / std::sqrt(2.0)));
      EXPECT_NEAR(y[i], r, 2e-6 * (1 + std::abs(r))) << "x=" << x[i];
    }
  }
}

TEST(GeluKernel, TanhApproximation) {
  const int64_t n = 33;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = -4.f + 0.25f * static_cast<float>(i);
  hal::Attrs attrs;
  attrs.Set("approximate", std::string("tanh"));
  auto out = RunKernel("Gelu", attrs, {HostTensor::F32({n}, x)}, {hal::TensorInfo{DataType::kFloat32, {n}}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const auto y = (*out)[0].as<float>();
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    const double r = 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
    EXPECT_NEAR(y[i], r, 2e-6 * (1 + std::abs(r))) << "x=" << v;
  }
}

}  // namespace
}  // namespace ge::test
