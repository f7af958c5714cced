// Sink load: a model whose task arguments lie outside their segments, or do
// not match their kernel's arity, is refused at load (never a crash at run).
#include "tests/common/refusal.h"
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
  EXPECT_NE(s.status().message().find("the task writes feature_map+"), std::string::npos) << s.status().ToString();
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
  EXPECT_EQ(s.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(s.status().message().find("event 5"), std::string::npos) << s.status().ToString();
}

// The runtime never compiles: a model without a plan is refused by both
// runtimes, naming what is missing and how to get it.
TEST(SinkLoad, AnUnplannedModelIsRefusedNamingWhatIsMissing) {
  Model planned = CompileTiny(TwoInputGraph());
  Model bare;
  bare.name = "bare";
  bare.graph = planned.graph->Clone();
  DescribeModelIo(bare);
  for (RunMode mode : {RunMode::kSink, RunMode::kV2}) {
    auto s = LoadModel(bare, mode);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.status().message().find("model bare has no memory plan: compile it first"), std::string::npos)
        << s.status().ToString();
  }
  // A plan without task lists is refused too.
  bare.memory = planned.memory;
  auto s = LoadModel(bare, RunMode::kV2);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "has no task lists"));
}

// The device comes from the registry by name: the model's target unless the
// caller names one; an unknown name is an error naming the model and listing
// the registered devices.
TEST(SinkLoad, TheDeviceIsTheModelsTargetOrTheOneAskedFor) {
  Model m = CompileTiny(TwoInputGraph());
  EXPECT_EQ(m.target, "cpu");
  m.target = "npu9";
  for (RunMode mode : {RunMode::kSink, RunMode::kV2}) {
    auto s = LoadModel(m, mode);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
    EXPECT_NE(s.status().message().find("compiled for device 'npu9': unknown device 'npu9' (registered: cpu"),
              std::string::npos)
        << s.status().ToString();
    auto on_cpu = LoadModel(m, LoadOptions{mode, "cpu"});
    EXPECT_TRUE(on_cpu.ok()) << on_cpu.status().ToString();
  }
}

// v2 binds IO through the binder sink mode uses: unaligned user buffers are
// staged (kernels are promised 64-byte alignment), with the same bytes out.
TEST(V2Load, UnalignedUserBuffersGiveTheSameBytes) {
  Model m = CompileTiny(TwoInputGraph());
  Buf a(256), b(256), ua(256, 4), ub(256, 12);
  a.Fill(Values(64, 1.f));
  b.Fill(Values(64, 2.f));
  ua.Fill(Values(64, 1.f));
  ub.Fill(Values(64, 2.f));
  const auto expected = RunV2(m, {&a, &b});
  auto v2 = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  auto out = OutputsFor(**v2, 20);
  for (int run = 0; run < 2; ++run) {  // the second run re-binds nothing (frozen addresses)
    ASSERT_TRUE((*v2)->Execute({ua.data(), ub.data()}, {out[0].data(), out[1].data()}).ok());
    EXPECT_EQ(out[0].Bytes(), expected[0]);
    EXPECT_EQ(out[1].Bytes(), expected[1]);
  }
}

}  // namespace
}  // namespace ge::test
