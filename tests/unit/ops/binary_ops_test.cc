#include "ops_test_util.h"

namespace ge::test {
namespace {

std::string Binary(const char* type, TensorDesc a, TensorDesc b) {
  OpGraph g(type);
  g.In(std::move(a)).In(std::move(b));
  return InferOut(g);
}

TEST(BinaryOps, BroadcastTrailingVector) {
  EXPECT_EQ(Binary("Add", F32({2, 3}), F32({3})), "f32[2,3]");
}

TEST(BinaryOps, BroadcastBothWays) {
  EXPECT_EQ(Binary("Mul", F32({2, 1}), F32({1, 3})), "f32[2,3]");
  EXPECT_EQ(Binary("Sub", F32({}), F32({4, 1, 5})), "f32[4,1,5]");
  EXPECT_EQ(Binary("Div", F32({8, 1, 6, 1}), F32({7, 1, 5})), "f32[8,7,6,5]");
}

TEST(BinaryOps, IncompatibleShapesFailNamingBoth) {
  OpGraph g("Add", 1, "add7");
  g.In(F32({2, 3})).In(F32({4}));
  EXPECT_TRUE(FailsWith(g, {"node add7 (Add)", "[2,3]", "[4]", "do not broadcast"}));
}

TEST(BinaryOps, UnknownDimsPropagate) {
  EXPECT_EQ(Binary("Add", F32({-1, 3}), F32({3})), "f32[?,3]");
  EXPECT_EQ(Binary("Add", F32({-1, 3}), F32({4, 1})), "f32[4,3]");  // ? must be 1 or 4
  EXPECT_EQ(Binary("Add", F32({-1}), F32({-1})), "f32[?]");
  EXPECT_EQ(Binary("Add", F32({-1}), F32({1})), "f32[?]");
  EXPECT_EQ(Binary("Add", F32({kUnknownRank}), F32({3})), "f32[*]");
}

TEST(BinaryOps, MixedDtypesAreRejected) {
  OpGraph g("Mul", 1, "m");
  g.In(F32({2})).In(I64({2}));
  EXPECT_TRUE(FailsWith(g, {"node m (Mul)", "input 0 is f32 and input 1 is i64"}));
}

TEST(BinaryOps, PowKeepsTheBasesDtype) {
  EXPECT_EQ(Binary("Pow", F32({2, 3}), I64({})), "f32[2,3]");
  EXPECT_EQ(Binary("Pow", I64({3}), F32({3})), "i64[3]");
}

TEST(BinaryOps, ComparisonsAndLogicGiveBool) {
  for (const char* t : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"})
    EXPECT_EQ(Binary(t, F32({2, 1}), F32({4})), "bool[2,4]") << t;
  EXPECT_EQ(Binary("Equal", I64({3}), I64({3})), "bool[3]");
  const TensorDesc b(DataType::kBool, {3});
  EXPECT_EQ(Binary("And", b, b), "bool[3]");
  EXPECT_EQ(Binary("Or", b, TensorDesc(DataType::kBool, {})), "bool[3]");
  OpGraph g("And");
  g.In(F32({3})).In(F32({3}));
  EXPECT_TRUE(FailsWith(g, {"inputs must be bool, not f32"}));
  OpGraph l("Less");
  l.In(F32({3})).In(I64({3}));
  EXPECT_TRUE(FailsWith(l, {"input 0 is f32 and input 1 is i64"}));
}

TEST(BinaryOps, MaxAndMinAreVariadic) {
  OpGraph g("Max");
  g.In(F32({3, 1})).In(F32({4})).In(F32({}));
  EXPECT_EQ(InferOut(g), "f32[3,4]");
  OpGraph one("Min");
  one.In(F32({5}));
  EXPECT_EQ(InferOut(one), "f32[5]");
}

TEST(BinaryOps, SumIsVariadicAndModBroadcasts) {
  OpGraph g("Sum");
  g.In(F32({3, 1})).In(F32({4})).In(F32({})).In(F32({2, 1, 1}));
  EXPECT_EQ(InferOut(g), "f32[2,3,4]");
  OpGraph one("Sum");
  one.In(I64({5}));
  EXPECT_EQ(InferOut(one), "i64[5]");
  OpGraph mixed("Sum", 1, "s");
  mixed.In(F32({2})).In(I64({2}));
  EXPECT_TRUE(FailsWith(mixed, {"node s (Sum)", "input 0 is f32 and input 1 is i64"}));
  OpGraph mod("Mod");
  mod.In(TensorDesc(DataType::kInt32, {2, 3})).In(TensorDesc(DataType::kInt32, {3})).Int("fmod", 1);
  EXPECT_EQ(InferOut(mod), "i32[2,3]");
  OpGraph flag("Mod", 1, "m");
  flag.In(TensorDesc(DataType::kBool, {2})).In(TensorDesc(DataType::kBool, {2}));
  EXPECT_TRUE(FailsWith(flag, {"node m (Mod)", "numeric"}));
}

TEST(BinaryOps, WhereBroadcastsThreeWays) {
  OpGraph g("Where");
  g.In(TensorDesc(DataType::kBool, {2, 1, 1})).In(F32({1, 3, 1})).In(F32({4}));
  EXPECT_EQ(InferOut(g), "f32[2,3,4]");
  OpGraph bad("Where");
  bad.In(TensorDesc(DataType::kBool, {2})).In(F32({3})).In(F32({3}));
  EXPECT_TRUE(FailsWith(bad, {"do not broadcast"}));
  OpGraph cond("Where");
  cond.In(F32({2})).In(F32({2})).In(F32({2}));
  EXPECT_TRUE(FailsWith(cond, {"input 0 must be bool"}));
  OpGraph mixed("Where");
  mixed.In(TensorDesc(DataType::kBool, {2})).In(F32({2})).In(I64({2}));
  EXPECT_TRUE(FailsWith(mixed, {"input 1 is f32 and input 2 is i64"}));
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

TEST(BinaryOps, PReluSlopeBroadcastsOneWay) {
  EXPECT_EQ(Binary("PRelu", F32({2, 3, 4}), F32({3, 1})), "f32[2,3,4]");
  OpGraph g("PRelu");
  g.In(F32({3})).In(F32({2, 3}));
  EXPECT_TRUE(FailsWith(g, {"does not broadcast to x"}));
}

}  // namespace
}  // namespace ge::test
