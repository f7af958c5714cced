#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(Reduce, AxesAttributeAndKeepdims) {
  OpGraph g("ReduceMean");
  g.In(F32({2, 3, 4, 5})).Ints("axes", {2, 3}).Opset(13);
  EXPECT_EQ(InferOut(g), "f32[2,3,1,1]");
  OpGraph k("ReduceMax");
  k.In(F32({2, 3, 4, 5})).Ints("axes", {-1, 1}).Int("keepdims", 0);
  EXPECT_EQ(InferOut(k), "f32[2,4]");
  for (const char* t : {"ReduceMin", "ReduceProd", "ReduceL2", "ReduceSumSquare"}) {
    OpGraph o(t);
    o.In(F32({-1, 3})).Ints("axes", {1}).Opset(11);
    EXPECT_EQ(InferOut(o), "f32[?,1]") << t;
  }
}

TEST(Reduce, BoolMaxAndMinKeepBool) {  // TF's Any and All
  OpGraph g("ReduceMax");
  g.In(TensorDesc(DataType::kBool, {2, 3})).Ints("axes", {1}).Int("keepdims", 0);
  EXPECT_EQ(InferOut(g), "bool[2]");
  OpGraph k("ReduceMin");
  k.In(TensorDesc(DataType::kBool, {2, 3})).Ints("axes", {0});
  EXPECT_EQ(InferOut(k), "bool[1,3]");
}

TEST(Reduce, NoAxesReducesEverything) {
  OpGraph g("ReduceMean");
  g.In(F32({2, 3, 4}));
  EXPECT_EQ(InferOut(g), "f32[1,1,1]");
  OpGraph k("ReduceMax");
  k.In(F32({2, 3, 4})).Int("keepdims", 0);
  EXPECT_EQ(InferOut(k), "f32[]");
}

TEST(Reduce, ReduceSumOpset13TakesAxesAsInput) {
  OpGraph g("ReduceSum");
  g.In(F32({2, 3, 4})).Const(I64s({1})).Int("keepdims", 0).Opset(13);
  EXPECT_EQ(InferOut(g), "f32[2,4]");
  OpGraph a("ReduceSum", 1, "rsum");
  a.In(F32({2, 3, 4})).Ints("axes", {1}).Opset(13);
  EXPECT_TRUE(FailsWith(a, {"node rsum (ReduceSum)", "since opset 13 'axes' is input 1"}));
  OpGraph old("ReduceSum");
  old.In(F32({2, 3, 4})).Ints("axes", {0}).Opset(11);
  EXPECT_EQ(InferOut(old), "f32[1,3,4]");
  OpGraph u("ReduceSum");
  u.In(F32({2, 3, 4})).In(I64({1})).Int("keepdims", 0).Opset(13);
  EXPECT_EQ(InferOut(u), "f32[?,?]");
  OpGraph uk("ReduceSum");
  uk.In(F32({2, 3, 4})).In(I64({1})).Opset(13);
  EXPECT_EQ(InferOut(uk), "f32[?,?,?]");
}

TEST(Reduce, NoopWithEmptyAxes) {
  OpGraph g("ReduceSum");
  g.In(F32({2, 3})).Const(Tensor::FromVector(DataType::kInt64, {0}, std::vector<int64_t>{}));
  g.Int("noop_with_empty_axes", 1).Opset(13);
  EXPECT_EQ(InferOut(g), "f32[2,3]");
  OpGraph n("ReduceSum");
  n.In(F32({2, 3})).Int("noop_with_empty_axes", 0).Opset(13);
  EXPECT_EQ(InferOut(n), "f32[1,1]");
  OpGraph m("ReduceMean");
  m.In(F32({2, 3})).Int("noop_with_empty_axes", 1).Opset(18);
  EXPECT_EQ(InferOut(m), "f32[2,3]");
}

TEST(Reduce, Errors) {
  OpGraph g("ReduceMean", 1, "rm");
  g.In(F32({2, 3})).Ints("axes", {2});
  EXPECT_TRUE(FailsWith(g, {"node rm (ReduceMean)", "axes[0] 2 is out of range for rank 2"}));
  OpGraph in("ReduceMean");
  in.In(F32({2, 3})).Const(I64s({1})).Opset(13);
  EXPECT_TRUE(FailsWith(in, {"before opset 18 'axes' is an attribute"}));
}

TEST(ArgMax, Int64Output) {
  OpGraph g("ArgMax");
  g.In(F32({2, 3, 4})).Int("axis", 1);
  EXPECT_EQ(InferOut(g), "i64[2,1,4]");
  OpGraph k("ArgMin");
  k.In(F32({2, 3, 4})).Int("axis", -1).Int("keepdims", 0);
  EXPECT_EQ(InferOut(k), "i64[2,3]");
  OpGraph d("ArgMax");
  d.In(F32({-1, 1000})).Int("keepdims", 0);
  EXPECT_EQ(InferOut(d), "i64[1000]");
  OpGraph bad("ArgMax", 1, "am");
  bad.In(F32({3})).Int("axis", 1);
  EXPECT_TRUE(FailsWith(bad, {"node am (ArgMax)", "axis 1 is out of range for rank 1"}));
}

}  // namespace
}  // namespace ge::test
