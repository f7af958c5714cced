// Softmax / LogSoftmax vs naive loops, opset 13 (one axis) and opset < 13
// (flatten to 2-D at axis) semantics.
#include <cmath>
#include <optional>
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

std::vector<float> Wide(size_t n, uint32_t seed) { return Random(n, seed, -3.0f, 3.0f); }

int64_t CountRange(const dims& d, size_t b, size_t e = SIZE_MAX) {
  int64_t n = 1;
  for (size_t i = b; i < std::min(e, d.size()); ++i) n *= d[i];
  return n;
}

// Softmax over the `n` elements at stride `inner` for each (outer, inner).
std::vector<float> RefSoftmax(const std::vector<float>& x, int64_t outer, int64_t n, int64_t inner, bool log) {
  std::vector<float> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t i) { return (o * n + i) * inner + in; };
      double mx = -1e30, sum = 0;
      for (int64_t i = 0; i < n; ++i) mx = std::max(mx, double(x[at(i)]));
      for (int64_t i = 0; i < n; ++i) sum += std::exp(x[at(i)] - mx);
      for (int64_t i = 0; i < n; ++i)
        y[at(i)] = static_cast<float>(log ? x[at(i)] - mx - std::log(sum) : std::exp(x[at(i)] - mx) / sum);
    }
  return y;
}

Result<std::vector<float>> RunSoftmax(const std::string& op, const dims& xd, const std::vector<float>& x, int64_t opset,
                                      std::optional<int64_t> axis) {
  hal::Attrs a;
  if (opset) a.Set("_opset", opset);
  if (axis) a.Set("axis", *axis);
  GE_ASSIGN_OR_RETURN(auto out, RunKernel(op, a, {HostTensor::F32(xd, x)}, {{DataType::kFloat32, xd}}));
  return out[0].as<float>();
}

TEST(SoftmaxKernel, HandComputed) {
  auto y = RunSoftmax("Softmax", {1, 3}, {1, 2, 3}, 0, std::nullopt);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  ExpectNear(*y, {float(std::exp(1.0) / s), float(std::exp(2.0) / s), float(std::exp(3.0) / s)}, 1e-5f);
}

TEST(SoftmaxKernel, Opset13EveryAxis) {
  const dims xd = {2, 3, 4};
  auto x = Wide(24, 1);
  for (int64_t axis : {0, 1, 2, -1, -3}) {
    const int64_t ax = axis < 0 ? axis + 3 : axis;
    auto y = RunSoftmax("Softmax", xd, x, 13, axis);
    ASSERT_TRUE(y.ok()) << y.status().ToString();
    ExpectNear(*y, RefSoftmax(x, CountRange(xd, 0, ax), xd[ax], CountRange(xd, ax + 1), false), 1e-5f);
  }
}

TEST(SoftmaxKernel, Opset13DefaultIsLastAxis) {
  const dims xd = {3, 2, 5};
  auto x = Wide(30, 2);
  auto y = RunSoftmax("Softmax", xd, x, 0, std::nullopt);  // no _opset: 13 semantics
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 6, 5, 1, false), 1e-5f);
}

TEST(SoftmaxKernel, Opset11FlattensAtAxis) {
  const dims xd = {2, 3, 4};
  auto x = Wide(24, 3);
  auto y11 = RunSoftmax("Softmax", xd, x, 11, 1);
  ASSERT_TRUE(y11.ok()) << y11.status().ToString();
  ExpectNear(*y11, RefSoftmax(x, 2, 12, 1, false), 1e-5f);  // rows of 12
  auto y13 = RunSoftmax("Softmax", xd, x, 13, 1);
  ASSERT_TRUE(y13.ok());
  EXPECT_GT(std::abs((*y13)[0] - (*y11)[0]), 1e-3f) << "opset 13 axis 1 must differ from opset 11";
}

TEST(SoftmaxKernel, Opset11DefaultAxisIsOne) {
  const dims xd = {2, 2, 3, 2};
  auto x = Wide(24, 4);
  auto y = RunSoftmax("Softmax", xd, x, 11, std::nullopt);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 2, 12, 1, false), 1e-5f);
}

TEST(SoftmaxKernel, Opset11AxisZeroIsWholeTensor) {
  auto x = Wide(12, 5);
  auto y = RunSoftmax("Softmax", {3, 4}, x, 11, 0);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 1, 12, 1, false), 1e-5f);
}

TEST(SoftmaxKernel, AttentionScores) {
  const dims xd = {1, 4, 16, 16};
  auto x = Wide(Count(xd), 6);
  auto y = RunSoftmax("Softmax", xd, x, 13, -1);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 64, 16, 1, false), 1e-5f);
}

TEST(LogSoftmaxKernel, Opset13MiddleAxis) {
  const dims xd = {2, 5, 3};
  auto x = Wide(30, 7);
  auto y = RunSoftmax("LogSoftmax", xd, x, 13, 1);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 2, 5, 3, true), 1e-5f);
}

TEST(LogSoftmaxKernel, Opset11) {
  const dims xd = {2, 5, 3};
  auto x = Wide(30, 8);
  auto y = RunSoftmax("LogSoftmax", xd, x, 11, 1);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ExpectNear(*y, RefSoftmax(x, 2, 15, 1, true), 1e-5f);
}

TEST(SoftmaxKernel, RejectsAxisOutOfRange) {
  hal::KernelSpec s;
  s.op = "Softmax";
  s.name = "sm";
  s.attrs.Set("axis", int64_t{3});
  s.inputs = {{DataType::kFloat32, {2, 3, 4}}};
  s.outputs = {{DataType::kFloat32, {2, 3, 4}}};
  EXPECT_TRUE(
      Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument, "Softmax: axis 3 out of range for rank 3"));
  s.attrs.Set("axis", int64_t{-4});
  EXPECT_TRUE(
      Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument, "Softmax: axis -4 out of range for rank 3"));
  s.attrs.Set("axis", int64_t{-3});
  EXPECT_TRUE(Cpu().kernels().Supports(s).ok());
}

TEST(SoftmaxKernel, RejectsF16) {
  hal::KernelSpec s;
  s.op = "Softmax";
  s.name = "sm";
  s.inputs = {{DataType::kFloat16, {2, 3}}};
  s.outputs = {{DataType::kFloat16, {2, 3}}};
  EXPECT_TRUE(
      Refused(Cpu().kernels().Supports(s), StatusCode::kUnsupported, "Softmax: input 0 is f16, only f32 is supported"));
}

}  // namespace
}  // namespace ge::test
