#include "ops_test_util.h"

namespace ge::test {
namespace {

std::string Reshape(TensorDesc in, Dims shape, int64_t allowzero = 0) {
  OpGraph g("Reshape");
  g.In(std::move(in)).Const(I64s(shape)).Int("allowzero", allowzero);
  return InferOut(g);
}

TEST(Reshape, ZeroCopiesAndMinusOneInfers) {
  EXPECT_EQ(Reshape(F32({2, 3, 4}), {0, -1}), "f32[2,12]");
  EXPECT_EQ(Reshape(F32({2, 3, 4}), {-1}), "f32[24]");
  EXPECT_EQ(Reshape(F32({2, 3, 4}), {4, 0, 2}), "f32[4,3,2]");
  EXPECT_EQ(Reshape(F32({1, 2048, 1, 1}), {1, -1}), "f32[1,2048]");
}

TEST(Reshape, CopiedUnknownDimsCancel) {
  // Batch unknown: [?,3,4] -> [0,-1] is still [?,12].
  EXPECT_EQ(Reshape(F32({-1, 3, 4}), {0, -1}), "f32[?,12]");
  EXPECT_EQ(Reshape(F32({-1, 3, 4}), {-1, 12}), "f32[?,12]");
  EXPECT_EQ(Reshape(F32({2, -1}), {2, 2, -1}), "f32[2,2,?]");
  EXPECT_EQ(Reshape(F32({kUnknownRank}), {0, 4}), "f32[?,4]");
}

TEST(Reshape, AllowZeroKeepsRealZeros) {
  EXPECT_EQ(Reshape(F32({0, 4}), {0, 4}, 1), "f32[0,4]");
  EXPECT_EQ(Reshape(F32({2, 0}), {0, 5}, 1), "f32[0,5]");
  OpGraph both("Reshape");
  both.In(F32({0, 4})).Const(I64s({0, -1})).Int("allowzero", 1);
  EXPECT_TRUE(FailsWith(both, {"cannot hold both 0 and -1"}));
}

TEST(Reshape, ElementCountMismatchFails) {
  OpGraph g("Reshape", 1, "rs");
  g.In(F32({2, 3, 4})).Const(I64s({5, 5}));
  EXPECT_TRUE(FailsWith(g, {"node rs (Reshape)", "cannot reshape f32[2,3,4] into [5,5]", "24", "25"}));
  OpGraph inf("Reshape");
  inf.In(F32({2, 3, 4})).Const(I64s({5, -1}));
  EXPECT_TRUE(FailsWith(inf, {"24 elements do not make a whole number of 5"}));
  OpGraph two("Reshape");
  two.In(F32({2, 3, 4})).Const(I64s({-1, -1}));
  EXPECT_TRUE(FailsWith(two, {"more than one -1"}));
  OpGraph copy("Reshape");
  copy.In(F32({24})).Const(I64s({4, 0}));
  EXPECT_TRUE(FailsWith(copy, {"copies dim 1 (0) of input f32[24], which has no such dim"}));
  OpGraph neg("Reshape");
  neg.In(F32({24})).Const(I64s({-3, 8}));
  EXPECT_TRUE(FailsWith(neg, {"invalid dim -3"}));
}

TEST(Reshape, ShapeValuesWhoseProductOverflowsFail) {
  // Found by the fuzzer: the element count of [2, 2^63-1] wrapped int64.
  OpGraph g("Reshape");
  g.In(F32({2, 3, 4})).Const(I64s({2, std::numeric_limits<int64_t>::max()}));
  EXPECT_TRUE(FailsWith(g, {"cannot reshape f32[2,3,4]", "does not fit in int64"}));
  OpGraph inf("Reshape");
  inf.In(F32({2, 3, 4})).Const(I64s({-1, int64_t{1} << 40, int64_t{1} << 40}));
  EXPECT_TRUE(FailsWith(inf, {"does not fit in int64"}));
}

TEST(Reshape, UnknownValueGivesRankFromTheShapeOperand) {
  OpGraph g("Reshape");
  g.In(F32({2, 3, 4})).In(I64({3}));
  EXPECT_EQ(InferOut(g), "f32[?,?,?]");
  OpGraph u("Reshape");
  u.In(F32({2, 3, 4})).In(I64({-1}));
  EXPECT_EQ(InferOut(u), "f32[*]");
}

TEST(Flatten, AxisDefaultsToOneAndMayBeNegative) {
  auto flatten = [](TensorDesc in, std::optional<int64_t> axis) {
    OpGraph g("Flatten");
    g.In(std::move(in));
    if (axis) g.Int("axis", *axis);
    return InferOut(g);
  };
  EXPECT_EQ(flatten(F32({2, 3, 4, 5}), {}), "f32[2,60]");
  EXPECT_EQ(flatten(F32({2, 3, 4, 5}), 0), "f32[1,120]");
  EXPECT_EQ(flatten(F32({2, 3, 4, 5}), 4), "f32[120,1]");
  EXPECT_EQ(flatten(F32({2, 3, 4, 5}), -2), "f32[6,20]");
  EXPECT_EQ(flatten(F32({-1, 512, 1, 1}), {}), "f32[?,512]");
  EXPECT_EQ(flatten(F32({kUnknownRank}), {}), "f32[?,?]");
  OpGraph bad("Flatten");
  bad.In(F32({2, 3})).Int("axis", 3);
  EXPECT_TRUE(FailsWith(bad, {"axis 3 is out of range for rank 2"}));
}

TEST(Squeeze, Opset11TakesAxesAsAttribute) {
  OpGraph g("Squeeze");
  g.In(F32({1, 3, 1, 5})).Ints("axes", {0}).Opset(11);
  EXPECT_EQ(InferOut(g), "f32[3,1,5]");
  OpGraph in("Squeeze", 1, "sq");
  in.In(F32({1, 3, 1, 5})).Const(I64s({0})).Opset(11);
  EXPECT_TRUE(FailsWith(in, {"node sq (Squeeze)", "before opset 13 'axes' is an attribute"}));
}

TEST(Squeeze, Opset13TakesAxesAsInput) {
  OpGraph g("Squeeze");
  g.In(F32({1, 3, 1, 5})).Const(I64s({-2})).Opset(13);
  EXPECT_EQ(InferOut(g), "f32[1,3,5]");
  OpGraph attr("Squeeze");
  attr.In(F32({1, 3, 1, 5})).Ints("axes", {0}).Opset(13);
  EXPECT_TRUE(FailsWith(attr, {"since opset 13 'axes' is input 1, not an attribute"}));
  OpGraph u("Squeeze");
  u.In(F32({1, 3, 1, 5})).In(I64({2})).Opset(13);
  EXPECT_EQ(InferOut(u), "f32[?,?]");
}

TEST(Squeeze, WithoutAxesRemovesAllOnes) {
  OpGraph g("Squeeze");
  g.In(F32({1, 3, 1, 5, 1}));
  EXPECT_EQ(InferOut(g), "f32[3,5]");
  OpGraph u("Squeeze");
  u.In(F32({1, -1, 5}));
  EXPECT_EQ(InferOut(u), "f32[*]");  // ? may be 1
}

TEST(Squeeze, OnlyOnesCanGo) {
  OpGraph g("Squeeze");
  g.In(F32({1, 3})).Ints("axes", {1}).Opset(11);
  EXPECT_TRUE(FailsWith(g, {"cannot squeeze axis 1 of f32[1,3]: its size is 3, not 1"}));
  OpGraph r("Squeeze");
  r.In(F32({1, 3})).Ints("axes", {2}).Opset(11);
  EXPECT_TRUE(FailsWith(r, {"axes[0] 2 is out of range for rank 2"}));
  OpGraph u("Squeeze");
  u.In(F32({-1, 3})).Ints("axes", {0}).Opset(11);
  EXPECT_EQ(InferOut(u), "f32[3]");
}

TEST(Unsqueeze, AxesIndexTheOutput) {
  OpGraph g("Unsqueeze");
  g.In(F32({3, 4})).Ints("axes", {0, 3}).Opset(11);
  EXPECT_EQ(InferOut(g), "f32[1,3,4,1]");
  OpGraph n("Unsqueeze");
  n.In(F32({3, 4})).Const(I64s({-1})).Opset(13);
  EXPECT_EQ(InferOut(n), "f32[3,4,1]");
  OpGraph s("Unsqueeze");
  s.In(I64({})).Const(I64s({0}));
  EXPECT_EQ(InferOut(s), "i64[1]");
  OpGraph u("Unsqueeze");
  u.In(F32({3, 4})).In(I64({2})).Opset(13);
  EXPECT_EQ(InferOut(u), "f32[?,?,?,?]");
}

TEST(Unsqueeze, Errors) {
  OpGraph none("Unsqueeze", 1, "us");
  none.In(F32({3})).Opset(13);
  EXPECT_TRUE(FailsWith(none, {"node us (Unsqueeze)", "needs axes"}));
  OpGraph dup("Unsqueeze");
  dup.In(F32({3})).Const(I64s({0, -3}));
  EXPECT_TRUE(FailsWith(dup, {"names axis 0 twice"}));
  OpGraph range("Unsqueeze");
  range.In(F32({3})).Const(I64s({2}));
  EXPECT_TRUE(FailsWith(range, {"axes[0] 2 is out of range for rank 2"}));
}

}  // namespace
}  // namespace ge::test
