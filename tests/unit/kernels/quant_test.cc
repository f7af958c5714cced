// QuantizeLinear (rounding half to even, saturation, per axis),
// DequantizeLinear, DynamicQuantizeLinear, and the integer products
// MatMulInteger, QLinearMatMul, ConvInteger and QLinearConv on ONNX's
// examples and hand-computed ones.
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

HostTensor U8(dims d, const std::vector<uint8_t>& v) {
  return HostTensor::Of<uint8_t>(DataType::kUInt8, std::move(d), v);
}
HostTensor S8(dims d, const std::vector<int8_t>& v) { return HostTensor::Of<int8_t>(DataType::kInt8, std::move(d), v); }

TEST(QuantizeLinearKernel, RoundsHalfToEvenAndSaturates) {
  RUN_OK(q, "QuantizeLinear", {},
         {HostTensor::F32({6}, {0, 2, 3, 1000, -254, -1000}), HostTensor::F32({}, {2}), U8({}, {128})},
         {{DataType::kUInt8, {6}}});
  EXPECT_EQ(q[0].as<uint8_t>(), (std::vector<uint8_t>{128, 129, 130, 255, 1, 0}));
  // Per axis 1, int8: channel 0 scale 1 zp 0, channel 1 scale 2 zp -1.
  RUN_OK(a, "QuantizeLinear", {},
         {HostTensor::F32({1, 2, 2}, {1.5f, 2.5f, -3, 300}), HostTensor::F32({2}, {1, 2}), S8({2}, {0, -1})},
         {{DataType::kInt8, {1, 2, 2}}});
  EXPECT_EQ(a[0].as<int8_t>(), (std::vector<int8_t>{2, 2, -3, 127}));
  // Without a zero point: uint8 around 0.
  RUN_OK(u, "QuantizeLinear", {}, {HostTensor::F32({2}, {-1, 0.5f}), HostTensor::F32({}, {1})},
         {{DataType::kUInt8, {2}}});
  EXPECT_EQ(u[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0}));
  auto bad = RunKernel("QuantizeLinear", {}, {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({3}, {1, 2, 3})},
                       {{DataType::kUInt8, {1, 2}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "scale [3] must hold one value or 2"));
}

TEST(DequantizeLinearKernel, PerTensorAndPerAxis) {
  RUN_OK(d, "DequantizeLinear", {}, {U8({4}, {0, 3, 128, 255}), HostTensor::F32({}, {2}), U8({}, {128})},
         {{DataType::kFloat32, {4}}});
  EXPECT_EQ(d[0].as<float>(), (std::vector<float>{-256, -250, 0, 254}));
  RUN_OK(a, "DequantizeLinear", {}, {S8({1, 2, 1}, {-4, 4}), HostTensor::F32({2}, {0.5f, 2}), S8({2}, {0, 1})},
         {{DataType::kFloat32, {1, 2, 1}}});
  EXPECT_EQ(a[0].as<float>(), (std::vector<float>{-2, 6}));
}

TEST(DynamicQuantizeLinearKernel, OnnxExample) {
  RUN_OK(d, "DynamicQuantizeLinear", {}, {HostTensor::F32({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})},
         {{DataType::kUInt8, {6}}, {DataType::kFloat32, {}}, {DataType::kUInt8, {}}});
  EXPECT_EQ(d[0].as<uint8_t>(), (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));
  EXPECT_FLOAT_EQ(d[1].as<float>()[0], 5.0f / 255.0f);
  EXPECT_EQ(d[2].as<uint8_t>()[0], 153);
  RUN_OK(z, "DynamicQuantizeLinear", {}, {HostTensor::F32({2}, {0, 0})},
         {{DataType::kUInt8, {2}}, {DataType::kFloat32, {}}, {DataType::kUInt8, {}}});
  EXPECT_EQ(z[0].as<uint8_t>(), (std::vector<uint8_t>{0, 0}));
}

TEST(MatMulIntegerKernel, OnnxExampleAndBatches) {
  RUN_OK(
      y, "MatMulInteger", {},
      {U8({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}), U8({3, 2}, {1, 4, 2, 5, 3, 6}), U8({}, {12}), U8({}, {0})},
      {{DataType::kInt32, {4, 2}}});
  EXPECT_EQ(y[0].as<int32_t>(), (std::vector<int32_t>{-38, -83, -44, -98, -50, -113, -56, -128}));
  // B broadcast over A's batch; int8 B with a zero point per column.
  RUN_OK(b, "MatMulInteger", {},
         {U8({2, 1, 2}, {1, 2, 3, 4}), S8({2, 2}, {1, -1, 2, 0}), HostTensor::Absent(), S8({2}, {0, -1})},
         {{DataType::kInt32, {2, 1, 2}}});
  EXPECT_EQ(b[0].as<int32_t>(), (std::vector<int32_t>{5, 2, 11, 4}));
}

