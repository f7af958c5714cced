#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(Transpose, PermAndDefaultReverse) {
  OpGraph g("Transpose");
  g.In(F32({2, 3, 4, 5})).Ints("perm", {0, 2, 3, 1});
  EXPECT_EQ(InferOut(g), "f32[2,4,5,3]");
  OpGraph d("Transpose");
  d.In(F32({2, -1, 4}));
  EXPECT_EQ(InferOut(d), "f32[4,?,2]");
  OpGraph u("Transpose");
  u.In(F32({kUnknownRank})).Ints("perm", {1, 0});
  EXPECT_EQ(InferOut(u), "f32[?,?]");
}

TEST(Transpose, PermMustBeAPermutation) {
  OpGraph len("Transpose", 1, "tr");
  len.In(F32({2, 3})).Ints("perm", {0});
  EXPECT_TRUE(FailsWith(len, {"node tr (Transpose)", "perm [0] must have one entry per dim of f32[2,3]"}));
  OpGraph dup("Transpose");
  dup.In(F32({2, 3})).Ints("perm", {1, 1});
  EXPECT_TRUE(FailsWith(dup, {"perm names axis 1 twice"}));
  OpGraph range("Transpose");
  range.In(F32({2, 3})).Ints("perm", {0, 2});
  EXPECT_TRUE(FailsWith(range, {"perm[1] 2 is out of range for rank 2"}));
}

TEST(Concat, SumsTheAxis) {
  OpGraph g("Concat");
  g.In(F32({1, 64, 56, 56})).In(F32({1, 64, 56, 56})).In(F32({1, 128, 56, 56})).Int("axis", 1);
  EXPECT_EQ(InferOut(g), "f32[1,256,56,56]");
  OpGraph neg("Concat");
  neg.In(I64({1})).Const(I64s({-1, 7})).Int("axis", -1);
  EXPECT_EQ(InferOut(neg), "i64[3]");
}

TEST(Concat, UnknownDims) {
  OpGraph g("Concat");
  g.In(F32({-1, 3})).In(F32({2, -1})).Int("axis", 0);
  EXPECT_EQ(InferOut(g), "f32[?,3]");
  OpGraph r("Concat");
  r.In(F32({2, 3})).In(F32({kUnknownRank})).Int("axis", 0);
  EXPECT_EQ(InferOut(r), "f32[?,3]");
  OpGraph all("Concat");
  all.In(F32({kUnknownRank})).Int("axis", 0);
  EXPECT_EQ(InferOut(all), "f32[*]");
}

TEST(Concat, MismatchedNonAxisDimsFail) {
  OpGraph g("Concat", 1, "cat");
  g.In(F32({1, 64, 56, 56})).In(F32({1, 64, 28, 56})).Int("axis", 1);
  EXPECT_TRUE(FailsWith(g, {"node cat (Concat)", "input 1 f32[1,64,28,56]", "dim 2 (28 vs 56)", "concat axis 1"}));
  OpGraph rank("Concat");
  rank.In(F32({2, 3})).In(F32({2})).Int("axis", 0);
  EXPECT_TRUE(FailsWith(rank, {"input 1 f32[2] has rank 1, but input 0 f32[2,3] has rank 2"}));
  OpGraph axis("Concat");
  axis.In(F32({2, 3})).In(F32({2, 3})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(axis, {"axis 2 is out of range for rank 2"}));
  OpGraph none("Concat");
  none.In(F32({2, 3}));
  EXPECT_TRUE(FailsWith(none, {"needs attribute 'axis'"}));
  OpGraph dt("Concat");
  dt.In(F32({2})).In(I64({2})).Int("axis", 0);
  EXPECT_TRUE(FailsWith(dt, {"input 0 is f32 and input 1 is i64"}));
}

TEST(Split, EqualPartsFromTheOutputCount) {
  OpGraph g("Split", 3);
  g.In(F32({2, 12, 5})).Int("axis", 1);
  ASSERT_TRUE(g.Infer().ok());
  for (size_t j = 0; j < 3; ++j) EXPECT_EQ(g.Out(j), "f32[2,4,5]");
  OpGraph odd("Split", 2, "sp");
  odd.In(F32({5})).Opset(13);
  EXPECT_TRUE(FailsWith(odd, {"node sp (Split)", "axis of size 5 does not split evenly into 2 outputs"}));
  OpGraph v18("Split", 3);
  v18.In(F32({8})).Opset(18).Int("num_outputs", 3);
  ASSERT_TRUE(v18.Infer().ok());
  EXPECT_EQ(v18.Out(0), "f32[3]");
  EXPECT_EQ(v18.Out(2), "f32[2]");
}

