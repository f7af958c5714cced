#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(Shape, RankElementsAndOpset15Range) {
  auto shape = [](Dims in, std::optional<int64_t> start, std::optional<int64_t> end) {
    OpGraph g("Shape");
    g.In(F32(std::move(in))).Opset(15);
    if (start) g.Int("start", *start);
    if (end) g.Int("end", *end);
    return InferOut(g);
  };
  EXPECT_EQ(shape({2, -1, 4}, {}, {}), "i64[3]");
  EXPECT_EQ(shape({2, 3, 4}, 1, {}), "i64[2]");
  EXPECT_EQ(shape({2, 3, 4}, -1, {}), "i64[1]");
  EXPECT_EQ(shape({2, 3, 4}, 0, -1), "i64[2]");
  EXPECT_EQ(shape({2, 3, 4}, 5, {}), "i64[0]");      // clamped to the rank
  EXPECT_EQ(shape({2, 3, 4}, -10, 10), "i64[3]");
  EXPECT_EQ(shape({2, 3, 4}, 2, 1), "i64[0]");
  EXPECT_EQ(shape({}, {}, {}), "i64[0]");
  EXPECT_EQ(shape({kUnknownRank}, {}, {}), "i64[?]");
}

TEST(Size, IsAnInt64Scalar) {
  OpGraph g("Size");
  g.In(F32({-1, 3}));
  EXPECT_EQ(InferOut(g), "i64[]");
}

TEST(ConstantOfShape, ShapeFromValue) {
  OpGraph g("ConstantOfShape");
  g.Const(I64s({2, 3}));
  EXPECT_EQ(InferOut(g), "f32[2,3]");
  OpGraph v("ConstantOfShape");
  v.Const(I64s({4})).Attr("value", Tensor::FromVector(DataType::kInt64, {1}, std::vector<int64_t>{7}));
  EXPECT_EQ(InferOut(v), "i64[4]");
  OpGraph s("ConstantOfShape");
  s.Const(Tensor::FromVector(DataType::kInt64, {0}, std::vector<int64_t>{}));
  EXPECT_EQ(InferOut(s), "f32[]");
}

TEST(ConstantOfShape, UnknownValueAndErrors) {
  OpGraph g("ConstantOfShape");
  g.In(I64({3}));
  EXPECT_EQ(InferOut(g), "f32[?,?,?]");
  OpGraph u("ConstantOfShape");
  u.In(I64({-1}));
  EXPECT_EQ(InferOut(u), "f32[*]");
  OpGraph neg("ConstantOfShape", 1, "cos");
  neg.Const(I64s({2, -3}));
  EXPECT_TRUE(FailsWith(neg, {"node cos (ConstantOfShape)", "shape [2,-3] has a negative dim"}));
  OpGraph val("ConstantOfShape");
  val.Const(I64s({2})).Attr("value", F32Zeros({2}));
  EXPECT_TRUE(FailsWith(val, {"value must hold one element"}));
}

TEST(Range, LengthFromKnownValues) {
  auto range = [](Tensor s, Tensor l, Tensor d) {
    OpGraph g("Range");
    g.Const(std::move(s)).Const(std::move(l)).Const(std::move(d));
    return InferOut(g);
  };
  EXPECT_EQ(range(I64Scalar(0), I64Scalar(10), I64Scalar(3)), "i64[4]");
  EXPECT_EQ(range(I64Scalar(10), I64Scalar(0), I64Scalar(-3)), "i64[4]");
  EXPECT_EQ(range(I64Scalar(5), I64Scalar(0), I64Scalar(1)), "i64[0]");
  EXPECT_EQ(range(I64Scalar(0), I64Scalar(9), I64Scalar(3)), "i64[3]");
  EXPECT_EQ(range(F32Scalar(1), F32Scalar(2), F32Scalar(0.3f)), "f32[4]");
  EXPECT_EQ(range(I64Scalar(INT64_MIN), I64Scalar(INT64_MAX), I64Scalar(INT64_MAX)), "i64[3]");
}

TEST(Range, UnknownAndBad) {
  OpGraph u("Range");
  u.Const(I64Scalar(0)).In(I64({})).Const(I64Scalar(1));
  EXPECT_EQ(InferOut(u), "i64[?]");
  OpGraph zero("Range", 1, "r0");
  zero.Const(I64Scalar(0)).Const(I64Scalar(4)).Const(I64Scalar(0));
  EXPECT_TRUE(FailsWith(zero, {"node r0 (Range)", "delta must not be 0"}));
  OpGraph mixed("Range");
  mixed.Const(I64Scalar(0)).Const(F32Scalar(4)).Const(I64Scalar(1));
  EXPECT_TRUE(FailsWith(mixed, {"input 0 is i64 and input 1 is f32"}));
  OpGraph vec("Range");
  vec.Const(I64s({0, 1})).Const(I64Scalar(4)).Const(I64Scalar(1));
  EXPECT_TRUE(FailsWith(vec, {"start must be a scalar"}));
}

TEST(Expand, BroadcastsWithTheShapeValue) {
  OpGraph g("Expand");
  g.In(F32({3, 1})).Const(I64s({2, 1, 6}));
  EXPECT_EQ(InferOut(g), "f32[2,3,6]");
  OpGraph smaller("Expand");
  smaller.In(F32({2, 3})).Const(I64s({3}));
  EXPECT_EQ(InferOut(smaller), "f32[2,3]");
  OpGraph u("Expand");
  u.In(F32({3, 1})).In(I64({3}));
  EXPECT_EQ(InferOut(u), "f32[?,3,?]");  // a known non-1 dim survives any shape
  OpGraph bad("Expand", 1, "ex");
  bad.In(F32({3})).Const(I64s({4}));
  EXPECT_TRUE(FailsWith(bad, {"node ex (Expand)", "do not broadcast"}));
}

TEST(Tile, MultipliesDims) {
  OpGraph g("Tile");
  g.In(F32({2, -1, 3})).Const(I64s({2, 2, 0}));
  EXPECT_EQ(InferOut(g), "f32[4,?,0]");
  OpGraph u("Tile");
  u.In(F32({2, 3})).In(I64({2}));
  EXPECT_EQ(InferOut(u), "f32[?,?]");
  OpGraph bad("Tile");
  bad.In(F32({2, 3})).Const(I64s({2}));
  EXPECT_TRUE(FailsWith(bad, {"repeats [2] must have one value per dim of f32[2,3]"}));
}

}  // namespace
}  // namespace ge::test