// The oneDNN int8 path (B 2-D, one zero point each) against the formula, on
// sizes its blocking does not divide, for every A/B dtype pair, B constant
// (packed at creation) or not, batch dims folded into A's rows.
TEST(MatMulIntegerKernel, Int8GemmMatchesTheFormulaForEveryDtypePair) {
  const int64_t batch = 2, m = 5, k = 37, n = 19;
  std::mt19937 rng(7);
  auto bytes = [&](int64_t count) {
    std::vector<uint8_t> v(static_cast<size_t>(count));
    for (auto& x : v) x = static_cast<uint8_t>(rng());
    return v;
  };
  for (bool a_signed : {false, true})
    for (bool b_signed : {false, true})
      for (bool b_const : {false, true}) {
        SCOPED_TRACE(std::string(a_signed ? "s8" : "u8") + " x " + (b_signed ? "s8" : "u8") + (b_const ? " const" : ""));
        const auto a = bytes(batch * m * k), b = bytes(k * n);
        const uint8_t a_zp = 131, b_zp = 77;
        auto value = [](uint8_t byte, bool sgn) { return sgn ? int32_t{static_cast<int8_t>(byte)} : int32_t{byte}; };
        std::vector<int32_t> want(static_cast<size_t>(batch * m * n), 0);
        for (int64_t r = 0; r < batch * m; ++r)
          for (int64_t j = 0; j < n; ++j)
            for (int64_t t = 0; t < k; ++t)
              want[r * n + j] += (value(a[r * k + t], a_signed) - value(a_zp, a_signed)) *
                                 (value(b[t * n + j], b_signed) - value(b_zp, b_signed));
        const DataType at = a_signed ? DataType::kInt8 : DataType::kUInt8;
        const DataType bt = b_signed ? DataType::kInt8 : DataType::kUInt8;
        RUN_OK(y, "MatMulInteger", {},
               {HostTensor::Of(at, {batch, m, k}, a), HostTensor::Of(bt, {k, n}, b, b_const),
                HostTensor::Of(at, {}, std::vector<uint8_t>{a_zp}), HostTensor::Of(bt, {1}, std::vector<uint8_t>{b_zp})},
               {{DataType::kInt32, {batch, m, n}}});
        EXPECT_EQ(y[0].as<int32_t>(), want);
      }
}

TEST(QLinearMatMulKernel, Requantizes) {
  // acc = 2*(3-1) + 4*(1-1) = 4; 4 * 0.5 * 1 / 0.25 = 8; + 10.
  RUN_OK(y, "QLinearMatMul", {},
         {U8({1, 2}, {2, 4}), HostTensor::F32({}, {0.5f}), U8({}, {0}), U8({2, 1}, {3, 1}), HostTensor::F32({1}, {1}),
          U8({1}, {1}), HostTensor::F32({}, {0.25f}), U8({}, {10})},
         {{DataType::kUInt8, {1, 1}}});
  EXPECT_EQ(y[0].as<uint8_t>(), (std::vector<uint8_t>{18}));
}

