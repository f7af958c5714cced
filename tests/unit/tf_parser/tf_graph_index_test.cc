// Input references, graph outputs and the topological order of a GraphDef.
#include "parsers/tensorflow/tf_graph_index.h"

#include <gtest/gtest.h>

#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::tf_parser {
namespace {

using test::TfGraph;

TEST(TfGraphIndex, InputReferences) {
  auto a = ParseInputRef("conv1/Conv2D");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->node, "conv1/Conv2D");
  EXPECT_EQ(a->index, 0);
  EXPECT_FALSE(a->control);
  auto b = ParseInputRef("bn:2");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->node, "bn");
  EXPECT_EQ(b->index, 2);
  auto c = ParseInputRef("^init");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->control);
  EXPECT_EQ(c->node, "init");
  for (const char* bad : {"", "^", "a:", "a:x", ":1", "a:1:2", "^a:1"})
    EXPECT_TRUE(Refused(ParseInputRef(bad), StatusCode::kInvalidArgument,
                        "' is not an input reference (\"name\", \"name:k\" or \"^name\")"))
        << bad;
}

TEST(TfGraphIndex, BrokenGraphsAreErrorsNamingTheNode) {
  TfGraph dup;
  dup.Placeholder("x", {1});
  dup.Placeholder("x", {1});
  EXPECT_NE(TfGraphIndex::Build(dup.def()).status().message().find("'x'"), std::string::npos);
  TfGraph missing;
  missing.Node("Relu", "r", {"nowhere"});
  auto m = TfGraphIndex::Build(missing.def());
  ASSERT_TRUE(Refused(m, StatusCode::kInvalidArgument, "r (Relu)"));
  EXPECT_NE(m.status().message().find("nowhere"), std::string::npos);
}

TEST(TfGraphIndex, DefaultOutputsAreTheUnconsumedNodes) {
  TfGraph g;
  g.Placeholder("x", {2});
  g.ConstF("unused_const", {1}, {1.f});
  g.Node("Relu", "a", {"x"});
  g.Node("Tanh", "b", {"a"});
  g.Node("Sigmoid", "c", {"a"});
  g.Node("NoOp", "init", {"^b"});
  auto idx = TfGraphIndex::Build(g.def());
  ASSERT_TRUE(idx.ok());
  auto outs = idx->Outputs({});
  ASSERT_TRUE(outs.ok());
  // b is consumed (by init's control input); the const and the NoOp never count.
  ASSERT_EQ(outs->size(), 1u);
  EXPECT_EQ((*outs)[0].node, "c");
  auto chosen = idx->Outputs({"b", "a:0"});
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ((*chosen)[0].node, "b");
  EXPECT_TRUE(
      Refused(idx->Outputs({"zz"}), StatusCode::kInvalidArgument, "--out_nodes: 'zz' names no node of the graph"));
  EXPECT_TRUE(
      Refused(idx->Outputs({"^a"}), StatusCode::kInvalidArgument, "--out_nodes: '^a' is not \"name\" or \"name:k\""));
  // Only what the outputs depend on is converted.
  auto deps = idx->DependenciesOf(*outs);
  std::vector<std::string> names;
  for (auto* n : deps) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "a", "c"}));
}

TEST(TfGraphIndex, TopologicalOrderFollowsInputsNotFileOrder) {
  TfGraph g;
  g.Node("Relu", "late", {"early"});
  g.Node("Tanh", "early", {"x"});
  g.Placeholder("x", {2});
  auto idx = TfGraphIndex::Build(g.def());
  ASSERT_TRUE(idx.ok());
  auto order = idx->TopologicalOrder(idx->DependenciesOf({{"late", 0, false}}));
  ASSERT_TRUE(order.ok());
  std::vector<std::string> names;
  for (auto* n : *order) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"x", "early", "late"}));
}

TEST(TfGraphIndex, CyclesAreUnsupported) {
  TfGraph g;
  g.Node("Merge", "m", {"next"});
  g.Node("NextIteration", "next", {"m"});
  auto idx = TfGraphIndex::Build(g.def());
  ASSERT_TRUE(idx.ok());
  auto order = idx->TopologicalOrder(idx->DependenciesOf({{"m", 0, false}}));
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(order.status().message().find("cycle"), std::string::npos);
}

}  // namespace
}  // namespace ge::tf_parser
