// FusedMatMul (MatMul + bias over the last axis + optional activation) and
// the Gelu post-op of MatMul/Gemm, against a naive double-precision reference.
#include <cmath>

#include "hal/fused_attrs.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

std::vector<float> Values(size_t n, float scale, float offset, size_t seed = 0) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 13 + seed * 5) % 17);
  return v;
}

double GeluRef(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

// rows x k times k x n plus bias, then act.
std::vector<double> Reference(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& bias,
                              int64_t rows, int64_t k, int64_t n, const std::string& act) {
  std::vector<double> y(rows * n);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = bias.empty() ? 0.0 : bias[j];
      for (int64_t p = 0; p < k; ++p) s += static_cast<double>(a[i * k + p]) * b[p * n + j];
      if (act == "Relu") s = std::max(0.0, s);
      if (act == "Gelu") s = GeluRef(s);
      if (act == "Sigmoid") s = 1.0 / (1.0 + std::exp(-s));
      if (act == "Swish") s = s / (1.0 + std::exp(-s));
      y[i * n + j] = s;
    }
  return y;
}

void ExpectClose(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
}

TEST(FusedMatMulKernel, ThreeDimensionalAWithBiasAndActivations) {
  const int64_t b0 = 2, m = 5, k = 7, n = 9;
  const auto a = Values(b0 * m * k, 0.1f, -0.8f), w = Values(k * n, 0.07f, -0.5f, 1), bias = Values(n, 0.2f, -1.f, 2);
  for (const std::string act : {"", "Relu", "Gelu", "Sigmoid", "Swish"}) {
    for (bool const_w : {false, true}) {
      hal::Attrs attrs;
      if (!act.empty()) attrs.Set("activation", act);
      auto out = RunKernel("FusedMatMul", attrs,
                           {HostTensor::F32({b0, m, k}, a), HostTensor::F32({k, n}, w, const_w),
                            HostTensor::F32({n}, bias, const_w)},
                           {hal::TensorInfo{DataType::kFloat32, {b0, m, n}}});
      ASSERT_TRUE(out.ok()) << act << ": " << out.status().message();
      ExpectClose((*out)[0].as<float>(), Reference(a, w, bias, b0 * m, k, n, act), 1e-5);
    }
  }
}

TEST(FusedMatMulKernel, SingleOutputColumn) {
  const int64_t m = 4, k = 3, n = 1;
  const auto a = Values(m * k, 0.3f, -1.f), w = Values(k * n, 0.2f, -0.4f);
  const std::vector<float> bias = {0.25f};
  auto out = RunKernel("FusedMatMul", {},
                       {HostTensor::F32({1, m, k}, a), HostTensor::F32({k, n}, w), HostTensor::F32({n}, bias)},
                       {hal::TensorInfo{DataType::kFloat32, {1, m, n}}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectClose((*out)[0].as<float>(), Reference(a, w, bias, m, k, n, ""), 1e-5);
}

TEST(FusedMatMulKernel, RejectsABatchedBAndAWrongBias) {
  hal::KernelSpec spec;
  spec.op = "FusedMatMul";
  spec.name = "f";
  spec.inputs = {{DataType::kFloat32, {2, 3, 4}}, {DataType::kFloat32, {2, 4, 5}}, {DataType::kFloat32, {5}}};
  spec.outputs = {{DataType::kFloat32, {2, 3, 5}}};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kUnsupported,
                      "FusedMatMul: A [2,3,4] must have rank >= 2 and B [2,4,5] be 2-D"));
  spec.inputs[1].dims = {4, 5};
  EXPECT_TRUE(Cpu().kernels().Supports(spec).ok());
  spec.inputs[2].dims = {4};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kInvalidArgument,
                      "FusedMatMul: bias [4] must have 5 values"));
  spec.inputs[2].dims = {5};
  spec.attrs.Set("activation", std::string("Tanh"));
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kUnsupported,
                      "fused activation 'Tanh' is not supported (Relu, Clip, Sigmoid"));
}

TEST(MatMulGeluPostOp, GemmAndMatMulTakeGelu) {
  const int64_t m = 3, k = 6, n = 4;
  const auto a = Values(m * k, 0.15f, -1.f), w = Values(k * n, 0.1f, -0.6f, 3), c = Values(n, 0.3f, -0.5f, 1);
  hal::Attrs attrs;
  attrs.Set("activation", std::string("Gelu"));
  auto g = RunKernel("Gemm", attrs, {HostTensor::F32({m, k}, a), HostTensor::F32({k, n}, w, true), HostTensor::F32({n}, c)},
                     {hal::TensorInfo{DataType::kFloat32, {m, n}}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  ExpectClose((*g)[0].as<float>(), Reference(a, w, c, m, k, n, "Gelu"), 1e-5);
  auto mm = RunKernel("MatMul", attrs, {HostTensor::F32({m, k}, a), HostTensor::F32({k, n}, w)},
                      {hal::TensorInfo{DataType::kFloat32, {m, n}}});
  ASSERT_TRUE(mm.ok()) << mm.status().message();
  ExpectClose((*mm)[0].as<float>(), Reference(a, w, {}, m, k, n, "Gelu"), 1e-5);
}

// Swish runs as an own pass after the f32 product (activation_loop.h): an
// output large enough to be split over the threads, not a multiple of the
// vector.
TEST(FusedMatMulKernel, LargeSwishOutputAfterThePrimitive) {
  const int64_t m = 67, k = 20, n = 301;
  const auto a = Values(m * k, 0.05f, -0.4f), w = Values(k * n, 0.04f, -0.3f, 2), c = Values(n, 0.3f, -2.5f, 1);
  hal::Attrs attrs;
  attrs.Set("activation", std::string("Swish"));
  auto g = RunKernel("Gemm", attrs, {HostTensor::F32({m, k}, a), HostTensor::F32({k, n}, w, true), HostTensor::F32({n}, c)},
                     {hal::TensorInfo{DataType::kFloat32, {m, n}}});
  ASSERT_TRUE(g.ok()) << g.status().message();
  ExpectClose((*g)[0].as<float>(), Reference(a, w, c, m, k, n, "Swish"), 1e-5);
}

// hal/fused_attrs.h: every kernel taking a fused activation lists what it
// reads (KnownAttrs) and refuses a misspelt activation parameter.
hal::KernelSpec FusedAttrsMatMulSpec(const std::string& op) {
  hal::KernelSpec s;
  s.op = op;
  s.name = "mm";
  s.inputs = {{DataType::kFloat32, {2, 3}}, {DataType::kFloat32, {3, 5}}};
  if (op != "MatMul") s.inputs.push_back({DataType::kFloat32, {5}});
  s.outputs = {{DataType::kFloat32, {2, 5}}};
  return s;
}

TEST(FusedMatMulKernel, MatrixProductsRefuseAMisspeltActivationParameter) {
  for (const std::string op : {"MatMul", "Gemm", "FusedMatMul"}) {
    hal::KernelSpec s = FusedAttrsMatMulSpec(op);
    s.attrs.Set(hal::kAttrActivation, std::string("Relu"));
    EXPECT_TRUE(Cpu().kernels().Supports(s).ok()) << Cpu().kernels().Supports(s).ToString();
    s.attrs.Set("activation_mni", 0.0);
    const Status st = Cpu().kernels().Supports(s);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << op;
    EXPECT_EQ(st.message().rfind("node mm (" + op + "): unknown attribute 'activation_mni' (the " + op +
                                     " kernel reads activation, ",
                                 0),
              0u)
        << st.message();
  }
}

}  // namespace
}  // namespace ge::test
