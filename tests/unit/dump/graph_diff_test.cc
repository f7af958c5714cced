// diff and --track on snapshots of hand-edited graphs.
#include <gtest/gtest.h>

#include "ge/tools/graph_diff.h"
#include "tests/unit/dump/dump_test_graphs.h"

namespace ge::tools::test {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

TEST(GraphDiff, IdenticalGraphsHaveNoDiff) {
  auto g = SubReluGraph();
  EXPECT_TRUE(DiffSnapshots(TakeSnapshot("parsed", *g), TakeSnapshot("p", *g->Clone())).empty());
}

TEST(GraphDiff, AddedRemovedAndChangedNodes) {
  auto g = SubReluGraph();
  const GraphSnapshot before = TakeSnapshot("parsed", *g);
  // "Fuse" sub+relu into one node named after the sub; change x's shape.
  Node* fused = g->AddNode("SubRelu", "sub_fused", 2, 1);
  ASSERT_TRUE(g->AddEdge(g->FindNode("x"), 0, fused, 0).ok());
  ASSERT_TRUE(g->AddEdge(g->FindNode("c"), 0, fused, 1).ok());
  ASSERT_TRUE(g->ReplaceAllUses({g->FindNode("relu"), 0}, {fused, 0}).ok());
  g->RemoveNode(g->FindNode("relu"));
  g->RemoveNode(g->FindNode("sub"));
  g->FindNode("c")->SetAttr("note", std::string("x"));
  const PassDiff d = DiffSnapshots(before, TakeSnapshot("fuse", *g));
  EXPECT_EQ(d.pass, "fuse");
  EXPECT_EQ(d.added, (std::vector<std::string>{"sub_fused (SubRelu)"}));
  EXPECT_EQ(d.removed, (std::vector<std::string>{"sub (Sub)", "relu (Relu)"}));
  ASSERT_EQ(d.changed.size(), 2u);  // c (attr) and out (input), in graph order
  EXPECT_EQ(d.changed[0].name, "c");
  EXPECT_TRUE(Contains(d.changed[0].details, "attr note added"));
  EXPECT_EQ(d.changed[1].name, "out");
  EXPECT_TRUE(Contains(d.changed[1].details, "input 0: relu:0 -> sub_fused:0"));
}

// Nodes inside a subgraph (a loop body) are diffed and tracked under
// "owner/subgraph/node", their inputs likewise.
TEST(GraphDiff, NodesInsideSubgraphsAreDiffedAndTrackedByPath) {
  auto g = SubReluGraph();
  Node* loop = g->AddNode("Loop", "loop", 0, 0);
  loop->subgraphs()["body"] = std::shared_ptr<Graph>(SubReluGraph().release());
  const GraphSnapshot before = TakeSnapshot("parsed", *g);
  ASSERT_TRUE(before.nodes.count("loop/body/relu"));
  EXPECT_EQ(before.nodes.at("loop/body/relu").inputs, (std::vector<std::string>{"loop/body/sub:0"}));
  loop->subgraphs()["body"]->FindNode("relu")->set_type("Sigmoid");
  const GraphSnapshot after = TakeSnapshot("p", *g);
  const PassDiff d = DiffSnapshots(before, after);
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].name, "loop/body/relu");
  EXPECT_TRUE(Contains(d.changed[0].details, "type Relu -> Sigmoid"));
  auto track = TrackNode({before, after}, "loop/body/relu");
  ASSERT_TRUE(track.ok()) << track.status().ToString();
}

TEST(GraphDiff, TypeAttrOutputAndConstantContentChangesAreNamed) {
  auto g = SubReluGraph();
  const GraphSnapshot before = TakeSnapshot("parsed", *g);
  g->FindNode("relu")->set_type("Sigmoid");
  g->FindNode("relu")->output_desc(0) = TensorDesc(DataType::kFloat32, {2, 3});
  g->FindNode("c")->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {2, 3}, std::vector<float>{-1, 2, 3, 4, 5, 6}));
  const PassDiff d = DiffSnapshots(before, TakeSnapshot("p", *g));
  ASSERT_EQ(d.changed.size(), 2u);
  EXPECT_TRUE(Contains(d.changed[0].details, "attr value:")) << "a constant's new bytes are a change";
  EXPECT_TRUE(Contains(d.changed[1].details, "type Relu -> Sigmoid"));
  EXPECT_TRUE(Contains(d.changed[1].details, "output 0:"));
}

TEST(GraphDiff, SwappedInputsAreAChange) {
  auto g = SubReluGraph();
  const GraphSnapshot before = TakeSnapshot("parsed", *g);
  Node* sub = g->FindNode("sub");
  g->RemoveInputEdge(sub, 0);
  g->RemoveInputEdge(sub, 1);
  ASSERT_TRUE(g->AddEdge(g->FindNode("c"), 0, sub, 0).ok());
  ASSERT_TRUE(g->AddEdge(g->FindNode("x"), 0, sub, 1).ok());
  const PassDiff d = DiffSnapshots(before, TakeSnapshot("p", *g));
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].details, (std::vector<std::string>{"input 0: x:0 -> c:0", "input 1: c:0 -> x:0"}));
}

