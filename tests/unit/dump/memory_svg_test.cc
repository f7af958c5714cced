// The memory plan's SVG and summary from a hand-built plan, and the dot form.
#include "ge/tools/memory_svg.h"

#include <gtest/gtest.h>

#include "ge/tools/dot.h"
#include "tests/common/refusal.h"
#include "tests/unit/dump/dump_test_graphs.h"

namespace ge::tools::test {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

// Four steps; a and b alive at once, c reuses a's offset; one weight, one input.
MemoryPlan HandBuiltPlan() {
  MemoryPlan p;
  p.order = {"x", "a", "b", "c"};
  p.feature_map_size = 2048;
  p.lower_bound = 2048;
  p.no_reuse_size = 3072;
  p.weights_size = 64;
  p.input_size = 256;
  auto buf = [](std::string node, Segment seg, int64_t symbol, int64_t off, int64_t size, int first, int last) {
    BufferPlan b;
    b.node = std::move(node);
    b.segment = seg;
    b.symbol = symbol;
    b.offset = off;
    b.size = size;
    b.first_use = first;
    b.last_use = last;
    return b;
  };
  p.buffers = {buf("w<1>", Segment::kWeights, 0, 0, 64, 0, 3), buf("x", Segment::kInput, 1, 0, 256, 0, 1),
               buf("a", Segment::kFeatureMap, 2, 0, 1024, 1, 2), buf("b", Segment::kFeatureMap, 3, 1024, 1024, 2, 3),
               buf("c", Segment::kFeatureMap, 4, 0, 1024, 3, 3)};
  return p;
}

TEST(MemorySvg, OneRectanglePerBufferWithTooltipAndLabel) {
  auto svg = PlanToSvg(HandBuiltPlan(), "hand");
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  const std::string& s = *svg;
  EXPECT_EQ(s.rfind("<?xml", 0), 0u);
  EXPECT_NE(s.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(s.find("</svg>"), std::string::npos);
  // Weights are left out: four buffers drawn, in two panels.
  EXPECT_EQ(Count(s, "<g class=\"buffer\">"), 4u);
  EXPECT_EQ(Count(s, "<g class=\"segment\""), 2u);
  EXPECT_EQ(s.find("w&lt;1&gt;"), std::string::npos);
  EXPECT_NE(s.find("<title>a:0\nsize 1.0 KiB (1024 B), offset 0\nsteps 1..2"), std::string::npos) << s;
  EXPECT_NE(s.find("<title>b:0\nsize 1.0 KiB (1024 B), offset 1024\nsteps 2..3"), std::string::npos);
  EXPECT_NE(s.find(">a</text>"), std::string::npos) << "big rectangles carry their node's name";
  EXPECT_NE(s.find("lower bound 2.0 KiB"), std::string::npos);
  // Same bytes every time (it is a file people diff and check in).
  EXPECT_EQ(*PlanToSvg(HandBuiltPlan(), "hand"), s);
}

TEST(MemorySvg, GeometryFollowsStepsAndOffsets) {
  auto svg = PlanToSvg(HandBuiltPlan(), "hand");
  ASSERT_TRUE(svg.ok());
  // Plot: x from 90 over 1090 px for 4 steps (272.5 px each); the feature-map
  // panel is 360 px for 2048 bytes. b: steps 2..3, offset 1024 -> y = top + 180.
  const std::string& s = *svg;
  const size_t b = s.find("<title>b:0");
  ASSERT_NE(b, std::string::npos);
  const std::string rect = s.substr(s.find("<rect", b), 80);
  EXPECT_NE(rect.find("x=\"635.0\""), std::string::npos) << rect;
  EXPECT_NE(rect.find("width=\"545.0\""), std::string::npos) << rect;
  EXPECT_NE(rect.find("height=\"180.0\""), std::string::npos) << rect;
}

TEST(MemorySvg, AnEmptyPlanIsAnErrorNamingTheModel) {
  auto svg = PlanToSvg(MemoryPlan{}, "model.om");
  ASSERT_TRUE(Refused(svg, StatusCode::kInvalidArgument, "model.om"));
  EXPECT_NE(svg.status().message().find("no memory plan"), std::string::npos);
}

TEST(MemorySvg, SummaryGivesPeakLowerBoundAndNoReuse) {
  const std::string s = PlanSummary(HandBuiltPlan());
  EXPECT_NE(s.find("feature-map peak: 2048 B"), std::string::npos) << s;
  EXPECT_NE(s.find("lower bound:      2048 B"), std::string::npos) << s;
  EXPECT_NE(s.find("peak/lower bound 1.000x"), std::string::npos) << s;
  EXPECT_NE(s.find("no-reuse sum:     3072 B"), std::string::npos) << s;
  EXPECT_NE(s.find("steps: 4, buffers: 5"), std::string::npos) << s;
}

TEST(Dot, NodesLabelledWithTypeAndNameEdgesWithShapes) {
  auto g = SubReluGraph();
  g->FindNode("sub")->output_desc(0) = TensorDesc(DataType::kFloat32, {2, 3});
  g->AddControlEdge(g->FindNode("c"), g->FindNode("relu"));
  g->FindNode("relu")->set_name("re\"lu");  // quotes in names are escaped
  const std::string d = GraphToDot(*g);
  EXPECT_EQ(d.rfind("digraph \"sub_relu\" {", 0), 0u) << d;
  EXPECT_NE(d.find("[label=\"Sub\\nsub\""), std::string::npos) << d;
  EXPECT_NE(d.find("[label=\"Relu\\nre\\\"lu\""), std::string::npos) << d;
  EXPECT_NE(d.find("n2 -> n3 [label=\"f32[2,3]\"]"), std::string::npos) << d;
  EXPECT_NE(d.find("style=dashed"), std::string::npos) << d;
  EXPECT_EQ(Count(d, " -> "), 5u);  // four data edges, one control edge
}

// A dynamic model's root graph: the PartitionedCall drawn as a cluster of its
// subgraph, edges wired to the subgraph's Data and NetOutput producers, the
// unknown-shape node orange.
TEST(Dot, PartitionsAreClustersAndUnknownShapesOrange) {
  auto sub = std::make_shared<Graph>("part");
  Node* d = sub->AddNode(op::kData, "p_in", 0, 1);
  d->SetAttr("index", int64_t{0});
  Node* r = sub->AddNode("Relu", "inner_relu", 1, 1);
  ASSERT_TRUE(sub->AddEdge(d, 0, r, 0).ok());
  Node* o = sub->AddNode(op::kNetOutput, "p_out", 1, 0);
  ASSERT_TRUE(sub->AddEdge(r, 0, o, 0).ok());
  Graph g("root");
  Node* x = g.AddNode(op::kData, "x", 0, 1);
  Node* call = g.AddNode(op::kPartitionedCall, "partitioned_call_0", 1, 1);
  call->subgraphs()["f"] = sub;
  ASSERT_TRUE(g.AddEdge(x, 0, call, 0).ok());
  Node* u = g.AddNode("Relu", "dyn", 1, 1);
  u->output_desc(0) = TensorDesc(DataType::kFloat32, {-1, 4});
  ASSERT_TRUE(g.AddEdge(call, 0, u, 0).ok());
  Node* out = g.AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(g.AddEdge(u, 0, out, 0).ok());
  const std::string dot = GraphToDot(g);
  EXPECT_NE(dot.find("subgraph cluster_"), std::string::npos) << dot;
  EXPECT_NE(dot.find("partitioned_call_0 (known shape"), std::string::npos) << dot;
  EXPECT_NE(dot.find("inner_relu"), std::string::npos) << dot;
  EXPECT_NE(dot.find("fillcolor=orange"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("PartitionedCall\\n"), std::string::npos) << dot;  // the call itself is the cluster
  EXPECT_EQ(Count(dot, " -> "), 5u) << dot;  // x->p_in, p_in->inner_relu, inner_relu->p_out and ->dyn, dyn->out
}

// A gear model's root graph: each gear of the GearCase a cluster, the root
// input wired to every gear's Data, every gear's output to NetOutput.
TEST(Dot, GearsAreOneClusterEach) {
  auto gear = [](const std::string& name) {
    auto sub = std::make_shared<Graph>(name);
    Node* d = sub->AddNode(op::kData, name + "_in", 0, 1);
    d->SetAttr("index", int64_t{0});
    Node* r = sub->AddNode("Relu", name + "_relu", 1, 1);
    EXPECT_TRUE(sub->AddEdge(d, 0, r, 0).ok());
    Node* o = sub->AddNode(op::kNetOutput, name + "_out", 1, 0);
    EXPECT_TRUE(sub->AddEdge(r, 0, o, 0).ok());
    return sub;
  };
  Graph g("root");
  Node* x = g.AddNode(op::kData, "x", 0, 1);
  Node* gc = g.AddNode(op::kGearCase, "gear_case", 1, 1);
  gc->subgraphs()["gear0"] = gear("gear0");
  gc->subgraphs()["gear1"] = gear("gear1");
  ASSERT_TRUE(g.AddEdge(x, 0, gc, 0).ok());
  Node* out = g.AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(g.AddEdge(gc, 0, out, 0).ok());
  const std::string dot = GraphToDot(g);
  EXPECT_EQ(Count(dot, "subgraph cluster_"), 2u) << dot;
  EXPECT_NE(dot.find("gear_case gear1 (static"), std::string::npos) << dot;
  EXPECT_EQ(Count(dot, " -> "), 8u) << dot;  // per gear: x->in, in->relu, relu->out, relu->root out
}

// Control flow: the If node itself, and each branch a dashed cluster beside
// it with its own edges.
TEST(Dot, ControlFlowSubgraphsAreClustersBesideTheirNode) {
  auto branch = [](const std::string& name) {
    auto sub = std::make_shared<Graph>(name);
    Node* d = sub->AddNode(op::kData, name + "_x", 0, 1);
    d->SetAttr("index", int64_t{0});
    Node* o = sub->AddNode(op::kNetOutput, name + "_out", 1, 0);
    EXPECT_TRUE(sub->AddEdge(d, 0, o, 0).ok());
    return sub;
  };
  Graph g("root");
  Node* c = g.AddNode(op::kData, "cond", 0, 1);
  Node* n = g.AddNode("If", "if1", 1, 1);
  n->subgraphs()["then_branch"] = branch("then");
  n->subgraphs()["else_branch"] = branch("else");
  ASSERT_TRUE(g.AddEdge(c, 0, n, 0).ok());
  Node* out = g.AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(g.AddEdge(n, 0, out, 0).ok());
  const std::string dot = GraphToDot(g);
  EXPECT_NE(dot.find("If\\nif1"), std::string::npos) << dot;
  EXPECT_EQ(Count(dot, "subgraph cluster_"), 2u) << dot;
  EXPECT_NE(dot.find("if1 then_branch"), std::string::npos) << dot;
  EXPECT_EQ(Count(dot, " -> "), 4u) << dot;  // cond->if1, if1->out, and one inside each branch
}

}  // namespace
}  // namespace ge::tools::test
