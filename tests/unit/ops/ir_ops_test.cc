#include "ops_test_util.h"
#include "tests/common/refusal.h"

namespace ge::test {
namespace {

TEST(IrOps, DataKeepsItsDescription) {
  Graph g;
  Node* d = g.AddNode(op::kData, "x", 0, 1);
  d->SetAttr("index", int64_t{0});
  d->output_desc(0) = TensorDesc(DataType::kFloat16, {-1, 3}, Format::kNCHW);
  ASSERT_TRUE(InferNode(*d, nullptr).ok());
  EXPECT_EQ(d->output_desc(0), TensorDesc(DataType::kFloat16, {-1, 3}, Format::kNCHW));
}

TEST(IrOps, ConstTakesItsValuesDescription) {
  Graph g;
  Node* c = g.AddNode(op::kConst, "w", 0, 1);
  c->SetAttr("value", Tensor::FromVector(DataType::kInt32, {2, 2}, std::vector<int32_t>{1, 2, 3, 4}));
  ASSERT_TRUE(InferNode(*c, nullptr).ok());
  EXPECT_EQ(c->output_desc(0).ToString(), "i32[2,2]");
}

TEST(IrOps, ConstWithoutValueIsAnError) {
  Graph g;
  Node* c = g.AddNode(op::kConst, "w", 0, 1);
  Status s = InferNode(*c, nullptr);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "node w (Const): has no 'value' tensor"));
}

TEST(IrOps, NetOutputHasNoOutputs) {
  OpGraph g("Relu");
  g.In(F32({3}));
  ASSERT_TRUE(g.Infer().ok());
  Node* out = g.graph().FindNode("out");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->num_outputs(), 0u);
  EXPECT_EQ(out->input_desc(0).ToString(), "f32[3]");  // kept in step with the producer
}

}  // namespace
}  // namespace ge::test
