// FusedAttention against a naive double-precision reference: operands as
// strided views (perms), with and without a mask (constant or not, and
// broadcasts oneDNN fuses directly or only after expansion), K given as K^T
// or transposed, batch*heads > 1.
#include <cmath>

#include "ge_base/bfloat16.h"
#include "hal/device.h"
#include "hal/fused_attrs.h"
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using Perm = std::vector<int64_t>;

Perm Identity(size_t r) {
  Perm p(r);
  for (size_t i = 0; i < r; ++i) p[i] = static_cast<int64_t>(i);
  return p;
}

dims Strides(const dims& d) {
  dims s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return s;
}

// y = Transpose(x, perm), naively.
std::vector<double> Transpose(const std::vector<double>& x, const dims& xd, const Perm& perm, dims* yd) {
  yd->clear();
  for (int64_t p : perm) yd->push_back(xd[p]);
  const dims xs = Strides(xd), ys = Strides(*yd);
  std::vector<double> y(x.size());
  for (int64_t i = 0; i < static_cast<int64_t>(y.size()); ++i) {
    int64_t off = 0;
    for (size_t j = 0; j < perm.size(); ++j) off += (i / ys[j]) % (*yd)[j] * xs[perm[j]];
    y[i] = x[off];
  }
  return y;
}

struct Case {
  dims q, k, v;                 // as given
  Perm q_perm, k_perm, v_perm, out_perm;
  float scale = 1.0f;
  dims mask;                    // empty: no mask
  bool mask_const = false;
};

std::vector<double> AsDouble(const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); }

// softmax(scale * Q' K' + mask) V', stored through out_perm.
std::vector<double> Reference(const Case& c, const std::vector<float>& q, const std::vector<float>& k,
                              const std::vector<float>& v, const std::vector<float>& mask, dims* out_dims) {
  dims ql, kl, vl;
  const auto Q = Transpose(AsDouble(q), c.q, c.q_perm, &ql);
  const auto K = Transpose(AsDouble(k), c.k, c.k_perm, &kl);
  const auto V = Transpose(AsDouble(v), c.v, c.v_perm, &vl);
  const size_t r = ql.size();
  const int64_t sq = ql[r - 2], d = ql[r - 1], sk = kl[r - 1], dv = vl[r - 1];
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < r; ++i) batch *= ql[i];
  dims sd(ql.begin(), ql.end() - 1);
  sd.push_back(sk);
  dims md(r - c.mask.size(), 1);
  md.insert(md.end(), c.mask.begin(), c.mask.end());
  const dims ms = Strides(md), ss = Strides(sd);
  dims ol(ql.begin(), ql.end() - 1);
  ol.push_back(dv);
  std::vector<double> o(batch * sq * dv);
  std::vector<double> row(sk);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < sq; ++i) {
      double mx = -1e300;
      for (int64_t j = 0; j < sk; ++j) {
        double s = 0;
        for (int64_t p = 0; p < d; ++p) s += Q[(b * sq + i) * d + p] * K[(b * d + p) * sk + j];
        s *= c.scale;
        if (!c.mask.empty()) {
          const int64_t flat = (b * sq + i) * sk + j;
          int64_t off = 0;
          for (size_t a = 0; a < r; ++a)
            if (md[a] != 1) off += (flat / ss[a]) % sd[a] * ms[a];
          s += mask[off];
        }
        row[j] = s;
        mx = std::max(mx, s);
      }
      double sum = 0;
      for (double& x : row) sum += (x = std::exp(x - mx));
      for (int64_t e = 0; e < dv; ++e) {
        double acc = 0;
        for (int64_t j = 0; j < sk; ++j) acc += row[j] / sum * V[(b * sk + j) * dv + e];
        o[(b * sq + i) * dv + e] = acc;
      }
    }
  return Transpose(o, ol, c.out_perm, out_dims);
}

hal::Attrs AttrsOf(const Case& c) {
  hal::Attrs a;
  a.Set("scale", static_cast<double>(c.scale));
  a.Set("q_perm", c.q_perm);
  a.Set("k_perm", c.k_perm);
  a.Set("v_perm", c.v_perm);
  a.Set("out_perm", c.out_perm);
  return a;
}

