// DynamicShapePartitioner on tiny graphs: one test per merge rule
// (static-executor.txt §6.1) and the PartitionedCall rewrite.
#include "compiler/partition/dynamic_shape_partitioner.h"
#include "pass_test_util.h"

namespace ge::test {
namespace {

using partition::Cluster;
using partition::ClusterType;

TensorDesc I64(Dims d) { return TensorDesc(DataType::kInt64, std::move(d)); }

// "TYPE{a,b}" per cluster, in order.
std::vector<std::string> Describe(const std::vector<Cluster>& clusters) {
  std::vector<std::string> out;
  for (const Cluster& c : clusters) {
    std::string s = std::string(partition::ClusterTypeName(c.type)) + "{";
    for (size_t i = 0; i < c.nodes.size(); ++i) s += (i ? "," : "") + c.nodes[i]->name();
    out.push_back(s + "}");
  }
  return out;
}

std::vector<std::string> Clusters(TinyGraph& t) {
  EXPECT_TRUE(t.Infer().ok());
  auto c = partition::ComputeClusters(t.g());
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? Describe(*c) : std::vector<std::string>{};
}

TEST(DynamicShapePartition, AStaticGraphIsOneKnownCluster) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* r = t.Op("Relu", "r", {x});
  t.Output({t.Op("Sigmoid", "s", {r})});
  EXPECT_EQ(Clusters(t), (std::vector<std::string>{"DATA{x}", "KNOWN_SHAPE{r,s}", "NETOUTPUT{out}"}));
  EXPECT_TRUE(partition::IsStaticGraph(t.g()));
}

// Rule 1: the known Mul between Shape and Reshape (both unknown) is on a
// path between unknown clusters, so it becomes unknown with them.
TEST(DynamicShapePartition, UnknownClustersSwallowTheKnownNodesBetweenThem) {
  TinyGraph t;
  Node* x = t.Data("x", F32({-1, 4}));
  Node* a = t.Op("Relu", "a", {x});
  Node* s = t.Op("Shape", "s", {a});                 // unknown input, static output i64[2]
  Node* k = t.Op("Mul", "k", {s, t.Const("two", I64s({1, 2}))});  // known on its own
  Node* u = t.Op("Reshape", "u", {a, k});
  t.Output({u});
  EXPECT_EQ(Clusters(t), (std::vector<std::string>{"DATA{x}", "UNKNOWN_SHAPE{a,s,k,u}", "NETOUTPUT{out}"}));
}

// Rule 2: a known cluster absorbs a known input cluster when their edge is
// the only path; k1 -> (unknown u, s) -> c -> k2 is a second path from k1 to
// k2, so k1 stays apart while c joins k2.
TEST(DynamicShapePartition, KnownClustersMergeOnlyOverTheirOnlyPath) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 2}));
  Node* y = t.Data("y", I64({2}));  // a shape whose values arrive at run time
  Node* k1 = t.Op("Relu", "k1", {x});
  Node* u = t.Op("Reshape", "u", {k1, y});
  Node* s = t.Op("Shape", "s", {u});
  Node* c = t.Op("Cast", "c", {s}, {{"to", int64_t{1}}});
  Node* k2 = t.Op("Add", "k2", {k1, c});
  t.Output({k2});
  EXPECT_EQ(Clusters(t), (std::vector<std::string>{"DATA{x,y}", "KNOWN_SHAPE{k1}", "UNKNOWN_SHAPE{u,s}",
                                                   "KNOWN_SHAPE{c,k2}", "NETOUTPUT{out}"}));
}

// Rule 2 without a second path: a chain of known nodes is one cluster even
// when an unknown branch runs beside it. Rule 3: the Data clusters merge.
TEST(DynamicShapePartition, KnownChainsMergeAndDataClustersMerge) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* y = t.Data("y", F32({-1, 4}));
  Node* r1 = t.Op("Relu", "r1", {x});
  Node* r2 = t.Op("Sigmoid", "r2", {r1});
  Node* u = t.Op("Relu", "u", {y});
  t.Output({r2, u});
  EXPECT_EQ(Clusters(t), (std::vector<std::string>{"DATA{x,y}", "KNOWN_SHAPE{r1,r2}", "UNKNOWN_SHAPE{u}",
                                                   "NETOUTPUT{out}"}));
}

TEST(DynamicShapePartition, KnownClustersBecomePartitionedCallsWithTheirConstants) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* y = t.Data("y", F32({-1, 4}));
  Node* bias = t.Const("bias", F32s({4}, {1, 2, 3, 4}));
  Node* k = t.Op("Add", "k", {x, bias});
  Node* k2 = t.Op("Relu", "k2", {k});
  Node* u = t.Op("Add", "u", {y, bias});  // the constant is read on both sides
  t.Output({k2, u, k});
  ASSERT_TRUE(t.RunPass(DynamicShapePartitionPass()).ok());
  Node* call = t.Find(op::kPartitionedCall);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(t.Count(op::kPartitionedCall), 1);
  EXPECT_EQ(t.Count("Relu"), 0);
  EXPECT_EQ(t.Count("Add"), 1);   // u stays in the root
  EXPECT_EQ(t.Count(op::kConst), 1);  // still read by u
  EXPECT_EQ(call->num_inputs(), 1u);
  EXPECT_EQ(call->InputNode(0), x);
  ASSERT_EQ(call->num_outputs(), 2u);  // k2 and k, in producer order
  EXPECT_EQ(call->output_desc(0), F32({2, 4}));
  Node* out = t.g().OutputNode();
  EXPECT_EQ(out->InputSource(0), (Endpoint{call, 1}));
  EXPECT_EQ(out->InputSource(2), (Endpoint{call, 0}));
  const Graph& sub = *call->subgraphs().at("f");
  EXPECT_TRUE(VerifyGraph(sub).ok());
  EXPECT_EQ(sub.InputNodes().size(), 1u);
  EXPECT_NE(sub.FindNode("bias"), nullptr);
  EXPECT_NE(sub.FindNode("k2"), nullptr);
  EXPECT_EQ(sub.OutputNode()->num_inputs(), 2u);
  EXPECT_EQ(sub.OutputNode()->InputNode(0)->name(), "k");
  EXPECT_EQ(sub.OutputNode()->InputNode(1)->name(), "k2");
}

TEST(DynamicShapePartition, AStaticGraphIsLeftAlone) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  t.Output({t.Op("Relu", "r", {x})});
  ASSERT_TRUE(t.RunPass(DynamicShapePartitionPass()).ok());
  EXPECT_EQ(t.Count(op::kPartitionedCall), 0);
  EXPECT_EQ(t.Count("Relu"), 1);
}

TEST(DynamicShapePartition, CompileGivesADynamicModelWithAPlanPerPartition) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* y = t.Data("y", F32({-1, 4}));
  Node* k = t.Op("Sigmoid", "k", {t.Op("Relu", "r", {x})});
  t.Output({k, t.Op("Relu", "u", {y})});
  CompileOptions co;
  co.verify_each_pass = true;
  auto m = Compile(t.Clone(), co);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->dynamic);
  EXPECT_TRUE(m->memory.empty());
  ASSERT_EQ(m->partitions.size(), 1u);
  EXPECT_EQ(m->partitions[0].inputs.size(), 1u);
  EXPECT_EQ(m->partitions[0].outputs.size(), 1u);
  EXPECT_FALSE(m->partitions[0].memory.empty());
  EXPECT_FALSE(m->partitions[0].streams.empty());
  EXPECT_EQ(m->inputs[1].desc, F32({-1, 4}));
}

}  // namespace
}  // namespace ge::test
