// FusedAttention's shape inference (operands through their perms, the
// result through out_perm) and its FLOP count.
#include "ge/ops/flop_count.h"

#include "ops_test_util.h"

namespace ge::test {
namespace {

// GPT layout: [B,S,H,D] read as [B,H,S,D], K as [B,H,D,S], written back as [B,S,H,D].
void GptAttention(OpGraph& g, Dims q, Dims k, Dims v) {
  g.In(F32(std::move(q))).In(F32(std::move(k))).In(F32(std::move(v)));
  g.Ints("q_perm", {0, 2, 1, 3}).Ints("k_perm", {0, 2, 3, 1}).Ints("v_perm", {0, 2, 1, 3});
  g.Ints("out_perm", {0, 2, 1, 3});
}

TEST(FusedAttention, OutputFollowsThePerms) {
  OpGraph g("FusedAttention", 1, "attn");
  GptAttention(g, {2, 7, 3, 8}, {2, 5, 3, 8}, {2, 5, 3, 4});
  EXPECT_EQ(InferOut(g), "f32[2,7,3,4]");
  OpGraph plain("FusedAttention");
  plain.In(F32({6, 7, 8})).In(F32({6, 8, 5})).In(F32({6, 5, 4})).In(F32({7, 5}));
  EXPECT_EQ(InferOut(plain), "f32[6,7,4]");
}

TEST(FusedAttention, RejectsOperandsThatDoNotFit) {
  OpGraph inner("FusedAttention", 1, "attn");
  GptAttention(inner, {2, 7, 3, 8}, {2, 5, 3, 6}, {2, 5, 3, 4});
  EXPECT_TRUE(FailsWith(inner, {"node attn (FusedAttention)", "inner dims differ"}));
  OpGraph batch("FusedAttention", 1, "attn");
  GptAttention(batch, {2, 7, 3, 8}, {2, 5, 4, 8}, {2, 5, 3, 4});
  EXPECT_TRUE(FailsWith(batch, {"batch dims differ"}));
  OpGraph perm("FusedAttention");
  perm.In(F32({6, 7, 8})).In(F32({6, 8, 5})).In(F32({6, 5, 4})).Ints("q_perm", {0, 0, 1});
  EXPECT_TRUE(FailsWith(perm, {"q_perm", "not a permutation"}));
  OpGraph mask("FusedAttention");
  mask.In(F32({6, 7, 8})).In(F32({6, 8, 5})).In(F32({6, 5, 4})).In(F32({7, 7}));
  EXPECT_TRUE(FailsWith(mask, {"mask", "does not broadcast"}));
}

TEST(FusedAttention, FlopsPerScoreAreBothProductsScaleMaskAndSoftmax) {
  // scores [2,3,7,5] = 210; per score 2*8 + 2*4 (products) + 1 scale + 5 softmax.
  OpGraph g("FusedAttention", 1, "attn");
  GptAttention(g, {2, 7, 3, 8}, {2, 5, 3, 8}, {2, 5, 3, 4});
  ASSERT_TRUE(g.Infer().ok());
  EXPECT_EQ(FlopCount(*g.node()).value_or(-1), 210 * (16 + 8 + 1 + 5));
}

}  // namespace
}  // namespace ge::test
