#include "ops_test_util.h"

namespace ge::test {
namespace {

constexpr int64_t kMax = INT64_MAX;
constexpr int64_t kMin = INT64_MIN;

// Slice of `in` with known starts/ends and optional axes/steps.
std::string Slice(Dims in, Dims starts, Dims ends, std::optional<Dims> axes = {}, std::optional<Dims> steps = {}) {
  OpGraph g("Slice");
  g.In(F32(std::move(in))).Const(I64s(starts)).Const(I64s(ends));
  if (axes) g.Const(I64s(*axes));
  else if (steps) g.Absent();
  if (steps) g.Const(I64s(*steps));
  return InferOut(g);
}

TEST(Slice, PositiveSteps) {
  EXPECT_EQ(Slice({10}, {2}, {7}), "f32[5]");
  EXPECT_EQ(Slice({10}, {0}, {10}, {{0}}, {{3}}), "f32[4]");  // 0,3,6,9
  EXPECT_EQ(Slice({10, 20}, {1}, {kMax}, {{1}}), "f32[10,19]");
  EXPECT_EQ(Slice({10, 20}, {-3}, {kMax}, {{0}}), "f32[3,20]");
  EXPECT_EQ(Slice({10, 20}, {0, 0}, {-1, -2}), "f32[9,18]");
  EXPECT_EQ(Slice({10}, {-100}, {100}), "f32[10]");  // both clamp
  EXPECT_EQ(Slice({10}, {7}, {2}), "f32[0]");
  EXPECT_EQ(Slice({10}, {12}, {20}), "f32[0]");
  EXPECT_EQ(Slice({2, 3, 4}, {1}, {kMax}, {{-1}}, {{2}}), "f32[2,3,2]");
}

TEST(Slice, NegativeSteps) {
  EXPECT_EQ(Slice({10}, {-1}, {kMin}, {{0}}, {{-1}}), "f32[10]");  // full reverse
  EXPECT_EQ(Slice({10}, {kMax}, {kMin}, {{0}}, {{-1}}), "f32[10]");
  EXPECT_EQ(Slice({10}, {9}, {-11}, {{0}}, {{-2}}), "f32[5]");       // 9,7,5,3,1
  EXPECT_EQ(Slice({10}, {8}, {2}, {{0}}, {{-3}}), "f32[2]");         // 8,5
  EXPECT_EQ(Slice({10}, {2}, {8}, {{0}}, {{-1}}), "f32[0]");
  EXPECT_EQ(Slice({10}, {20}, {0}, {{0}}, {{-1}}), "f32[9]");        // start clamps to 9
  EXPECT_EQ(Slice({10}, {-1}, {-1}, {{0}}, {{-1}}), "f32[0]");
  EXPECT_EQ(Slice({10}, {5}, {kMin}, {{0}}, {{kMin}}), "f32[1]");    // huge step: one element
  EXPECT_EQ(Slice({0}, {-1}, {kMin}, {{0}}, {{-1}}), "f32[0]");
}

TEST(Slice, UnknownDimsAndValues) {
  EXPECT_EQ(Slice({-1, 20}, {0}, {5}, {{1}}), "f32[?,5]");
  EXPECT_EQ(Slice({-1, 20}, {0}, {5}, {{0}}), "f32[?,20]");
  OpGraph g("Slice");
  g.In(F32({4, 20})).In(I64({1})).Const(I64s({5})).Const(I64s({1}));
  EXPECT_EQ(InferOut(g), "f32[4,?]");
  OpGraph a("Slice");
  a.In(F32({4, 20})).Const(I64s({0})).Const(I64s({1})).In(I64({1}));
  EXPECT_EQ(InferOut(a), "f32[?,?]");
  OpGraph r("Slice");
  r.In(F32({kUnknownRank})).Const(I64s({0})).Const(I64s({1}));
  EXPECT_EQ(InferOut(r), "f32[*]");
}

TEST(Slice, Errors) {
  OpGraph zero("Slice", 1, "sl");
  zero.In(F32({10})).Const(I64s({0})).Const(I64s({5})).Const(I64s({0})).Const(I64s({0}));
  EXPECT_TRUE(FailsWith(zero, {"node sl (Slice)", "steps [0] has a 0 step"}));
  OpGraph len("Slice");
  len.In(F32({10, 4})).Const(I64s({0, 0})).Const(I64s({5}));
  EXPECT_TRUE(FailsWith(len, {"ends [5] has 1 values for 2 sliced axes"}));
  OpGraph axis("Slice");
  axis.In(F32({10, 4})).Const(I64s({0})).Const(I64s({5})).Const(I64s({2}));
  EXPECT_TRUE(FailsWith(axis, {"axes[0] 2 is out of range for rank 2"}));
  OpGraph dup("Slice");
  dup.In(F32({10, 4})).Const(I64s({0, 0})).Const(I64s({5, 5})).Const(I64s({0, -2}));
  EXPECT_TRUE(FailsWith(dup, {"names axis 0 twice"}));
  OpGraph few("Slice");
  few.In(F32({10})).Const(I64s({0}));
  EXPECT_TRUE(FailsWith(few, {"takes 3..5 inputs, has 2"}));
}

}  // namespace
}  // namespace ge::test
