// Stream assignment and event insertion on tiny graphs compiled end to end:
// what goes where, which record/wait pairs appear, where nothing may change.
#include <gtest/gtest.h>

#include <cstring>

#include "compiler/memory/memory_planner.h"
#include "compiler/streams/streams.h"
#include "compiler/tasks/task_builder.h"
#include "ge/om.h"
#include "ge/runtime.h"
#include "tests/common/refusal.h"
#include "tests/unit/streams/graph_builder.h"

namespace ge::streams::test {
namespace {

using V = std::vector<std::string>;

// x -> a=Sigmoid -> {b=Tanh, c=Relu} -> d=Add(b, c) -> out
std::unique_ptr<Graph> Diamond() {
  G b;
  Node* x = b.Data("x");
  Node* a = b.Op("Sigmoid", "a", {x});
  Node* bb = b.Op("Tanh", "b", {a});
  Node* c = b.Op("Relu", "c", {a});
  b.Out({b.Op("Add", "d", {bb, c})});
  return std::move(b.g);
}

// x -> a -> {b1..b4} -> s1=Add(b1,b2) -> s2=Add(s1,b3) -> s3=Add(s2,b4) -> out
std::unique_ptr<Graph> FourBranches() {
  G b;
  Node* a = b.Op("Sigmoid", "a", {b.Data("x")});
  Node* b1 = b.Op("Tanh", "b1", {a});
  Node* b2 = b.Op("Relu", "b2", {a});
  Node* b3 = b.Op("Exp", "b3", {a});
  Node* b4 = b.Op("Neg", "b4", {a});
  Node* s1 = b.Op("Add", "s1", {b1, b2});
  Node* s2 = b.Op("Add", "s2", {s1, b3});
  b.Out({b.Op("Add", "s3", {s2, b4})});
  return std::move(b.g);
}

std::vector<float> RunV2(const Model& m) {
  auto l = LoadModel(m, RunMode::kV2);
  EXPECT_TRUE(l.ok()) << l.status().ToString();
  if (!l.ok()) return {};
  std::vector<float> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = -2.f + 0.25f * static_cast<float>(i);
  EXPECT_TRUE((*l)->Execute({in.data()}, {out.data()}).ok());
  return out;
}

TEST(Streams, ADiamondGetsTwoStreamsAndOneRecordWaitPairPerCrossEdge) {
  Model m = CompileWith(Diamond(), 2);
  ASSERT_EQ(m.streams.size(), 2u);
  // The heavier/first branch stays in line with a and d; c runs beside it.
  EXPECT_EQ(Describe(m.streams[0]), (V{"K:a", "R0", "K:b", "W1", "K:d"}));
  EXPECT_EQ(Describe(m.streams[1]), (V{"W0", "K:c", "R1"}));
  // Event tasks name the kernel they follow / precede and carry no arguments.
  EXPECT_EQ(m.streams[0].tasks[1].node, "a");
  EXPECT_EQ(m.streams[1].tasks[0].node, "c");
  EXPECT_TRUE(m.streams[1].tasks[0].inputs.empty());
  EXPECT_EQ(m.streams[1].tasks[0].kernel, -1);
  // Kernel ids: stream 0's, then stream 1's.
  EXPECT_EQ(m.streams[0].tasks[0].kernel, 0);
  EXPECT_EQ(m.streams[0].tasks[4].kernel, 2);
  EXPECT_EQ(m.streams[1].tasks[1].kernel, 3);
  EXPECT_TRUE(CheckEventGraph(m.streams).ok());
  EXPECT_EQ(RunV2(m), RunV2(CompileWith(Diamond(), 1)));
}

TEST(Streams, AChainStaysOnOneStream) {
  G b;
  Node* n = b.Data("x");
  for (const char* t : {"Sigmoid", "Tanh", "Relu", "Exp"}) n = b.Op(t, std::string("n_") + t, {n});
  b.Out({n});
  Model m = CompileWith(std::move(b.g), 4);
  ASSERT_EQ(m.streams.size(), 1u);
  EXPECT_EQ(Describe(m.streams[0]), (V{"K:n_Sigmoid", "K:n_Tanh", "K:n_Relu", "K:n_Exp"}));
}

TEST(Streams, OneStreamIsExactlyTheSingleStreamPlanAndTasks) {
  Model m = CompileWith(Diamond(), 1);
  ASSERT_EQ(m.streams.size(), 1u);
  memory::PlanOptions o;  // no schedule: the plan of before the streams stage
  auto plan = memory::PlanMemory(*m.graph, o);
  ASSERT_TRUE(plan.ok());
  auto tasks = tasks::BuildTasks(*m.graph, *plan);
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ(m.memory.feature_map_size, plan->feature_map_size);
  EXPECT_EQ(m.memory.order, plan->order);
  ASSERT_EQ(m.memory.buffers.size(), plan->buffers.size());
  for (size_t i = 0; i < plan->buffers.size(); ++i) {
    EXPECT_EQ(m.memory.buffers[i].offset, plan->buffers[i].offset);
    EXPECT_EQ(m.memory.buffers[i].symbol, plan->buffers[i].symbol);
  }
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ(Describe(m.streams[0]), Describe((*tasks)[0]));
  // And the .om bytes: stream_num 1 records nothing new.
  Model again = CompileWith(Diamond(), 1);
  EXPECT_EQ(*SerializeOm(m), *SerializeOm(again));
  for (const auto& [k, v] : m.options) EXPECT_NE(k, "stream_num");
}

TEST(Streams, NeverMoreThanStreamNumStreams) {
  const std::vector<float> want = RunV2(CompileWith(FourBranches(), 1));
  for (int32_t n : {2, 3, 4, 8}) {
    Model m = CompileWith(FourBranches(), n);
    // Four independent branches: min(n, 4) streams.
    EXPECT_EQ(static_cast<int32_t>(m.streams.size()), std::min(n, 4)) << "stream_num " << n;
    for (size_t s = 0; s < m.streams.size(); ++s) EXPECT_EQ(m.streams[s].stream, static_cast<int32_t>(s));
    EXPECT_TRUE(CheckEventGraph(m.streams).ok());
    EXPECT_EQ(RunV2(m), want) << "stream_num " << n;
  }
}

TEST(Streams, OnlyTheLatestProducerPerStreamIsWaitedFor) {
  // c (its own stream) reads a and b, both on stream 0 with b after a: one
  // wait, for b. d reads a again on c's stream later: implied, no wait.
  G g;
  Node* a = g.Op("Sigmoid", "a", {g.Data("x")});
  Node* b = g.Op("Tanh", "b", {a});
  Node* n = b;
  for (const char* t : {"Exp", "Neg", "Abs", "Sigmoid"}) n = g.Op(t, std::string("b_") + t, {n});
  Node* c = g.Op("Add", "c", {a, b});
  Node* d = g.Op("Mul", "d", {c, a});
  g.Out({g.Op("Sub", "e", {n, d})});
  Model m = CompileWith(std::move(g.g), 2);
  ASSERT_EQ(m.streams.size(), 2u);
  EXPECT_EQ(Describe(m.streams[0]), (V{"K:a", "K:b", "R0", "K:b_Exp", "K:b_Neg", "K:b_Abs", "K:b_Sigmoid", "W1", "K:e"}));
  EXPECT_EQ(Describe(m.streams[1]), (V{"W0", "K:c", "K:d", "R1"}));
}

TEST(Streams, BadStreamNumIsACompileError) {
  for (int32_t n : {0, -1, 9}) {
    CompileOptions o;
    o.stream_num = n;
    auto m = Compile(Diamond(), o);
    ASSERT_TRUE(Refused(m, StatusCode::kInvalidArgument, "is outside 1..8 (the cpu backend's streams)")) << n;
    EXPECT_NE(m.status().message().find("stream_num " + std::to_string(n)), std::string::npos) << m.status().ToString();
  }
}

TEST(Streams, TheOmStoresStreamsAndEventsAndRejectsACycle) {
  Model m = CompileWith(Diamond(), 2);
  auto bytes = SerializeOm(m);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = ParseOm(bytes->data(), bytes->size(), "diamond.om");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->model.streams.size(), 2u);
  for (size_t s = 0; s < 2; ++s) EXPECT_EQ(Describe(back->model.streams[s]), Describe(m.streams[s]));
  // A cycle: stream 0 waits for event 1 before recording event 0.
  std::swap(m.streams[0].tasks[1], m.streams[0].tasks[3]);  // K:a W1 K:b R0 K:d
  auto cyclic = SerializeOm(m);
  ASSERT_TRUE(cyclic.ok());
  auto bad = ParseOm(cyclic->data(), cyclic->size(), "cyclic.om");
  ASSERT_TRUE(Refused(bad, StatusCode::kCorrupt, "cycle"));
  // A wait for an event nobody records.
  Model m2 = CompileWith(Diamond(), 2);
  m2.streams[1].tasks[0].event = 7;
  auto unrecorded = SerializeOm(m2);
  ASSERT_TRUE(unrecorded.ok());
  EXPECT_TRUE(Refused(ParseOm(unrecorded->data(), unrecorded->size(), "bad.om"), StatusCode::kCorrupt,
                      "bad.om: not a valid .om file: memory plan: event 2 is never recorded"));
}

}  // namespace
}  // namespace ge::streams::test
