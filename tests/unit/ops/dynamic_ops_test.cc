// Inference of the ops whose output shapes only the computation knows
// (NonZero, NonMaxSuppression, Unique, Compress): what stays known without
// the data, what a constant condition decides, and the errors that name
// the node.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TensorDesc BoolDesc(Dims d) { return TensorDesc(DataType::kBool, std::move(d)); }
Tensor Bools(const std::vector<uint8_t>& v) {
  return Tensor::FromVector(DataType::kBool, {static_cast<int64_t>(v.size())}, v);
}

TEST(NonZero, RankRowsOfUnknownCount) {
  OpGraph g("NonZero");
  g.In(F32({2, 3}));
  EXPECT_EQ(InferOut(g), "i64[2,?]");
  OpGraph empty("NonZero");
  empty.In(F32({2, 0, -1}));
  EXPECT_EQ(InferOut(empty), "i64[3,0]");
  OpGraph scalar("NonZero");
  scalar.In(F32({}));
  EXPECT_EQ(InferOut(scalar), "i64[1,?]");
  OpGraph unranked("NonZero");
  unranked.In(F32({kUnknownRank}));
  EXPECT_EQ(InferOut(unranked), "i64[?,?]");
  EXPECT_TRUE(OpRegistry::Global().Find("NonZero")->computed_shape);
}

TEST(NonMaxSuppression, SelectedTriplesAndOperandChecks) {
  OpGraph g("NonMaxSuppression");
  g.In(F32({1, 6, 4})).In(F32({1, 2, 6})).Const(I64s({3})).Const(F32Scalar(0.5f)).Const(F32Scalar(0.f));
  EXPECT_EQ(InferOut(g), "i64[?,3]");
  OpGraph no_max("NonMaxSuppression");
  no_max.In(F32({1, 6, 4})).In(F32({1, 2, 6}));
  EXPECT_EQ(InferOut(no_max), "i64[0,3]");  // without max_output_boxes_per_class nothing is selected
  OpGraph corners("NonMaxSuppression");
  corners.In(F32({1, 6, 5})).In(F32({1, 2, 6}));
  EXPECT_TRUE(FailsWith(corners, {"boxes must be [batches, boxes, 4]"}));
  OpGraph count("NonMaxSuppression");
  count.In(F32({1, 6, 4})).In(F32({1, 2, 5}));
  EXPECT_TRUE(FailsWith(count, {"disagree on the number of boxes"}));
  OpGraph two("NonMaxSuppression");
  two.In(F32({1, 6, 4})).In(F32({1, 2, 6})).Const(I64s({3, 4}));
  EXPECT_TRUE(FailsWith(two, {"max_output_boxes_per_class (input 2) must hold one value"}));
  OpGraph center("NonMaxSuppression");
  center.In(F32({1, 6, 4})).In(F32({1, 2, 6})).Int("center_point_box", 2);
  EXPECT_TRUE(FailsWith(center, {"center_point_box must be 0 or 1"}));
}

TEST(Unique, DistinctCountUnknownInverseKnown) {
  OpGraph flat("Unique", 4);
  flat.In(F32({2, 3}));
  EXPECT_EQ(InferOut(flat, 0), "f32[?]");
  EXPECT_EQ(InferOut(flat, 1), "i64[?]");
  EXPECT_EQ(InferOut(flat, 2), "i64[6]");  // one per input element
  EXPECT_EQ(InferOut(flat, 3), "i64[?]");
  OpGraph axis("Unique", 3);
  axis.In(F32({2, 3, 4})).Int("axis", -2);
  EXPECT_EQ(InferOut(axis, 0), "f32[2,?,4]");
  EXPECT_EQ(InferOut(axis, 2), "i64[3]");
  OpGraph one("Unique");
  one.In(F32({1, 1}));
  EXPECT_EQ(InferOut(one), "f32[1]");  // one element is distinct
  OpGraph bad("Unique");
  bad.In(F32({2, 3})).Int("axis", 2);
  EXPECT_TRUE(FailsWith(bad, {"axis 2 is out of range"}));
}

TEST(Compress, AConstantConditionDecidesTheLength) {
  OpGraph runtime("Compress");
  runtime.In(F32({3, 2})).In(BoolDesc({3})).Int("axis", 0);
  EXPECT_EQ(InferOut(runtime), "f32[?,2]");
  OpGraph rows("Compress");
  rows.In(F32({3, 2})).Const(Bools({0, 1, 1})).Int("axis", 0);
  EXPECT_EQ(InferOut(rows), "f32[2,2]");
  OpGraph flat("Compress");
  flat.In(F32({3, 2})).Const(Bools({0, 1, 0, 0, 1}));
  EXPECT_EQ(InferOut(flat), "f32[2]");
  OpGraph longer("Compress");  // entries beyond the axis are ignored
  longer.In(F32({3, 2})).Const(Bools({1, 0, 1, 1})).Int("axis", 0);
  EXPECT_EQ(InferOut(longer), "f32[2,2]");
  OpGraph ints("Compress");
  ints.In(F32({3, 2})).Const(I64s({0, 1, 1}));
  EXPECT_TRUE(FailsWith(ints, {"must be bool"}));
  OpGraph matrix("Compress");
  matrix.In(F32({3, 2})).In(BoolDesc({3, 1}));
  EXPECT_TRUE(FailsWith(matrix, {"condition must be 1-D"}));
}

}  // namespace
}  // namespace ge::test
