// Windows, MelWeightMatrix, DFT and STFT against numpy's formulas on tiny
// inputs.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(WindowKernel, PeriodicAndSymmetric) {
  RUN_OK(h, "HannWindow", {}, {HostTensor::I64({}, {4})}, {{DataType::kFloat32, {4}}});
  ExpectNear(h[0].as<float>(), {0, 0.5f, 1, 0.5f});
  RUN_OK(s, "HannWindow", Attr("periodic", int64_t{0}), {HostTensor::I64({}, {3})}, {{DataType::kFloat32, {3}}});
  ExpectNear(s[0].as<float>(), {0, 1, 0});
  RUN_OK(m, "HammingWindow", {}, {I32({}, {2})}, {{DataType::kFloat64, {2}}});
  EXPECT_NEAR(m[0].as<double>()[0], 4.0 / 46.0, 1e-12);
  EXPECT_NEAR(m[0].as<double>()[1], 1.0, 1e-12);
  RUN_OK(b, "BlackmanWindow", {}, {HostTensor::I64({}, {2})}, {{DataType::kFloat32, {2}}});
  ExpectNear(b[0].as<float>(), {0, 1});
  // The size must be the output's.
  EXPECT_TRUE(Refused(RunKernel("HannWindow", {}, {HostTensor::I64({}, {5})}, {{DataType::kFloat32, {4}}}),
                      StatusCode::kInvalidArgument, "size 5 differs from the output's 4"));
}

TEST(MelWeightMatrixKernel, OnnxExample) {
  RUN_OK(m, "MelWeightMatrix", {},
         {HostTensor::I64({}, {8}), HostTensor::I64({}, {16}), HostTensor::I64({}, {8192}), HostTensor::F32({}, {0}),
          HostTensor::F32({}, {4096})},
         {{DataType::kFloat32, {9, 8}}});
  const auto y = m[0].as<float>();
  // ONNX's expected first rows: 1 1 0 ..., then 0 0 1 1 0 ...
  EXPECT_EQ(std::vector<float>(y.begin(), y.begin() + 8), (std::vector<float>{1, 1, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(std::vector<float>(y.begin() + 8, y.begin() + 16), (std::vector<float>{0, 0, 1, 1, 0, 0, 0, 0}));
}

TEST(DftKernel, ForwardInverseAndOnesided) {
  // x = [1, 2, 3, 4] along axis 1 of [1, 4, 1].
  RUN_OK(f, "DFT", {}, {HostTensor::F32({1, 4, 1}, {1, 2, 3, 4})}, {{DataType::kFloat32, {1, 4, 2}}});
  ExpectNear(f[0].as<float>(), {10, 0, -2, 2, -2, 0, -2, -2});
  RUN_OK(inv, "DFT", Attr("inverse", int64_t{1}), {HostTensor::F32({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2})},
         {{DataType::kFloat32, {1, 4, 2}}});
  ExpectNear(inv[0].as<float>(), {1, 0, 2, 0, 3, 0, 4, 0});
  RUN_OK(one, "DFT", Attr("onesided", int64_t{1}), {HostTensor::F32({1, 4, 1}, {1, 2, 3, 4})},
         {{DataType::kFloat32, {1, 3, 2}}});
  ExpectNear(one[0].as<float>(), {10, 0, -2, 2, -2, 0});
  // dft_length 2 cuts the signal: [1, 2] -> [3, -1].
  RUN_OK(cut, "DFT", {}, {HostTensor::F32({1, 4, 1}, {1, 2, 3, 4}), HostTensor::I64({}, {2})},
         {{DataType::kFloat32, {1, 2, 2}}});
  ExpectNear(cut[0].as<float>(), {3, 0, -1, 0});
}

TEST(StftKernel, FramesWithAndWithoutWindow) {
  // Signal 0..5, frames of 4 every 2: [0..3], [2..5]; onesided bins 0..2.
  const auto sig = HostTensor::F32({1, 6, 1}, Iota(6));
  RUN_OK(y, "STFT", {}, {sig, HostTensor::I64({}, {2}), HostTensor::Absent(), HostTensor::I64({}, {4})},
         {{DataType::kFloat32, {1, 2, 3, 2}}});
  ExpectNear(y[0].as<float>(), {6, 0, -2, 2, -2, 0, 14, 0, -2, 2, -2, 0});
  RUN_OK(w, "STFT", {}, {sig, HostTensor::I64({}, {2}), HostTensor::F32({4}, {0, 1, 0, 0})},
         {{DataType::kFloat32, {1, 2, 3, 2}}});
  // Only sample 1 of each frame: X[k] = x1 e^(-i pi k / 2).
  const float a = 1, b = 3;
  ExpectNear(w[0].as<float>(), {a, 0, 0, -a, -a, 0, b, 0, 0, -b, -b, 0});
}

}  // namespace
}  // namespace ge::test
