// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss on values worked out
// by hand: each reduction, class weights, ignore_index (also negative),
// [N, C, d] scores, log_prob, large scores, f64, and targets out of range.
#include <cmath>
#include <optional>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs LossAttrs(const std::string& reduction, std::optional<int64_t> ignore = std::nullopt) {
  hal::Attrs a = Attr("reduction", reduction);
  if (ignore) a.Set("ignore_index", *ignore);
  return a;
}

// x = [[-1,-2,-3],[-4,-5,-6]], targets [2, 0]: the picked scores are -3 and -4.
HostTensor X23() { return HostTensor::F32({2, 3}, {-1, -2, -3, -4, -5, -6}); }
HostTensor T2() { return HostTensor::I64({2}, {2, 0}); }
HostTensor W3() { return HostTensor::F32({3}, {1, 2, 3}); }

std::vector<float> Nll(const hal::Attrs& attrs, std::vector<HostTensor> in, dims out) {
  auto r = RunKernel("NegativeLogLikelihoodLoss", attrs, in, {{DataType::kFloat32, out}});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? (*r)[0].as<float>() : std::vector<float>{};
}

TEST(NllLossKernel, Reductions) {
  EXPECT_EQ(Nll(LossAttrs("none"), {X23(), T2()}, {2}), (std::vector<float>{3, 4}));
  EXPECT_EQ(Nll(LossAttrs("sum"), {X23(), T2()}, {}), (std::vector<float>{7}));
  EXPECT_EQ(Nll({}, {X23(), T2()}, {}), (std::vector<float>{3.5f}));  // mean is the default
}

TEST(NllLossKernel, WeightsAndTheMeanDivisor) {
  EXPECT_EQ(Nll(LossAttrs("none"), {X23(), T2(), W3()}, {2}), (std::vector<float>{9, 4}));
  EXPECT_EQ(Nll(LossAttrs("sum"), {X23(), T2(), W3()}, {}), (std::vector<float>{13}));
  // The mean divides by the picked weights, 3 + 1.
  EXPECT_EQ(Nll(LossAttrs("mean"), {X23(), T2(), W3()}, {}), (std::vector<float>{3.25f}));
}

TEST(NllLossKernel, IgnoreIndex) {
  EXPECT_EQ(Nll(LossAttrs("none", 0), {X23(), T2()}, {2}), (std::vector<float>{3, 0}));
  EXPECT_EQ(Nll(LossAttrs("mean", 0), {X23(), T2()}, {}), (std::vector<float>{3}));  // 3 / one target
  EXPECT_EQ(Nll(LossAttrs("mean", 0), {X23(), T2(), W3()}, {}), (std::vector<float>{3}));  // 9 / weight 3
  // Negative ignore_index, on [N, C, d] scores: x[0, c, :] = [-1, -2], [-3, -4].
  const HostTensor x = HostTensor::F32({1, 2, 2}, {-1, -2, -3, -4});
  EXPECT_EQ(Nll(LossAttrs("none"), {x, HostTensor::I64({1, 2}, {1, 0})}, {1, 2}), (std::vector<float>{3, 2}));
  EXPECT_EQ(Nll(LossAttrs("none", -1), {x, HostTensor::I64({1, 2}, {-1, 0})}, {1, 2}), (std::vector<float>{0, 2}));
  EXPECT_EQ(Nll(LossAttrs("mean", -1), {x, I32({1, 2}, {-1, 0})}, {}), (std::vector<float>{2}));
}

TEST(NllLossKernel, Float64) {
  RUN_OK(out, "NegativeLogLikelihoodLoss", LossAttrs("sum"),
         {HostTensor::Of<double>(DataType::kFloat64, {2, 2}, {-0.25, -0.5, -1, -2}), HostTensor::I64({2}, {1, 1}),
          HostTensor::Of<double>(DataType::kFloat64, {2}, {1, 0.5})},
         {{DataType::kFloat64, {}}});
  EXPECT_EQ(out[0].as<double>(), (std::vector<double>{1.25}));
}

TEST(NllLossKernel, TargetsOutOfRangeAreARunTimeError) {
  for (int64_t bad : {3, -1}) {
    auto r = RunKernel("NegativeLogLikelihoodLoss", LossAttrs("sum", 7), {X23(), HostTensor::I64({2}, {0, bad})},
                       {{DataType::kFloat32, {}}});
    ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "is out of range for 3 classes"));
    EXPECT_NE(r.status().message().find("target " + std::to_string(bad) + " is out of range for 3 classes"),
              std::string::npos)
        << r.status().ToString();
  }
}