TEST(Split, SizesFromAttributeBeforeOpset13AndInputSince) {
  OpGraph a("Split", 2);
  a.In(F32({10, 3})).Ints("split", {3, 7}).Opset(11);
  ASSERT_TRUE(a.Infer().ok());
  EXPECT_EQ(a.Out(0), "f32[3,3]");
  EXPECT_EQ(a.Out(1), "f32[7,3]");
  OpGraph i("Split", 2);
  i.In(F32({3, -1})).Const(I64s({1, 2})).Int("axis", 0).Opset(13);
  ASSERT_TRUE(i.Infer().ok());
  EXPECT_EQ(i.Out(1), "f32[2,?]");
  OpGraph u("Split", 2);
  u.In(F32({3, 4})).In(I64({2})).Opset(13);
  ASSERT_TRUE(u.Infer().ok());
  EXPECT_EQ(u.Out(0), "f32[?,4]");
}

TEST(Split, SizesMustFit) {
  OpGraph sum("Split", 2);
  sum.In(F32({10})).Const(I64s({3, 6}));
  EXPECT_TRUE(FailsWith(sum, {"split [3,6] adds up to 9, but the axis has 10"}));
  OpGraph count("Split", 3);
  count.In(F32({10})).Const(I64s({3, 7}));
  EXPECT_TRUE(FailsWith(count, {"split [3,7] has 2 sizes for 3 outputs"}));
  OpGraph attr("Split", 2);
  attr.In(F32({10})).Ints("split", {3, 7}).Opset(13);
  EXPECT_TRUE(FailsWith(attr, {"since opset 13 'split' is input 1"}));
  // Found by fuzz_om: sizes whose sum overflows int64 were a signed overflow.
  OpGraph huge("Split", 2);
  huge.In(F32({10})).Const(I64s({int64_t{1} << 62, int64_t{1} << 62}));
  EXPECT_TRUE(FailsWith(huge, {"adds up to more than int64 holds"}));
}

TEST(Concat, AxisSumBeyondInt64Fails) {
  OpGraph g("Concat");
  const int64_t big = int64_t{1} << 62;
  g.In(F32({big, 2})).In(F32({big, 2})).Int("axis", 0);
  EXPECT_TRUE(FailsWith(g, {"add up to more than int64 holds"}));
}

TEST(Gather, OutputShape) {
  OpGraph g("Gather");
  g.In(F32({5, 6, 7})).In(I64({2, 3})).Int("axis", 1);
  EXPECT_EQ(InferOut(g), "f32[5,2,3,7]");
  OpGraph s("Gather");
  s.In(I64({4})).Const(I64Scalar(0));
  EXPECT_EQ(InferOut(s), "i64[]");  // Shape -> Gather(0): a scalar dim
  OpGraph e("Gather");
  e.In(F32({30522, 768})).In(TensorDesc(DataType::kInt32, {-1, 128}));
  EXPECT_EQ(InferOut(e), "f32[?,128,768]");
  OpGraph n("Gather");
  n.In(F32({5, 6, 7})).In(I64({4})).Int("axis", -1);
  EXPECT_EQ(InferOut(n), "f32[5,6,4]");
}

TEST(Gather, Errors) {
  OpGraph axis("Gather", 1, "ga");
  axis.In(F32({5, 6})).In(I64({2})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(axis, {"node ga (Gather)", "axis 2 is out of range for rank 2"}));
  OpGraph idx("Gather");
  idx.In(F32({5, 6})).Const(I64s({1, 5}));
  EXPECT_TRUE(FailsWith(idx, {"index 5 is out of range for axis 0 of size 5"}));
  OpGraph dt("Gather");
  dt.In(F32({5, 6})).In(F32({2}));
  EXPECT_TRUE(FailsWith(dt, {"input 1 must be int32 or int64, not f32"}));
}

TEST(GatherElements, OutputIsTheIndicesShape) {
  OpGraph g("GatherElements");
  g.In(F32({3, 3})).In(I64({2, 3})).Int("axis", 0);
  EXPECT_EQ(InferOut(g), "f32[2,3]");
  OpGraph wide("GatherElements");  // along the axis indices may be longer than data
  wide.In(TensorDesc(DataType::kBool, {2, 2})).In(TensorDesc(DataType::kInt32, {1, 5})).Int("axis", -1);
  EXPECT_EQ(InferOut(wide), "bool[1,5]");
  OpGraph unk("GatherElements");
  unk.In(F32({kUnknownRank})).In(I64({-1, 4}));
  EXPECT_EQ(InferOut(unk), "f32[?,4]");
}