// The oneDNN int8 path (neutral weight zero point: i8 with 0, u8 with 128)
// against the formula, with pads (which contribute nothing), stride 2 and
// two groups, for u8 and i8 x, constant weights or not.
TEST(ConvIntegerKernel, Int8ConvMatchesTheFormulaWithPadsStridesAndGroups) {
  const int64_t n = 2, c = 4, h = 7, w = 6, m = 6, group = 2, k = 3, stride = 2, pad = 1;
  const int64_t oh = (h + 2 * pad - k) / stride + 1, ow = (w + 2 * pad - k) / stride + 1, cg = c / group, mg = m / group;
  std::mt19937 rng(11);
  auto bytes = [&](int64_t count) {
    std::vector<uint8_t> v(static_cast<size_t>(count));
    for (auto& x : v) x = static_cast<uint8_t>(rng());
    return v;
  };
  auto value = [](uint8_t byte, bool sgn) { return sgn ? int32_t{static_cast<int8_t>(byte)} : int32_t{byte}; };
  hal::Attrs attrs = Attr("pads", std::vector<int64_t>{pad, pad, pad, pad});
  attrs.Set("strides", std::vector<int64_t>{stride, stride});
  attrs.Set("group", group);
  for (bool x_signed : {false, true})
    for (bool w_signed : {false, true})
      for (bool w_const : {false, true}) {
        SCOPED_TRACE(std::string(x_signed ? "s8" : "u8") + " x " + (w_signed ? "s8" : "u8") + (w_const ? " const" : ""));
        const auto x = bytes(n * c * h * w), wt = bytes(m * cg * k * k);
        const uint8_t x_zp = 37, w_zp = w_signed ? 0 : 128;
        std::vector<int32_t> want(static_cast<size_t>(n * m * oh * ow), 0);
        for (int64_t b = 0; b < n; ++b)
          for (int64_t o = 0; o < m; ++o)
            for (int64_t y = 0; y < oh; ++y)
              for (int64_t z = 0; z < ow; ++z) {
                int32_t acc = 0;
                for (int64_t ci = 0; ci < cg; ++ci)
                  for (int64_t ky = 0; ky < k; ++ky)
                    for (int64_t kx = 0; kx < k; ++kx) {
                      const int64_t iy = y * stride - pad + ky, ix = z * stride - pad + kx;
                      if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                      const int64_t chan = (o / mg) * cg + ci;
                      acc += (value(x[((b * c + chan) * h + iy) * w + ix], x_signed) - value(x_zp, x_signed)) *
                             (value(wt[((o * cg + ci) * k + ky) * k + kx], w_signed) - value(w_zp, w_signed));
                    }
                want[((b * m + o) * oh + y) * ow + z] = acc;
              }
        const DataType xt = x_signed ? DataType::kInt8 : DataType::kUInt8;
        const DataType wtt = w_signed ? DataType::kInt8 : DataType::kUInt8;
        RUN_OK(got, "ConvInteger", attrs,
               {HostTensor::Of(xt, {n, c, h, w}, x), HostTensor::Of(wtt, {m, cg, k, k}, wt, w_const),
                HostTensor::Of(xt, {}, std::vector<uint8_t>{x_zp}),
                HostTensor::Of(wtt, {}, std::vector<uint8_t>{w_zp}, /*is_const=*/true)},
               {{DataType::kInt32, {n, m, oh, ow}}});
        EXPECT_EQ(got[0].as<int32_t>(), want);
      }
}

TEST(ConvIntegerKernel, OnnxExampleWithAndWithoutPads) {
  const std::vector<uint8_t> x = {2, 3, 4, 5, 6, 7, 8, 9, 10};
  RUN_OK(y, "ConvInteger", {}, {U8({1, 1, 3, 3}, x), U8({1, 1, 2, 2}, {1, 1, 1, 1}), U8({}, {1})},
         {{DataType::kInt32, {1, 1, 2, 2}}});
  EXPECT_EQ(y[0].as<int32_t>(), (std::vector<int32_t>{12, 16, 24, 28}));
  RUN_OK(p, "ConvInteger", Attr("pads", std::vector<int64_t>{1, 1, 1, 1}),
         {U8({1, 1, 3, 3}, x), U8({1, 1, 2, 2}, {1, 1, 1, 1}), U8({}, {1})}, {{DataType::kInt32, {1, 1, 4, 4}}});
  EXPECT_EQ(p[0].as<int32_t>(), (std::vector<int32_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}));
}

TEST(QLinearConvKernel, RequantizesWithBias) {
  // (x - 10) * (3 - 1) + 1, times 0.5 * 2 / 1, plus 5.
  RUN_OK(y, "QLinearConv", {},
         {U8({1, 1, 2, 2}, {10, 20, 30, 40}), HostTensor::F32({}, {0.5f}), U8({}, {10}), U8({1, 1, 1, 1}, {3}),
          HostTensor::F32({1}, {2}), U8({1}, {1}), HostTensor::F32({}, {1}), U8({}, {5}), I32({1}, {1})},
         {{DataType::kUInt8, {1, 1, 2, 2}}});
  EXPECT_EQ(y[0].as<uint8_t>(), (std::vector<uint8_t>{6, 26, 46, 66}));
}

}  // namespace
}  // namespace ge::test
