// One LoadOptions for both runtimes: what LoadModel is given reaches the
// runtime the mode picks (a hand-copied LoadOptions -> SinkOptions once
// dropped `profile` in sink mode), and v2 runs a static model through the
// HAL model sink uses, so both profile a model the same way.
#include <atomic>
#include <thread>

#include "tests/common/device_overlay.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

class LoadOptionsReach : public ::testing::TestWithParam<RunMode> {};

size_t KernelTasks(const Model& m) {
  size_t n = 0;
  for (const StreamTasks& s : m.streams)
    for (const Task& t : s.tasks) n += t.kind == Task::Kind::kKernel;
  return n;
}

Status RunTwoInputs(LoadedModel& m) {
  Buf x1(64 * 4), x2(64 * 4);
  x1.Fill(Values(64, 0.5f));
  x2.Fill(Values(64, -1.f));
  std::vector<Buf> out = OutputsFor(m);
  std::vector<void*> outs;
  for (Buf& b : out) outs.push_back(b.data());
  return m.Execute({x1.data(), x2.data()}, outs);
}

TEST_P(LoadOptionsReach, ProfileTimesEveryKernelTask) {
  const Model model = CompileTiny(TwoInputGraph());
  LoadOptions o;
  o.mode = GetParam();
  o.profile = true;
  auto loaded = LoadModel(model, o);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_TRUE(RunTwoInputs(**loaded).ok());
  size_t kernels = 0;
  for (const TaskProfile& t : (*loaded)->Profile()) {
    if (t.kernel == "event" || t.kernel == "label") continue;
    ++kernels;
    EXPECT_GT(t.begin_ns, 0) << t.name;
    EXPECT_GE(t.end_ns, t.begin_ns) << t.name;
  }
  EXPECT_EQ(kernels, KernelTasks(model));
}

TEST_P(LoadOptionsReach, WithoutProfileNothingIsTimed) {
  auto loaded = LoadModel(CompileTiny(TwoInputGraph()), LoadOptions{GetParam(), ""});
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_TRUE(RunTwoInputs(**loaded).ok());
  EXPECT_TRUE((*loaded)->Profile().empty());
}

// The thread the probe's Relu last ran on.
std::atomic<std::thread::id> g_relu_thread;

// The CPU's own Relu, noting the thread it runs on.
class ThreadProbe final : public hal::Kernel {
 public:
  explicit ThreadProbe(std::unique_ptr<hal::Kernel> inner) : inner_(std::move(inner)) {}
  Status Run(const void* const* in, void* const* out) override {
    g_relu_thread.store(std::this_thread::get_id());
    return inner_->Run(in, out);
  }

 private:
  std::unique_ptr<hal::Kernel> inner_;
};

std::string ThreadProbeDevice() {
  return RegisterOverlay("cpu_thread_probe_relu", [](DeviceOverlay& d) {
    d.registry().Register("Relu", {}, [](const hal::KernelSpec& s) -> Result<std::unique_ptr<hal::Kernel>> {
      GE_ASSIGN_OR_RETURN(hal::Device * cpu, hal::GetDevice("cpu"));
      GE_ASSIGN_OR_RETURN(auto relu, cpu->kernels().Create(s));
      return std::unique_ptr<hal::Kernel>(std::make_unique<ThreadProbe>(std::move(relu)));
    });
  });
}

// A one-stream model runs on the caller's thread unless it has a timeout:
// then the HAL runs it on the stream's worker while the caller watches the
// clock (hal/model.h). Where the kernel ran shows the timeout arrived.
TEST_P(LoadOptionsReach, TimeoutPutsTheRunOnTheStreamWorker) {
  TinyGraph t;
  t.Output({t.Op("Relu", "r", {t.Data("x", F32({1, 64}))})}, {"y"});
  const Model model = CompileTiny(t.Clone());
  Buf x(64 * 4), y(64 * 4);
  x.Fill(Values(64, 0.5f));
  for (int64_t timeout_ms : {0, 60'000}) {
    SCOPED_TRACE(timeout_ms);
    LoadOptions o;
    o.mode = GetParam();
    o.device = ThreadProbeDevice();
    o.timeout = std::chrono::milliseconds(timeout_ms);
    auto loaded = LoadModel(model, o);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    g_relu_thread.store(std::thread::id());
    ASSERT_TRUE((*loaded)->Execute({x.data()}, {y.data()}).ok());
    const std::thread::id ran = g_relu_thread.load();
    ASSERT_NE(ran, std::thread::id()) << "the probe's Relu did not run";
    EXPECT_EQ(ran == std::this_thread::get_id(), timeout_ms == 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, LoadOptionsReach, ::testing::Values(RunMode::kSink, RunMode::kV2),
                         [](const ::testing::TestParamInfo<RunMode>& i) {
                           return i.param == RunMode::kSink ? "Sink" : "V2";
                         });

// v <- v + c, M times: a Loop linked into label tasks.
Model AddLoop() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1, 8}));
  Node* step = body.Const("c", F32s({1, 8}, Values(8, 1.f)));
  body.Output({body.Op("Identity", "cond_out", {c}), body.Op("Add", "add", {v, step})});
  EXPECT_TRUE(body.Infer().ok());
  TinyGraph t;
  Node* trips = t.Data("M", TensorDesc(DataType::kInt64, {}));
  Node* loop = t.Op("Loop", "loop", {trips, nullptr, t.Data("v0", F32({1, 8}))});
  loop->subgraphs()["body"] = std::shared_ptr<Graph>(body.Clone());
  t.Output({loop}, {"v"});
  return CompileTiny(t.Clone());
}

std::vector<std::string> ProfiledTasks(const Model& model, RunMode mode, int64_t trips) {
  LoadOptions o;
  o.mode = mode;
  o.profile = true;
  auto loaded = LoadModel(model, o);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  if (!loaded.ok()) return {};
  const std::vector<float> v0 = Values(8, 0.f);
  std::vector<Tensor> out;
  Status s = (*loaded)->ExecuteShaped({{DataType::kInt64, {}, &trips}, {DataType::kFloat32, {1, 8}, v0.data()}}, out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> names;
  for (const TaskProfile& t : (*loaded)->Profile()) names.push_back(t.name + (t.begin_ns > 0 ? "" : " (not run)"));
  return names;
}

// Both runtimes run the linked task list through the HAL: the same tasks,
// label tasks included, in the same order, with the same ones run.
TEST(LoadOptionsLinked, BothRuntimesProfileTheLinkedTaskListAlike) {
  const Model model = AddLoop();
  ASSERT_FALSE(model.dynamic);
  const auto sink = ProfiledTasks(model, RunMode::kSink, 3);
  const auto v2 = ProfiledTasks(model, RunMode::kV2, 3);
  EXPECT_EQ(sink, v2);
  EXPECT_NE(std::find(v2.begin(), v2.end(), "label switch"), v2.end()) << ::testing::PrintToString(v2);
}

}  // namespace
}  // namespace ge::test
