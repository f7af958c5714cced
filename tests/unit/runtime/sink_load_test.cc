// Sink load: a model whose task arguments lie outside their segments, or do
// not match their kernel's arity, is refused at load (never a crash at run).
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

Task& FirstKernelTask(Model& m) {
  for (Task& t : m.streams[0].tasks)
    if (t.kind == Task::Kind::kKernel) return t;
  ADD_FAILURE() << "no kernel task";
  return m.streams[0].tasks[0];
}

TEST(SinkLoad, ArgumentsOutsideTheirSegmentAreRefused) {
  Model m = CompileTiny(TwoInputGraph());
  FirstKernelTask(m).outputs[0] = TaskArg{Segment::kFeatureMap, m.memory.feature_map_size + 4096};
  auto s = LoadSinkModel(m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(s.status().message().find("outside"), std::string::npos) << s.status().ToString();
}

TEST(SinkLoad, ArityMismatchIsRefused) {
  Model m = CompileTiny(TwoInputGraph());
  FirstKernelTask(m).inputs.clear();
  auto s = LoadSinkModel(m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kCorrupt) << s.status().ToString();
}

TEST(SinkLoad, EventIdsSizeTheEventTableAndAnUnrecordedWaitIsRefused) {
  Model m = CompileTiny(TwoInputGraph());
  Task w;
  w.kind = Task::Kind::kEventWait;
  w.event = 5;
  m.streams[0].tasks.insert(m.streams[0].tasks.begin(), w);
  auto s = LoadSinkModel(m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.status().message().find("event 5"), std::string::npos) << s.status().ToString();
}

TEST(SinkLoad, AnUnplannedModelIsPlannedAtLoadAndRuns) {
  Model planned = CompileTiny(TwoInputGraph());
  Model bare;
  bare.name = "bare";
  bare.graph = planned.graph->Clone();
  DescribeModelIo(bare);
  auto s = LoadSinkModel(bare);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  Buf a(256), b(256);
  a.Fill(Values(64, 1.f));
  b.Fill(Values(64, 2.f));
  auto out = OutputsFor(**s);
  ASSERT_TRUE((*s)->Execute({a.In(), b.In()}, Outs(out), {}).ok());
  EXPECT_EQ(out[0].Bytes(), RunV2(planned, {&a, &b})[0]);
}

}  // namespace
}  // namespace ge::test