void Check(const Case& c) {
  const auto q = Random(Count(c.q), 1), k = Random(Count(c.k), 2), v = Random(Count(c.v), 3);
  const auto mask = Random(Count(c.mask), 4, -3.f, 1.f);
  dims out_dims;
  const auto want = Reference(c, q, k, v, mask, &out_dims);
  std::vector<HostTensor> in = {HostTensor::F32(c.q, q), HostTensor::F32(c.k, k), HostTensor::F32(c.v, v)};
  if (!c.mask.empty()) in.push_back(HostTensor::F32(c.mask, mask, c.mask_const));
  auto out = RunKernel("FusedAttention", AttrsOf(c), in, {hal::TensorInfo{DataType::kFloat32, out_dims}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const auto got = (*out)[0].as<float>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << "at " << i;
}

std::vector<float> RoundToBf16(std::vector<float> v) {
  for (float& x : v) x = BFloat16ToFloat(FloatToBFloat16(x));
  return v;
}

HostTensor Bf16Of(const dims& d, const std::vector<float>& v) {
  std::vector<uint16_t> bits(v.size());
  for (size_t i = 0; i < v.size(); ++i) bits[i] = FloatToBFloat16(v[i]);
  return HostTensor::Of(DataType::kBFloat16, d, bits);
}

// bf16 Q, K, V (allow_mix_precision): against the reference on the same
// rounded operands, the only errors left are the probabilities rounded to
// bf16 for the second matmul and, for a bf16 output, the output's rounding.
TEST(FusedAttentionKernel, Bf16OperandsWithF32Scores) {
  auto dev = hal::GetDevice("");
  if (!dev.ok() || !(*dev)->capabilities().bf16) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX)";
  Case c;
  c.q = c.k = c.v = {2, 6, 3, 8};
  c.q_perm = c.v_perm = c.out_perm = {0, 2, 1, 3};
  c.k_perm = {0, 2, 3, 1};
  c.scale = 1.0f / std::sqrt(8.0f);
  c.mask = {6, 6};
  const auto q = RoundToBf16(Random(Count(c.q), 1)), k = RoundToBf16(Random(Count(c.k), 2)),
             v = RoundToBf16(Random(Count(c.v), 3));
  const auto mask = Random(Count(c.mask), 4, -3.f, 1.f);
  dims out_dims;
  const auto want = Reference(c, q, k, v, mask, &out_dims);
  for (DataType out_t : {DataType::kFloat32, DataType::kBFloat16}) {
    SCOPED_TRACE(out_t == DataType::kFloat32 ? "f32 output" : "bf16 output");
    auto out = RunKernel("FusedAttention", AttrsOf(c),
                         {Bf16Of(c.q, q), Bf16Of(c.k, k), Bf16Of(c.v, v), HostTensor::F32(c.mask, mask)},
                         {hal::TensorInfo{out_t, out_dims}});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    std::vector<float> got;
    if (out_t == DataType::kFloat32) {
      got = (*out)[0].as<float>();
    } else {
      for (uint16_t b : (*out)[0].as<uint16_t>()) got.push_back(BFloat16ToFloat(b));
    }
    ASSERT_EQ(got.size(), want.size());
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-2 * (1 + std::abs(want[i]))) << "at " << i;
      worst = std::max(worst, std::abs(got[i] - want[i]));
    }
    EXPECT_GT(worst, 0.0) << "bf16 probabilities cannot reproduce the double reference exactly";
  }
}

// Plain [G, S, D] operands; K as K^T [G, D, Sk] (identity perm) or as
// [G, Sk, D] with k_perm [0,2,1].
TEST(FusedAttentionKernel, PlainOperandsWithKGivenEitherWay) {
  for (int64_t g : {1, 3}) {
    for (bool k_transposed : {false, true}) {
      Case c;
      c.q = {g, 5, 8};
      c.k = k_transposed ? dims{g, 7, 8} : dims{g, 8, 7};
      c.v = {g, 7, 6};
      c.q_perm = c.v_perm = c.out_perm = Identity(3);
      c.k_perm = k_transposed ? Perm{0, 2, 1} : Identity(3);
      c.scale = 0.35f;
      SCOPED_TRACE("g=" + std::to_string(g) + " k_transposed=" + std::to_string(k_transposed));
      Check(c);
    }
  }
}

// nn.MultiheadAttention: [S, B*H, D] read through [1,0,2] / [1,2,0], the
// result written back as [S, B*H, Dv].
TEST(FusedAttentionKernel, MultiheadLayoutThroughPerms) {
  Case c;
  c.q = c.k = c.v = {9, 4, 8};
  c.q_perm = c.v_perm = c.out_perm = {1, 0, 2};
  c.k_perm = {1, 2, 0};
  c.scale = 1.0f / std::sqrt(8.0f);
  Check(c);
}

