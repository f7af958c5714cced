#include "ge/ir/graph.h"

#include <gtest/gtest.h>

#include "ge/ir/text_form.h"
#include "ge/ir/verifier.h"
#include "tests/common/refusal.h"

namespace ge {
namespace {

// input -> relu -> NetOutput, with a Const feeding an Add.
std::unique_ptr<Graph> SmallGraph() {
  auto g = std::make_unique<Graph>("g");
  Node* in = g->AddNode(op::kData, "x", 0, 1);
  in->SetAttr("index", int64_t{0});
  in->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 4});
  Node* c = g->AddNode(op::kConst, "c", 0, 1);
  std::vector<float> v = {1, 2, 3, 4};
  c->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {1, 4}, v));
  c->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 4});
  Node* add = g->AddNode("Add", "add", 2, 1);
  Node* relu = g->AddNode("Relu", "relu", 1, 1);
  Node* out = g->AddNode(op::kNetOutput, "out", 1, 0);
  EXPECT_TRUE(g->AddEdge(in, 0, add, 0).ok());
  EXPECT_TRUE(g->AddEdge(c, 0, add, 1).ok());
  EXPECT_TRUE(g->AddEdge(add, 0, relu, 0).ok());
  EXPECT_TRUE(g->AddEdge(relu, 0, out, 0).ok());
  return g;
}

TEST(Graph, EdgesAreTwoSided) {
  auto g = SmallGraph();
  Node* add = g->FindNode("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->InputNode(0)->name(), "x");
  EXPECT_EQ(add->InputNode(1)->name(), "c");
  ASSERT_EQ(add->OutputConsumers(0).size(), 1u);
  EXPECT_EQ(add->OutputConsumers(0)[0].node->name(), "relu");
  EXPECT_TRUE(VerifyGraph(*g).ok());
}

TEST(Graph, DoubleConnectFails) {
  auto g = SmallGraph();
  Status s = g->AddEdge(g->FindNode("x"), 0, g->FindNode("add"), 0);
  EXPECT_TRUE(Refused(s, StatusCode::kInternal, "AddEdge: input 0 of add (Add) already connected"));
}

TEST(Graph, TopologicalOrderIsStableAndDetectsCycles) {
  auto g = SmallGraph();
  auto order = g->TopologicalOrder();
  ASSERT_TRUE(order.ok());
  std::vector<std::string> names;
  for (Node* n : *order) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "c", "add", "relu", "out"}));
  g->AddControlEdge(g->FindNode("relu"), g->FindNode("add"));
  EXPECT_TRUE(
      Refused(g->TopologicalOrder(), StatusCode::kInvalidArgument, "graph g has a cycle through node add (Add)"));
  EXPECT_TRUE(
      Refused(VerifyGraph(*g), StatusCode::kInternal, "verifier: graph g: graph g has a cycle through node add (Add)"));
}

TEST(Graph, RemoveNodeDisconnects) {
  auto g = SmallGraph();
  Node* relu = g->FindNode("relu");
  ASSERT_TRUE(g->ReplaceAllUses({relu, 0}, {g->FindNode("add"), 0}).ok());
  g->RemoveNode(relu);
  EXPECT_EQ(g->FindNode("relu"), nullptr);
  EXPECT_EQ(g->FindNode("out")->InputNode(0)->name(), "add");
  EXPECT_TRUE(VerifyGraph(*g).ok());
}

TEST(Graph, CloneIsDeepAndEqualInText) {
  auto g = SmallGraph();
  auto c = g->Clone();
  EXPECT_EQ(GraphToText(*g), GraphToText(*c));
  c->RemoveNode(c->FindNode("relu"));
  EXPECT_NE(g->FindNode("relu"), nullptr);
  EXPECT_NE(GraphToText(*g), GraphToText(*c));
}

TEST(Graph, TextFormIsReadable) {
  auto g = SmallGraph();
  std::string t = GraphToText(*g);
  EXPECT_NE(t.find("%add = Add(%x:0, %c:0) -> (undef[])"), std::string::npos) << t;
  EXPECT_NE(t.find("%c = Const[value=tensor<f32[1,4] [1,2,3,4]>]() -> (f32[1,4])"), std::string::npos) << t;
}

TEST(Verifier, CatchesBadInvariants) {
  auto g = SmallGraph();
  g->AddNode(op::kNetOutput, "out2", 1, 0);
  EXPECT_TRUE(Refused(VerifyGraph(*g), StatusCode::kInternal, "verifier: graph g: expected one NetOutput, found 2"));
  auto g2 = SmallGraph();
  Node* d = g2->AddNode(op::kData, "y", 0, 1);
  d->SetAttr("index", int64_t{0});
  Status s = VerifyGraph(*g2);
  EXPECT_TRUE(Refused(s, StatusCode::kInternal, "repeats index"));
  auto g3 = SmallGraph();
  g3->FindNode("c")->output_desc(0) = TensorDesc(DataType::kFloat32, {2, 4});
  g3->FindNode("c")->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {2, 4}, std::vector<float>{1, 2}));
  EXPECT_TRUE(Refused(VerifyGraph(*g3), StatusCode::kInternal,
                      "verifier: graph g: c (Const) value holds 8 bytes, its desc says 32"));
}

TEST(TensorDesc, Strings) {
  EXPECT_EQ(TensorDesc(DataType::kInt64, {-1, 128}).ToString(), "i64[?,128]");
  EXPECT_EQ(TensorDesc(DataType::kFloat32, {kUnknownRank}).ToString(), "f32[*]");
  EXPECT_FALSE(TensorDesc(DataType::kFloat32, {-1, 3}).is_static());
  EXPECT_EQ(TensorDesc(DataType::kFloat32, {2, 3}).Bytes(), 24);
}

TEST(TensorDesc, AdmitsConcreteDimsThatFit) {
  const TensorDesc d(DataType::kFloat32, {-1, 3});
  EXPECT_TRUE(d.Admits({5, 3}));
  EXPECT_FALSE(d.Admits({5, 4}));
  EXPECT_FALSE(d.Admits({5, 3, 1}));
  EXPECT_FALSE(d.Admits({-1, 3}));
  EXPECT_TRUE(TensorDesc(DataType::kFloat32, {kUnknownRank}).Admits({2, 2, 2}));
  EXPECT_TRUE(TensorDesc(DataType::kFloat32, {}).Admits({}));
}

}  // namespace
}  // namespace ge