TEST(GraphDiff, TrackFollowsANodeAndGuessesItsReplacement) {
  auto g = SubReluGraph();
  std::vector<GraphSnapshot> snaps;
  DigestCache cache;
  snaps.push_back(TakeSnapshot("parsed", *g, &cache));
  g->FindNode("relu")->SetAttr("alpha", 0.5f);
  snaps.push_back(TakeSnapshot("tweak", *g, &cache));
  snaps.push_back(TakeSnapshot("noop", *g, &cache));
  // relu folds into its producer: out now reads sub directly.
  ASSERT_TRUE(g->ReplaceAllUses({g->FindNode("relu"), 0}, {g->FindNode("sub"), 0}).ok());
  g->RemoveNode(g->FindNode("relu"));
  snaps.push_back(TakeSnapshot("fold", *g, &cache));
  snaps.push_back(TakeSnapshot("later", *g, &cache));
  auto steps = TrackNode(snaps, "relu");
  ASSERT_TRUE(steps.ok()) << steps.status().message();
  ASSERT_EQ(steps->size(), 5u);
  EXPECT_EQ((*steps)[0].state, TrackStep::State::kPresent);
  EXPECT_EQ((*steps)[1].state, TrackStep::State::kChanged);
  EXPECT_TRUE(Contains((*steps)[1].details, "attr alpha added"));
  EXPECT_EQ((*steps)[2].state, TrackStep::State::kPresent);
  EXPECT_EQ((*steps)[3].state, TrackStep::State::kRemoved);
  EXPECT_EQ((*steps)[3].replaced_by, (std::vector<std::string>{"sub (Sub)"}));
  EXPECT_EQ((*steps)[4].state, TrackStep::State::kAbsent);
}

TEST(GraphDiff, TrackGuessesByNamePrefixToo) {
  auto g = SubReluGraph();
  std::vector<GraphSnapshot> snaps{TakeSnapshot("parsed", *g)};
  Node* fused = g->AddNode("Relu", "relu_fused", 1, 1);
  ASSERT_TRUE(g->AddEdge(g->FindNode("sub"), 0, fused, 0).ok());
  ASSERT_TRUE(g->ReplaceAllUses({g->FindNode("relu"), 0}, {fused, 0}).ok());
  g->RemoveNode(g->FindNode("relu"));
  snaps.push_back(TakeSnapshot("rename", *g));
  auto steps = TrackNode(snaps, "relu");
  ASSERT_TRUE(steps.ok());
  EXPECT_EQ((*steps)[1].replaced_by, (std::vector<std::string>{"relu_fused (Relu)"}));
  auto added = TrackNode(snaps, "relu_fused");
  ASSERT_TRUE(added.ok());
  EXPECT_EQ((*added)[0].state, TrackStep::State::kAbsent);
  EXPECT_EQ((*added)[1].state, TrackStep::State::kAdded);
}

// Sub and Relu fuse into one new node: the Sub's consumer went too, so the
// guess looks one level further down (out now reads the fused node).
TEST(GraphDiff, TrackGuessesThroughAConsumerRemovedInTheSamePass) {
  auto g = SubReluGraph();
  std::vector<GraphSnapshot> snaps{TakeSnapshot("parsed", *g)};
  Node* fused = g->AddNode("SubRelu", "fused", 2, 1);
  ASSERT_TRUE(g->AddEdge(g->FindNode("x"), 0, fused, 0).ok());
  ASSERT_TRUE(g->AddEdge(g->FindNode("c"), 0, fused, 1).ok());
  ASSERT_TRUE(g->ReplaceAllUses({g->FindNode("relu"), 0}, {fused, 0}).ok());
  g->RemoveNode(g->FindNode("relu"));
  g->RemoveNode(g->FindNode("sub"));
  snaps.push_back(TakeSnapshot("fuse", *g));
  auto steps = TrackNode(snaps, "sub");
  ASSERT_TRUE(steps.ok());
  EXPECT_EQ((*steps)[1].state, TrackStep::State::kRemoved);
  EXPECT_EQ((*steps)[1].replaced_by, (std::vector<std::string>{"fused (SubRelu)"}));
}

TEST(GraphDiff, TrackingAnUnknownNodeIsAnErrorNamingIt) {
  auto g = SubReluGraph();
  auto steps = TrackNode({TakeSnapshot("parsed", *g)}, "relx");
  ASSERT_FALSE(steps.ok());
  EXPECT_EQ(steps.status().code(), StatusCode::kNotFound);
  EXPECT_NE(steps.status().message().find("relx"), std::string::npos);
  EXPECT_NE(steps.status().message().find("relu"), std::string::npos) << "suggests the similar name";
}

}  // namespace
}  // namespace ge::tools::test
