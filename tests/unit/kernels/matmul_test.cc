// MatMul and Gemm kernels vs naive loops written here (numpy broadcasting,
// 1-D operands, transposes, alpha/beta, C broadcast).
#include <cmath>
#include <random>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

// numpy.matmul by the book: promote 1-D, broadcast batch dims by index
// arithmetic, drop the promoted dims.
std::pair<dims, std::vector<float>> RefMatMul(const std::vector<float>& a, dims ad, const std::vector<float>& b,
                                              dims bd) {
  const bool a1 = ad.size() == 1, b1 = bd.size() == 1;
  if (a1) ad.insert(ad.begin(), 1);
  if (b1) bd.push_back(1);
  const size_t r = std::max(ad.size(), bd.size());
  while (ad.size() < r) ad.insert(ad.begin(), 1);
  while (bd.size() < r) bd.insert(bd.begin(), 1);
  const int64_t m = ad[r - 2], k = ad[r - 1], n = bd[r - 1];
  dims batch(r - 2);
  for (size_t i = 0; i + 2 < r; ++i) batch[i] = std::max(ad[i], bd[i]);
  const int64_t nb = Count(batch);
  std::vector<float> y(nb * m * n);
  for (int64_t bi = 0; bi < nb; ++bi) {
    // Decompose bi into batch coords, map to A's and B's (index 0 on size 1).
    int64_t rem = bi, aoff = 0, boff = 0, astride = 1, bstride = 1;
    for (size_t i = r - 2; i-- > 0;) {
      const int64_t c = rem % batch[i];
      rem /= batch[i];
      aoff += (ad[i] == 1 ? 0 : c) * astride;
      boff += (bd[i] == 1 ? 0 : c) * bstride;
      astride *= ad[i];
      bstride *= bd[i];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p) acc += double(a[(aoff * m + i) * k + p]) * b[(boff * k + p) * n + j];
        y[(bi * m + i) * n + j] = static_cast<float>(acc);
      }
  }
  dims yd = batch;
  if (!a1) yd.push_back(m);
  if (!b1) yd.push_back(n);
  return {yd, y};
}

