// The Sigmoid/Swish loops run after a conv or matmul (activation_loop.h) on every ISA
// this CPU runs, against the formula in double.
#include "kernels/activation_loop.h"

#include <cmath>
#include <limits>

#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using hal::Isa;
using hal::act::Fn;

double Want(Fn f, double x) {
  const double s = 1.0 / (1.0 + std::exp(-x));
  return f == Fn::kSwish ? x * s : s;
}

// Values over the range where the functions bend, and both far ends.
std::vector<float> Sweep(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = -120.0f + 240.0f * static_cast<float>(i) / static_cast<float>(n);
  return x;
}

TEST(ActivationLoop, EveryIsaMatchesTheFormula) {
  // 0, a partial vector, exact vectors plus tails, and a size split over threads.
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{16}, size_t{17}, size_t{40}, size_t{70001}}) {
    const auto x = Sweep(n);
    for (Fn f : {Fn::kSigmoid, Fn::kSwish}) {
      for (Isa isa : hal::AvailableIsas()) {
        std::vector<float> y(n, -7.0f), in_place = x;
        hal::act::Run(f, x.data(), y.data(), static_cast<int64_t>(n), isa);
        hal::act::Run(f, in_place.data(), in_place.data(), static_cast<int64_t>(n), isa);
        for (size_t i = 0; i < n; ++i) {
          const double want = Want(f, x[i]);
          // Relative 1e-6, and absolute where the exact value underflows float.
          ASSERT_NEAR(y[i], want, 1e-6 * std::fabs(want) + 1e-36)
              << hal::IsaName(isa) << (f == Fn::kSwish ? " swish" : " sigmoid") << " x=" << x[i];
          ASSERT_EQ(in_place[i], y[i]) << hal::IsaName(isa) << " in place, x=" << x[i];
        }
      }
    }
  }
}

TEST(ActivationLoop, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, inf, -inf, nan, 1e30f, -1e30f};
  for (Isa isa : hal::AvailableIsas()) {
    std::vector<float> s(x.size()), w(x.size());
    hal::act::Run(Fn::kSigmoid, x.data(), s.data(), static_cast<int64_t>(x.size()), isa);
    hal::act::Run(Fn::kSwish, x.data(), w.data(), static_cast<int64_t>(x.size()), isa);
    EXPECT_EQ(s[0], 0.5f) << hal::IsaName(isa);
    EXPECT_EQ(s[1], 1.0f) << hal::IsaName(isa);
    EXPECT_EQ(s[2], 0.0f) << hal::IsaName(isa);
    EXPECT_TRUE(std::isnan(s[3])) << hal::IsaName(isa);
    EXPECT_EQ(s[4], 1.0f) << hal::IsaName(isa);
    EXPECT_EQ(s[5], 0.0f) << hal::IsaName(isa);
    EXPECT_EQ(w[0], 0.0f) << hal::IsaName(isa);
    EXPECT_EQ(w[1], inf) << hal::IsaName(isa);
    EXPECT_TRUE(std::isnan(w[3])) << hal::IsaName(isa);
    EXPECT_EQ(w[4], 1e30f) << hal::IsaName(isa);
    EXPECT_EQ(w[5], 0.0f) << hal::IsaName(isa);  // -1e30 / inf: -0
  }
}

}  // namespace
}  // namespace ge::test