TEST(GatherElements, Errors) {
  OpGraph rank("GatherElements", 1, "ge");
  rank.In(F32({3, 3})).In(I64({3}));
  EXPECT_TRUE(FailsWith(rank, {"node ge (GatherElements)", "indices i64[3] must have the rank of data f32[3,3]"}));
  OpGraph off("GatherElements");
  off.In(F32({3, 3})).In(I64({4, 2})).Int("axis", 1);
  EXPECT_TRUE(FailsWith(off, {"indices i64[4,2] are larger than data f32[3,3] in dim 0"}));
  OpGraph idx("GatherElements");
  idx.In(F32({2})).Const(I64s({0, -3}));
  EXPECT_TRUE(FailsWith(idx, {"index -3 is out of range for axis 0 of size 2"}));
  OpGraph dt("GatherElements");
  dt.In(F32({2})).In(F32({2}));
  EXPECT_TRUE(FailsWith(dt, {"input 1 must be int32 or int64, not f32"}));
}

TEST(Trilu, OutputIsTheInput) {
  OpGraph g("Trilu");
  g.In(I64({2, 3, 4})).Int("upper", 0);
  EXPECT_EQ(InferOut(g), "i64[2,3,4]");
  OpGraph k("Trilu");  // a run-time k does not change the shape
  k.In(F32({-1, 5})).In(I64({}));
  EXPECT_EQ(InferOut(k), "f32[?,5]");
}

TEST(Trilu, Errors) {
  OpGraph vec("Trilu", 1, "tri");
  vec.In(F32({4}));
  EXPECT_TRUE(FailsWith(vec, {"node tri (Trilu)", "rank >= 2", "f32[4]"}));
  OpGraph k("Trilu");
  k.In(F32({4, 4})).Const(I64s({1, 2}));
  EXPECT_TRUE(FailsWith(k, {"k must be a scalar, but is i64[2]"}));
  OpGraph dt("Trilu");
  dt.In(F32({4, 4})).In(F32({}));
  EXPECT_TRUE(FailsWith(dt, {"input 1 must be int32 or int64, not f32"}));
}

TEST(Pad, PadsFromInput) {
  OpGraph g("Pad");
  g.In(F32({1, 3, 4, 5})).Const(I64s({0, 0, 1, 2, 0, 0, 3, 4})).Opset(11);
  EXPECT_EQ(InferOut(g), "f32[1,3,8,11]");
  OpGraph crop("Pad");
  crop.In(F32({4, -1})).Const(I64s({-1, 1, -1, 1})).Const(F32Scalar(0));
  EXPECT_EQ(InferOut(crop), "f32[2,?]");
  OpGraph axes("Pad");
  axes.In(F32({2, 3, 4})).Const(I64s({1, 1})).Absent().Const(I64s({-1})).Opset(18);
  EXPECT_EQ(InferOut(axes), "f32[2,3,6]");
  OpGraph u("Pad");
  u.In(F32({2, 3})).In(I64({4}));
  EXPECT_EQ(InferOut(u), "f32[?,?]");
}

TEST(Pad, Errors) {
  OpGraph len("Pad", 1, "pad");
  len.In(F32({2, 3})).Const(I64s({1, 1}));
  EXPECT_TRUE(FailsWith(len, {"node pad (Pad)", "pads [1,1] must have 4 values for f32[2,3]"}));
  OpGraph neg("Pad");
  neg.In(F32({2, 3})).Const(I64s({-2, 0, -1, 0}));
  EXPECT_TRUE(FailsWith(neg, {"crop axis 0 of f32[2,3] below zero"}));
  // Found by fuzz_onnx: two huge pads used to overflow int64 (UBSan).
  OpGraph huge("Pad");
  huge.In(F32({2, 3})).Const(I64s({int64_t{7} << 60, 0, int64_t{6} << 60, 0}));
  EXPECT_TRUE(FailsWith(huge, {"overflow axis 0 of f32[2,3]"}));
  OpGraph mode("Pad");
  mode.In(F32({2, 3})).Const(I64s({0, 0, 0, 0})).Attr("mode", std::string("mirror"));
  EXPECT_TRUE(FailsWith(mode, {"mode 'mirror'"}));
  OpGraph value("Pad");
  value.In(F32({2, 3})).Const(I64s({0, 0, 0, 0})).Const(I64Scalar(1));
  EXPECT_TRUE(FailsWith(value, {"input 0 is f32 and input 2 is i64"}));
}

}  // namespace
}  // namespace ge::test
