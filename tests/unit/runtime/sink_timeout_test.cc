// Timeouts and aborts of a sink run. The model is a Loop whose trip count is
// an input: given the largest int64 it never ends by itself, so a timeout or
// an abort is the only way out whatever the machine's load (no wall-clock
// margin decides a result); given 3 it checks that the same model then runs
// correctly. Its Relu comes from an overlay of the CPU device, registered
// under the test's own name so the product's op set never sees it, that
// counts its runs: a test waits on that count to know the run has started.
#include <atomic>
#include <cstring>
#include <limits>
#include <thread>

#include "hal/device.h"
#include "tests/common/device_overlay.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

std::atomic<int64_t> g_timeout_relu_runs{0};

// Relu that counts its runs.
class TimeoutCountingRelu final : public hal::Kernel {
 public:
  explicit TimeoutCountingRelu(int64_t n) : n_(n) {}
  Status Run(const void* const* in, void* const* out) override {
    g_timeout_relu_runs.fetch_add(1);
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    for (int64_t i = 0; i < n_; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
    return Status::Ok();
  }

 private:
  int64_t n_;
};

// The CPU device with that Relu, by name.
std::string CountingReluDevice() {
  return RegisterOverlay("cpu_counting_relu", [](DeviceOverlay& d) {
    d.registry().Register("Relu", {}, [](const hal::KernelSpec& s) -> Result<std::unique_ptr<hal::Kernel>> {
      return std::unique_ptr<hal::Kernel>(std::make_unique<TimeoutCountingRelu>(s.outputs[0].NumElements()));
    });
  });
}

// v <- Relu(v + c), M times: inputs M (i64 scalar) and v0 [1,64], output v.
std::unique_ptr<Graph> TimeoutReluLoop() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* cond = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1, 64}));
  Node* a = body.Op("Add", "add", {v, body.Const("c", F32s({1, 64}, Iota(64, 0.1f, -0.5f)))});
  body.Output({body.Op("Identity", "cond_out", {cond}), body.Op("Relu", "relu", {a})});
  EXPECT_TRUE(body.Infer().ok());
  TinyGraph t;
  Node* loop =
      t.Op("Loop", "loop", {t.Data("M", TensorDesc(DataType::kInt64, {})), nullptr, t.Data("v0", F32({1, 64}))});
  loop->subgraphs()["body"] = std::shared_ptr<Graph>(body.Clone());
  t.Output({loop}, {"v"});
  return t.Clone();
}

Result<Model> CompileTimeoutReluLoop() {
  CompileOptions co;
  co.model_name = "relu_loop";
  co.sink_control_flow = true;  // the whole loop in one sink run
  return Compile(TimeoutReluLoop(), co);
}

constexpr int64_t kEndlessTrips = std::numeric_limits<int64_t>::max();

// The loaded loop, its inputs and outputs, and what v2 computes for 3 trips.
struct SinkTimeoutLoop {
  explicit SinkTimeoutLoop(std::chrono::milliseconds default_timeout = {}) : trips(sizeof(int64_t)), x(64 * 4) {
    auto compiled = CompileTimeoutReluLoop();
    EXPECT_TRUE(compiled.ok()) << compiled.status().ToString();
    if (!compiled.ok()) return;
    model = std::move(compiled).value();
    x.Fill(Values(64, 0.5f));
    SetTrips(3);
    want = RunV2(model, {&trips, &x});
    SinkOptions so;
    so.device = CountingReluDevice();
    so.timeout = default_timeout;
    auto loaded = LoadSinkModel(model, so);
    EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
    if (!loaded.ok()) return;
    sink = std::move(loaded).value();
    out = OutputsFor(*sink);
  }
  void SetTrips(int64_t n) { std::memcpy(trips.data(), &n, sizeof(n)); }
  std::vector<DataBuffer> In() const { return {trips.In(), x.In()}; }

  Model model;
  Buf trips, x;
  std::vector<std::vector<uint8_t>> want;
  std::unique_ptr<SinkLoadedModel> sink;
  std::vector<Buf> out;
};

TEST(SinkTimeout, ExpiryAbortsReturnsTimeoutAndTheModelRecovers) {
  SinkTimeoutLoop r;
  ASSERT_NE(r.sink, nullptr);
  r.SetTrips(kEndlessTrips);
  Status s = r.sink->Execute(r.In(), Outs(r.out), std::chrono::milliseconds(50));
  EXPECT_EQ(s.code(), StatusCode::kTimeout) << s.ToString();
  EXPECT_NE(s.message().find("did not finish within 50 ms"), std::string::npos) << s.ToString();

  r.SetTrips(3);
  ASSERT_TRUE(r.sink->Execute(r.In(), Outs(r.out), std::chrono::milliseconds(60000)).ok());
  EXPECT_EQ(r.out[0].Bytes(), r.want[0]);
  ASSERT_TRUE(r.sink->Execute(r.In(), Outs(r.out), {}).ok());  // and the inline path
  EXPECT_EQ(r.out[0].Bytes(), r.want[0]);
}

TEST(SinkTimeout, DefaultTimeoutFromOptionsAppliesToAsyncToo) {
  SinkTimeoutLoop r(std::chrono::milliseconds(40));
  ASSERT_NE(r.sink, nullptr);
  r.SetTrips(kEndlessTrips);
  const Status s = r.sink->ExecuteAsync(r.In(), Outs(r.out)).get();
  EXPECT_EQ(s.code(), StatusCode::kTimeout) << s.ToString();
  EXPECT_NE(s.message().find("did not finish within 40 ms"), std::string::npos) << s.ToString();
  r.SetTrips(3);
  EXPECT_TRUE(r.sink->ExecuteAsync(r.In(), Outs(r.out)).get().ok());
  EXPECT_EQ(r.out[0].Bytes(), r.want[0]);
}

TEST(SinkTimeout, AbortFromAnotherThreadStopsTheRun) {
  SinkTimeoutLoop r;
  ASSERT_NE(r.sink, nullptr);
  r.SetTrips(kEndlessTrips);
  const int64_t before = g_timeout_relu_runs.load();
  // Aborts once this run's Relu has run: an abort before the run starts
  // would be cleared by it.
  std::thread aborter([&] {
    while (g_timeout_relu_runs.load() == before) std::this_thread::yield();
    r.sink->Abort();
  });
  Status s = r.sink->Execute(r.In(), Outs(r.out), {});
  aborter.join();
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  EXPECT_NE(s.message().find("aborted"), std::string::npos) << s.ToString();
  r.SetTrips(3);
  EXPECT_TRUE(r.sink->Execute(r.In(), Outs(r.out), {}).ok());
  EXPECT_EQ(r.out[0].Bytes(), r.want[0]);
}

}  // namespace
}  // namespace ge::test
