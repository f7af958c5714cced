// Tiny graphs for the ge-dump unit tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "ge/ir/graph.h"

namespace ge::tools::test {

// x(f32[2,3]) - c(f32[2,3]) -> relu -> NetOutput. Sub is not commutative, so
// swapping its inputs changes the result.
inline std::unique_ptr<Graph> SubReluGraph() {
  auto g = std::make_unique<Graph>("sub_relu");
  Node* x = g->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = TensorDesc(DataType::kFloat32, {2, 3});
  Node* c = g->AddNode(op::kConst, "c", 0, 1);
  c->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {2, 3}, std::vector<float>{1, 2, 3, 4, 5, 6}));
  c->output_desc(0) = TensorDesc(DataType::kFloat32, {2, 3});
  Node* sub = g->AddNode("Sub", "sub", 2, 1);
  Node* relu = g->AddNode("Relu", "relu", 1, 1);
  Node* out = g->AddNode(op::kNetOutput, "out", 1, 0);
  EXPECT_TRUE(g->AddEdge(x, 0, sub, 0).ok());
  EXPECT_TRUE(g->AddEdge(c, 0, sub, 1).ok());
  EXPECT_TRUE(g->AddEdge(sub, 0, relu, 0).ok());
  EXPECT_TRUE(g->AddEdge(relu, 0, out, 0).ok());
  return g;
}

}  // namespace ge::tools::test