TEST(NllLossKernel, RejectsMismatchedShapes) {
  auto t = RunKernel("NegativeLogLikelihoodLoss", {}, {X23(), HostTensor::I64({3}, {0, 0, 0})},
                     {{DataType::kFloat32, {}}});
  ASSERT_TRUE(Refused(t, StatusCode::kInvalidArgument, "without dim 1"));
  auto w = RunKernel("NegativeLogLikelihoodLoss", {}, {X23(), T2(), HostTensor::F32({2}, {1, 1})},
                     {{DataType::kFloat32, {}}});
  EXPECT_TRUE(Refused(w, StatusCode::kInvalidArgument, "weight f32[2] must be a f32 vector of the 3 classes"));
}

const float kLn4 = std::log(4.0f), kLn4Over3 = std::log(4.0f / 3.0f);

// Scores [1, 2, 2] whose softmax along C is [1/4, 3/4] at d = 0 and
// [3/4, 1/4] at d = 1: x[0, 0, :] = [0, ln 3], x[0, 1, :] = [ln 3, 0].
HostTensor Scores() {
  const float ln3 = std::log(3.0f);
  return HostTensor::F32({1, 2, 2}, {0, ln3, ln3, 0});
}

TEST(SoftmaxCrossEntropyLossKernel, LossAndLogProb) {
  RUN_OK(out, "SoftmaxCrossEntropyLoss", LossAttrs("none"), {Scores(), HostTensor::I64({1, 2}, {0, 0})},
         {{DataType::kFloat32, {1, 2}}, {DataType::kFloat32, {1, 2, 2}}});
  ExpectNear(out[0].as<float>(), {kLn4, kLn4Over3});
  ExpectNear(out[1].as<float>(), {-kLn4, -kLn4Over3, -kLn4Over3, -kLn4});
  RUN_OK(mean, "SoftmaxCrossEntropyLoss", {}, {Scores(), I32({1, 2}, {0, 0})}, {{DataType::kFloat32, {}}});
  ExpectNear(mean[0].as<float>(), {(kLn4 + kLn4Over3) / 2});
}

TEST(SoftmaxCrossEntropyLossKernel, WeightsAndIgnoreIndex) {
  const HostTensor t = HostTensor::I64({1, 2}, {0, 1}), w = HostTensor::F32({2}, {1, 3});
  RUN_OK(none, "SoftmaxCrossEntropyLoss", LossAttrs("none"), {Scores(), t, w}, {{DataType::kFloat32, {1, 2}}});
  ExpectNear(none[0].as<float>(), {kLn4, 3 * kLn4});
  RUN_OK(mean, "SoftmaxCrossEntropyLoss", LossAttrs("mean"), {Scores(), t, w}, {{DataType::kFloat32, {}}});
  ExpectNear(mean[0].as<float>(), {kLn4});  // (ln 4 + 3 ln 4) / (1 + 3)
  RUN_OK(ii, "SoftmaxCrossEntropyLoss", LossAttrs("mean", 1), {Scores(), t, w}, {{DataType::kFloat32, {}}});
  ExpectNear(ii[0].as<float>(), {kLn4});  // ln 4 / 1
}

TEST(SoftmaxCrossEntropyLossKernel, LargeScoresDoNotOverflow) {
  RUN_OK(out, "SoftmaxCrossEntropyLoss", LossAttrs("none"),
         {HostTensor::F32({2, 2}, {1000, 1000, 1000, 0}), HostTensor::I64({2}, {0, 1})},
         {{DataType::kFloat32, {2}}});
  ExpectNear(out[0].as<float>(), {std::log(2.0f), 1000});
}

TEST(SoftmaxCrossEntropyLossKernel, Float64) {
  RUN_OK(out, "SoftmaxCrossEntropyLoss", LossAttrs("sum"),
         {HostTensor::Of<double>(DataType::kFloat64, {2, 2}, {0, 0, 5, 5}), HostTensor::I64({2}, {0, 1})},
         {{DataType::kFloat64, {}}, {DataType::kFloat64, {2, 2}}});
  EXPECT_NEAR(out[0].as<double>()[0], 2 * std::log(2.0), 1e-12);
  for (double v : out[1].as<double>()) EXPECT_NEAR(v, -std::log(2.0), 1e-12);
}

}  // namespace
}  // namespace ge::test