// GPT/BERT: [B, S, H, D] through [0,2,1,3] / [0,2,3,1], with the masks
// models carry: a causal [Sq, Sk], a padding [B, 1, 1, Sk], a full one, a
// [B, 1, Sq, Sk] (oneDNN fuses it only after expansion), each constant or not.
TEST(FusedAttentionKernel, FourDimensionalLayoutWithMasks) {
  const int64_t b = 2, s = 6, h = 3, d = 4;
  for (const dims& mask : {dims{}, dims{s, s}, dims{b, 1, 1, s}, dims{b, h, s, s}, dims{b, 1, s, s}}) {
    for (bool mask_const : {false, true}) {
      Case c;
      c.q = c.k = c.v = {b, s, h, d};
      c.q_perm = c.v_perm = c.out_perm = {0, 2, 1, 3};
      c.k_perm = {0, 2, 3, 1};
      c.scale = 0.5f;
      c.mask = mask;
      c.mask_const = mask_const;
      SCOPED_TRACE("mask " + ::testing::PrintToString(mask) + (mask_const ? " const" : ""));
      Check(c);
    }
  }
}

// Cross attention: Sq != Sk and D != Dv, with the result left in its
// logical layout.
TEST(FusedAttentionKernel, DifferentQueryAndKeyLengths) {
  Case c;
  c.q = {2, 3, 16};
  c.k = {2, 11, 16};
  c.v = {2, 11, 5};
  c.q_perm = c.v_perm = c.out_perm = Identity(3);
  c.k_perm = {0, 2, 1};
  c.mask = {1, 11};
  c.scale = 0.25f;
  Check(c);
}

TEST(FusedAttentionKernel, RejectsMismatchedOperandsAndBadPerms) {
  const auto f = [](dims d) { return HostTensor::F32(d, std::vector<float>(Count(d), 0.f)); };
  const hal::TensorInfo out{DataType::kFloat32, {2, 5, 8}};
  // Q' [2,5,8] x K' [2,7,7]: inner dims differ.
  EXPECT_TRUE(Refused(RunKernel("FusedAttention", {}, {f({2, 5, 8}), f({2, 7, 7}), f({2, 7, 8})}, {out}),
                      StatusCode::kInvalidArgument,
                      "FusedAttention: Q' [2,5,8], K' [2,7,7], V' [2,7,8] and the output'"));
  // Batch dims differ.
  EXPECT_TRUE(Refused(RunKernel("FusedAttention", {}, {f({2, 5, 8}), f({3, 8, 7}), f({2, 7, 8})}, {out}),
                      StatusCode::kInvalidArgument,
                      "FusedAttention: Q' [2,5,8], K' [3,8,7], V' [2,7,8] and the output'"));
  // Not a permutation.
  EXPECT_TRUE(Refused(
      RunKernel("FusedAttention", Attr("q_perm", dims{0, 0, 2}), {f({2, 5, 8}), f({2, 8, 7}), f({2, 7, 8})}, {out}),
      StatusCode::kInvalidArgument, "FusedAttention: q_perm [0,0,2] is not a permutation"));
  // A mask that does not broadcast to the scores [2,5,7].
  EXPECT_TRUE(Refused(RunKernel("FusedAttention", {}, {f({2, 5, 8}), f({2, 8, 7}), f({2, 7, 8}), f({5, 5})}, {out}),
                      StatusCode::kInvalidArgument,
                      "FusedAttention: mask [5,5] does not broadcast to the scores [2,5,7]"));
  EXPECT_TRUE(RunKernel("FusedAttention", {}, {f({2, 5, 8}), f({2, 8, 7}), f({2, 7, 8}), f({5, 7})}, {out}).ok());
}

// An activation fused into attention would be dropped: it is refused, as is
// a misspelt attribute (hal/fused_attrs.h).
TEST(FusedAttentionKernel, RefusesAttributesItDoesNotRead) {
  const auto f = [](dims d) { return HostTensor::F32(d, std::vector<float>(Count(d), 0.f)); };
  const hal::TensorInfo out{DataType::kFloat32, {2, 5, 8}};
  const std::vector<HostTensor> in = {f({2, 5, 8}), f({2, 8, 7}), f({2, 7, 8})};
  ASSERT_TRUE(RunKernel("FusedAttention", Attr("scale", 0.5f), in, {out}).ok());
  EXPECT_TRUE(Refused(RunKernel("FusedAttention", Attr("scael", 0.5f), in, {out}), StatusCode::kInvalidArgument,
                      "unknown attribute 'scael' (the FusedAttention kernel reads k_perm, out_perm, q_perm, scale, "
                      "v_perm)"));
  EXPECT_TRUE(Refused(RunKernel("FusedAttention", Attr(hal::kAttrActivation, std::string("Relu")), in, {out}),
                      StatusCode::kInvalidArgument, "unknown attribute 'activation' (the FusedAttention kernel"));
}

}  // namespace
}  // namespace ge::test
