// Multi-stream sink models, built by hand until the compiler assigns
// streams: a compiled single-stream model's tasks split over streams with an
// event for every cross-stream value. Outputs must equal v2's bitwise.
#include <thread>

#include "runtime/v1/sink_model.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

// Four independent branches joined at the end.
std::unique_ptr<Graph> Branches() {
  TinyGraph t;
  Node* x = t.Data("x", F32({1, 256}));
  std::vector<Node*> tips;
  for (int b = 0; b < 4; ++b) {
    Node* prev = x;
    for (int i = 0; i < 5; ++i) {
      Node* c = t.Const("c" + std::to_string(b) + "_" + std::to_string(i), F32s({1, 256}, Iota(256, 0.01f * (b + 1), -0.3f)));
      prev = t.Op(i % 2 ? "Mul" : "Add", "n" + std::to_string(b) + "_" + std::to_string(i), {prev, c});
    }
    tips.push_back(t.Op("Tanh", "t" + std::to_string(b), {prev}));
  }
  Node* s1 = t.Op("Add", "s1", {tips[0], tips[1]});
  Node* s2 = t.Op("Add", "s2", {tips[2], tips[3]});
  Node* y = t.Op("Add", "y", {s1, s2});
  t.Output({y, s1}, {"y", "s1"});
  return t.Clone();
}

class SinkStreams : public ::testing::TestWithParam<int> {};

TEST_P(SinkStreams, SplitModelMatchesV2Bitwise) {
  const int streams = GetParam();
  Model single = CompileTiny(Branches(), /*reuse=*/false);
  Model split = CompileTiny(Branches(), /*reuse=*/false);
  SplitOverStreams(split, streams, [](int i) { return i; });  // round robin: many cross-stream edges
  ASSERT_EQ(split.streams.size(), static_cast<size_t>(streams));
  Buf x(256 * 4);
  x.Fill(Values(256, 0.25f));
  const auto want = RunV2(single, {&x});

  SinkOptions so;
  so.profile = true;
  auto sink = LoadSinkModel(split, so);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  EXPECT_EQ((*sink)->num_streams(), static_cast<size_t>(streams));
  for (int run = 0; run < 50; ++run) {
    auto out = OutputsFor(**sink);
    ASSERT_TRUE((*sink)->Execute({x.In()}, Outs(out), {}).ok());
    for (size_t o = 0; o < out.size(); ++o) ASSERT_EQ(out[o].Bytes(), want[o]) << "run " << run << " output " << o;
  }
  // With a timeout too (every stream on its worker).
  auto out = OutputsFor(**sink);
  ASSERT_TRUE((*sink)->Execute({x.In()}, Outs(out), std::chrono::milliseconds(5000)).ok());
  EXPECT_EQ(out[0].Bytes(), want[0]);

  // The profile: every task ran, waits are visible, one lane per stream.
  const auto prof = (*sink)->Profile();
  size_t waits = 0;
  for (const TaskProfile& t : prof) {
    EXPECT_GT(t.begin_ns, 0) << t.name;
    waits += t.name.rfind("wait", 0) == 0;
  }
  EXPECT_GT(waits, 0u);
  const std::string trace = ChromeTraceJson({prof}, "branches");
  EXPECT_NE(trace.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(trace.find("stream " + std::to_string(streams - 1)), std::string::npos);
  EXPECT_NE(trace.find("wait event 0"), std::string::npos);
  EXPECT_NE(trace.find("n0_0 (Add)"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Streams, SinkStreams, ::testing::Values(2, 3));

TEST(SinkStreamsLoad, AHandBuiltEventCycleIsRejectedAtLoad) {
  Model m = CompileTiny(Branches(), false);
  SplitOverStreams(m, 2, [](int i) { return i; });
  // Move stream 1's first record to its end behind a wait for stream 0's
  // record that itself waits for it: put a wait for event 0 before everything on stream 0.
  int ev = -1;
  for (const Task& t : m.streams[1].tasks)
    if (t.kind == Task::Kind::kEventRecord) { ev = t.event; break; }
  ASSERT_GE(ev, 0);
  int other = -1;
  for (const Task& t : m.streams[0].tasks)
    if (t.kind == Task::Kind::kEventRecord) { other = t.event; break; }
  ASSERT_GE(other, 0);
  Task w0, w1;
  w0.kind = w1.kind = Task::Kind::kEventWait;
  w0.event = ev;
  w1.event = other;
  m.streams[0].tasks.insert(m.streams[0].tasks.begin(), w0);
  m.streams[1].tasks.insert(m.streams[1].tasks.begin(), w1);
  auto sink = LoadSinkModel(m);
  ASSERT_FALSE(sink.ok());
  EXPECT_EQ(sink.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(sink.status().message().find("event"), std::string::npos) << sink.status().ToString();
}

}  // namespace
}  // namespace ge::test
