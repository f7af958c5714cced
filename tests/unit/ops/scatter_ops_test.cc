#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(ScatterElements, KeepsDataShape) {
  OpGraph g("ScatterElements");
  g.In(F32({3, 4})).In(I64({2, 4})).In(F32({2, 4})).Int("axis", -1);
  EXPECT_EQ(InferOut(g), "f32[3,4]");
  OpGraph alias("Scatter");
  alias.In(F32({1, 5})).In(I64({1, 2})).In(F32({1, 2})).Int("axis", 1);
  EXPECT_EQ(InferOut(alias), "f32[1,5]");
}

TEST(ScatterElements, Refusals) {
  OpGraph rank("ScatterElements", 1, "se");
  rank.In(F32({3, 4})).In(I64({4})).In(F32({4}));
  EXPECT_TRUE(FailsWith(rank, {"node se (ScatterElements)", "must have the rank of data"}));
  OpGraph upd("ScatterElements");
  upd.In(F32({3, 4})).In(I64({2, 4})).In(F32({2, 3}));
  EXPECT_TRUE(FailsWith(upd, {"must have the shape of indices"}));
  OpGraph red("ScatterElements");
  red.In(F32({3})).In(I64({1})).In(F32({1})).Attr("reduction", std::string("avg"));
  EXPECT_TRUE(FailsWith(red, {"reduction 'avg'"}));
  OpGraph axis("ScatterElements");
  axis.In(F32({3})).In(I64({1})).In(F32({1})).Int("axis", 1);
  EXPECT_TRUE(FailsWith(axis, {"out of range"}));
}

TEST(ScatterND, UpdatesMustMatchTheSlices) {
  OpGraph g("ScatterND");
  g.In(F32({4, 4, 4})).In(I64({2, 1})).In(F32({2, 4, 4}));
  EXPECT_EQ(InferOut(g), "f32[4,4,4]");
  OpGraph bad("ScatterND");
  bad.In(F32({4, 4, 4})).In(I64({2, 2})).In(F32({2, 4, 4}));
  EXPECT_TRUE(FailsWith(bad, {"updates f32[2,4,4] must be [2,4]"}));
  OpGraph deep("ScatterND");
  deep.In(F32({4})).In(I64({2, 2})).In(F32({2}));
  EXPECT_TRUE(FailsWith(deep, {"index more dims than data"}));
}

TEST(GatherND, OutputShape) {
  OpGraph g("GatherND");
  g.In(F32({2, 2})).In(I64({2, 2}));
  EXPECT_EQ(InferOut(g), "f32[2]");
  OpGraph rows("GatherND");
  rows.In(F32({2, 3, 4})).In(I64({5, 1}));
  EXPECT_EQ(InferOut(rows), "f32[5,3,4]");
  OpGraph batch("GatherND");
  batch.In(F32({2, 2, 2})).In(I64({2, 1})).Int("batch_dims", 1);
  EXPECT_EQ(InferOut(batch), "f32[2,2]");
  OpGraph unknown("GatherND");
  unknown.In(F32({2, 2})).In(I64({2, -1}));
  EXPECT_EQ(InferOut(unknown), "f32[*]");
}

TEST(GatherND, Refusals) {
  OpGraph many("GatherND", 1, "gnd");
  many.In(F32({2, 2})).In(I64({1, 3}));
  EXPECT_TRUE(FailsWith(many, {"node gnd (GatherND)", "index 3 dims"}));
  OpGraph batch("GatherND");
  batch.In(F32({2, 2})).In(I64({3, 1})).Int("batch_dims", 1);
  EXPECT_TRUE(FailsWith(batch, {"batch dim 0 differs"}));
  OpGraph b2("GatherND");
  b2.In(F32({2, 2})).In(I64({2, 1})).Int("batch_dims", 2);
  EXPECT_TRUE(FailsWith(b2, {"batch_dims 2"}));
}

}  // namespace
}  // namespace ge::test