void CheckMatMul(const dims& ad, const dims& bd, bool const_b, const std::string& act = "", uint32_t seed = 1) {
  auto a = Random(Count(ad), seed), b = Random(Count(bd), seed + 1);
  auto [yd, want] = RefMatMul(a, ad, b, bd);
  hal::Attrs attrs;
  if (!act.empty()) attrs.Set("activation", act);
  if (act == "Relu")
    for (auto& v : want) v = std::max(v, 0.0f);
  auto out =
      RunKernel("MatMul", attrs, {HostTensor::F32(ad, a), HostTensor::F32(bd, b, const_b)}, {{DataType::kFloat32, yd}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

TEST(MatMulKernel, HandComputed2D) {
  auto out = RunKernel("MatMul", {},
                       {HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::F32({3, 2}, {7, 8, 9, 10, 11, 12})},
                       {{DataType::kFloat32, {2, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {58, 64, 139, 154});
}

TEST(MatMulKernel, Random2DConstAndNot) {
  CheckMatMul({7, 13}, {13, 5}, true);
  CheckMatMul({7, 13}, {13, 5}, false);
}

TEST(MatMulKernel, BertLikeConstWeights) { CheckMatMul({1, 32, 64}, {64, 48}, true); }

TEST(MatMulKernel, BatchedWeights2DWithBatchedA) { CheckMatMul({2, 3, 5, 8}, {8, 6}, false); }

TEST(MatMulKernel, AttentionLike) { CheckMatMul({1, 4, 16, 8}, {1, 4, 8, 16}, false); }

TEST(MatMulKernel, BatchBroadcastBothWays) { CheckMatMul({2, 1, 4, 5}, {3, 5, 6}, false); }

TEST(MatMulKernel, BroadcastA) { CheckMatMul({4, 5}, {2, 5, 3}, true); }

TEST(MatMulKernel, OneDimA) { CheckMatMul({5}, {2, 5, 3}, false); }

TEST(MatMulKernel, OneDimB) { CheckMatMul({2, 4, 5}, {5}, true); }

TEST(MatMulKernel, BothOneDim) {
  auto out = RunKernel("MatMul", {}, {HostTensor::F32({3}, {1, 2, 3}), HostTensor::F32({3}, {4, -5, 6})},
                       {{DataType::kFloat32, {}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {12});
}

TEST(MatMulKernel, FusedRelu) { CheckMatMul({3, 6, 9}, {9, 10}, true, "Relu"); }

// Gemm: Y = alpha * op(A) op(B) + beta * C.
struct GemmCase {
  int64_t m, n, k;
  bool ta = false, tb = false;
  float alpha = 1, beta = 1;
  dims c;  // shape of C; {-1} for no C
  bool const_b = true, const_c = true;
};

void CheckGemm(const GemmCase& g, uint32_t seed = 3) {
  const dims ad = g.ta ? dims{g.k, g.m} : dims{g.m, g.k};
  const dims bd = g.tb ? dims{g.n, g.k} : dims{g.k, g.n};
  const bool has_c = !(g.c.size() == 1 && g.c[0] == -1);
  auto a = Random(Count(ad), seed), b = Random(Count(bd), seed + 1), c = Random(has_c ? Count(g.c) : 0, seed + 2);
  // C right-aligned against [M,N]: a dim of 1 (or missing) broadcasts.
  const int64_t cm = g.c.size() == 2 ? g.c[0] : 1, cn = g.c.empty() ? 1 : g.c.back();
  std::vector<float> want(g.m * g.n);
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < g.k; ++p)
        acc += double(g.ta ? a[p * g.m + i] : a[i * g.k + p]) * (g.tb ? b[j * g.k + p] : b[p * g.n + j]);
      double cv = has_c ? c[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)] : 0.0;
      want[i * g.n + j] = static_cast<float>(g.alpha * acc + g.beta * cv);
    }
  hal::Attrs attrs;
  attrs.Set("transA", int64_t{g.ta});
  attrs.Set("transB", int64_t{g.tb});
  attrs.Set("alpha", double(g.alpha));
  attrs.Set("beta", double(g.beta));
  std::vector<HostTensor> in = {HostTensor::F32(ad, a), HostTensor::F32(bd, b, g.const_b)};
  if (has_c) in.push_back(HostTensor::F32(g.c, c, g.const_c));
  auto out = RunKernel("Gemm", attrs, in, {{DataType::kFloat32, {g.m, g.n}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

TEST(GemmKernel, HandComputedTransBWithBias) {
  // A [1,2], B^T [2,2] (B is [N,K]), C [2].
  hal::Attrs attrs;
  attrs.Set("transB", int64_t{1});
  auto out = RunKernel("Gemm", attrs,
                       {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({2, 2}, {1, 1, 2, -1}, true),
                        HostTensor::F32({2}, {10, 20}, true)},
                       {{DataType::kFloat32, {1, 2}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), {13, 20});
}

TEST(GemmKernel, Plain) { CheckGemm({.m = 5, .n = 7, .k = 9, .c = {5, 7}}); }
TEST(GemmKernel, NoC) { CheckGemm({.m = 4, .n = 6, .k = 3, .c = {-1}}); }
TEST(GemmKernel, TransA) { CheckGemm({.m = 5, .n = 7, .k = 9, .ta = true, .c = {7}}); }
TEST(GemmKernel, TransB) { CheckGemm({.m = 5, .n = 7, .k = 9, .tb = true, .c = {1, 7}}); }
TEST(GemmKernel, TransBothNonConst) {
  CheckGemm({.m = 6, .n = 4, .k = 8, .ta = true, .tb = true, .c = {6, 4}, .const_b = false, .const_c = false});
}
TEST(GemmKernel, AlphaBetaBiasN) { CheckGemm({.m = 3, .n = 8, .k = 5, .alpha = 0.5f, .beta = 2.0f, .c = {8}}); }
TEST(GemmKernel, BetaBiasNNonConst) {
  CheckGemm({.m = 3, .n = 8, .k = 5, .beta = -1.5f, .c = {1, 8}, .const_b = false, .const_c = false});
}
TEST(GemmKernel, CColumn) { CheckGemm({.m = 6, .n = 5, .k = 4, .alpha = 2.0f, .beta = 0.25f, .c = {6, 1}}); }
TEST(GemmKernel, CColumnNonConst) { CheckGemm({.m = 6, .n = 5, .k = 4, .beta = 3.0f, .c = {6, 1}, .const_c = false}); }
TEST(GemmKernel, CScalar) { CheckGemm({.m = 4, .n = 3, .k = 2, .alpha = -1.0f, .beta = 0.5f, .c = {}}); }
TEST(GemmKernel, COneElement) { CheckGemm({.m = 4, .n = 3, .k = 2, .c = {1}}); }
TEST(GemmKernel, CFullAlphaBeta) {
  CheckGemm({.m = 9, .n = 11, .k = 13, .ta = true, .alpha = 0.3f, .beta = 0.7f, .c = {9, 11}, .const_c = false});
}
TEST(GemmKernel, BetaZeroIgnoresC) { CheckGemm({.m = 4, .n = 3, .k = 5, .beta = 0.0f, .c = {4, 3}}); }
TEST(GemmKernel, ClassifierLike) { CheckGemm({.m = 1, .n = 100, .k = 512, .tb = true, .c = {100}}); }

TEST(GemmKernel, FusedRelu) {
  auto a = Random(4 * 6, 5), b = Random(6 * 3, 6);
  std::vector<float> want(4 * 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      double acc = 0;
      for (int p = 0; p < 6; ++p) acc += double(a[i * 6 + p]) * b[p * 3 + j];
      want[i * 3 + j] = std::max(0.0f, static_cast<float>(acc) + 0.1f);
    }
  hal::Attrs attrs;
  attrs.Set("activation", std::string("Relu"));
  auto out = RunKernel(
      "Gemm", attrs,
      {HostTensor::F32({4, 6}, a), HostTensor::F32({6, 3}, b, true), HostTensor::F32({3}, {0.1f, 0.1f, 0.1f}, true)},
      {{DataType::kFloat32, {4, 3}}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectNear((*out)[0].as<float>(), want);
}

hal::KernelSpec Spec(const std::string& op, dims a, dims b, dims y) {
  hal::KernelSpec s;
  s.op = op;
  s.name = "m";
  s.inputs = {{DataType::kFloat32, a}, {DataType::kFloat32, b}};
  s.outputs = {{DataType::kFloat32, y}};
  return s;
}

TEST(MatMulKernel, RejectsInt64) {
  auto s = Spec("MatMul", {2, 3}, {3, 2}, {2, 2});
  s.inputs[0].dtype = s.inputs[1].dtype = s.outputs[0].dtype = DataType::kInt64;
  auto st = Cpu().kernels().Supports(s);
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.ToString();
}

TEST(MatMulKernel, RejectsF16) {
  auto s = Spec("MatMul", {2, 3}, {3, 2}, {2, 2});
  s.inputs[1].dtype = DataType::kFloat16;
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(s), StatusCode::kUnsupported,
                      "MatMul: input 1 is f16, only f32 and bf16 are supported"));
}

TEST(MatMulKernel, RejectsInnerMismatch) {
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(Spec("MatMul", {2, 3}, {4, 2}, {2, 2})), StatusCode::kInvalidArgument,
                      "MatMul: inner dims differ: [2,3] x [4,2]"));
}

TEST(MatMulKernel, RejectsNonBroadcastableBatch) {
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(Spec("MatMul", {2, 2, 3}, {3, 3, 2}, {3, 2, 2})),
                      StatusCode::kInvalidArgument, "MatMul: batch dims do not broadcast: [2,2,3] x [3,3,2]"));
}

TEST(MatMulKernel, RejectsWrongOutput) {
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(Spec("MatMul", {2, 3}, {3, 2}, {2, 3})), StatusCode::kInvalidArgument,
                      "MatMul: output [2,3] does not match the computed [2,2]"));
}

TEST(GemmKernel, RejectsBadCBroadcast) {
  auto s = Spec("Gemm", {2, 3}, {3, 4}, {2, 4});
  s.inputs.push_back({DataType::kFloat32, {3}});
  EXPECT_TRUE(
      Refused(Cpu().kernels().Supports(s), StatusCode::kInvalidArgument, "Gemm: C [3] does not broadcast to [2,4]"));
}

TEST(GemmKernel, RejectsNon2D) {
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(Spec("Gemm", {1, 2, 3}, {3, 4}, {2, 4})), StatusCode::kInvalidArgument,
                      "Gemm: A [1,2,3] and B [3,4] must be 2-D"));
}

}  // namespace
}  // namespace ge::test
