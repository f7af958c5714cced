#include "ops_test_util.h"

namespace ge::test {
namespace {

std::string MatMul(TensorDesc a, TensorDesc b) {
  OpGraph g("MatMul");
  g.In(std::move(a)).In(std::move(b));
  return InferOut(g);
}

TEST(MatMul, TwoDimensional) { EXPECT_EQ(MatMul(F32({4, 8}), F32({8, 3})), "f32[4,3]"); }

TEST(MatMul, OneDimensionalOperandsArePromotedAndDropped) {
  EXPECT_EQ(MatMul(F32({8}), F32({8, 3})), "f32[3]");
  EXPECT_EQ(MatMul(F32({4, 8}), F32({8})), "f32[4]");
  EXPECT_EQ(MatMul(F32({8}), F32({8})), "f32[]");
  EXPECT_EQ(MatMul(F32({2, 5, 4, 8}), F32({8})), "f32[2,5,4]");
}

TEST(MatMul, BatchDimsBroadcast) {
  EXPECT_EQ(MatMul(F32({2, 1, 4, 8}), F32({5, 8, 3})), "f32[2,5,4,3]");
  EXPECT_EQ(MatMul(F32({12, 128, 64}), F32({64, 128})), "f32[12,128,128]");
}

TEST(MatMul, UnknownDimsPropagate) {
  EXPECT_EQ(MatMul(F32({-1, -1, 768}), F32({768, 3072})), "f32[?,?,3072]");
  EXPECT_EQ(MatMul(F32({4, -1}), F32({8, 3})), "f32[4,3]");
  EXPECT_EQ(MatMul(F32({kUnknownRank}), F32({8, 3})), "f32[*]");
}

TEST(MatMul, InnerDimsMustMatch) {
  OpGraph g("MatMul", 1, "mm");
  g.In(F32({4, 8})).In(F32({7, 3}));
  EXPECT_TRUE(FailsWith(g, {"node mm (MatMul)", "inner dims differ", "K=8", "K=7"}));
  OpGraph batch("MatMul");
  batch.In(F32({2, 4, 8})).In(F32({3, 8, 5}));
  EXPECT_TRUE(FailsWith(batch, {"do not broadcast"}));
  OpGraph scalar("MatMul");
  scalar.In(F32({})).In(F32({3}));
  EXPECT_TRUE(FailsWith(scalar, {"rank >= 1"}));
}

TEST(Gemm, Transposes) {
  OpGraph g("Gemm");
  g.In(F32({1, 512})).Const(F32Zeros({1000, 512})).Const(F32Zeros({1000})).Int("transB", 1);
  EXPECT_EQ(InferOut(g), "f32[1,1000]");
  OpGraph a("Gemm");
  a.In(F32({8, 4})).In(F32({8, 6})).Int("transA", 1);
  EXPECT_EQ(InferOut(a), "f32[4,6]");
  OpGraph u("Gemm");
  u.In(F32({-1, 512})).In(F32({512, 10}));
  EXPECT_EQ(InferOut(u), "f32[?,10]");
}

TEST(Gemm, KMustMatch) {
  OpGraph g("Gemm", 1, "fc");
  g.In(F32({1, 512})).In(F32({1000, 256})).Int("transB", 1);
  EXPECT_TRUE(FailsWith(g, {"node fc (Gemm)", "K=512", "K=256", "transB=1"}));
  OpGraph r("Gemm");
  r.In(F32({2, 1, 512})).In(F32({512, 10}));
  EXPECT_TRUE(FailsWith(r, {"A must be 2-D"}));
}

TEST(Gemm, BiasBroadcastsToTheResult) {
  OpGraph row("Gemm");
  row.In(F32({4, 8})).In(F32({8, 3})).In(F32({1, 3}));
  EXPECT_EQ(InferOut(row), "f32[4,3]");
  OpGraph bad("Gemm");
  bad.In(F32({4, 8})).In(F32({8, 3})).In(F32({2, 3}));
  EXPECT_TRUE(FailsWith(bad, {"do not broadcast"}));
  OpGraph big("Gemm");
  big.In(F32({4, 8})).In(F32({8, 3})).In(F32({5, 4, 3}));
  EXPECT_TRUE(FailsWith(big, {"C f32[5,4,3] does not broadcast to the result [4,3]"}));
}

}  // namespace
}  // namespace ge::test
