// Timeouts: a deliberately slow kernel (in an overlay of the CPU device that
// the test registers under its own name, so the product's op set never sees it)
// makes an execute expire; the run is aborted, the call returns kTimeout and
// the same model executes correctly afterwards.
#include <atomic>
#include <thread>

#include "hal/device.h"
#include "tests/common/device_overlay.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

std::atomic<int> g_sleep_ms{0};

// Relu that first sleeps g_sleep_ms.
class SlowRelu final : public hal::Kernel {
 public:
  explicit SlowRelu(int64_t n) : n_(n) {}
  Status Run(const void* const* in, void* const* out) override {
    if (int ms = g_sleep_ms.load()) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    const float* x = static_cast<const float*>(in[0]);
    float* y = static_cast<float*>(out[0]);
    for (int64_t i = 0; i < n_; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
    return Status::Ok();
  }

 private:
  int64_t n_;
};

// The CPU device with that Relu, by name.
std::string SlowDevice() {
  return RegisterOverlay("cpu_slow_relu", [](DeviceOverlay& d) {
    d.registry().Register("Relu", {}, [](const hal::KernelSpec& s) -> Result<std::unique_ptr<hal::Kernel>> {
      return std::unique_ptr<hal::Kernel>(std::make_unique<SlowRelu>(s.outputs[0].NumElements()));
    });
  });
}

// x -> (Add c -> Relu) x 10 -> out: 10 slow tasks.
std::unique_ptr<Graph> ReluChain() {
  TinyGraph t;
  Node* x = t.Data("x", F32({1, 64}));
  Node* prev = x;
  for (int i = 0; i < 10; ++i) {
    Node* c = t.Const("c" + std::to_string(i), F32s({1, 64}, Iota(64, 0.1f, -0.5f)));
    Node* a = t.Op("Add", "a" + std::to_string(i), {prev, c});
    prev = t.Op("Relu", "r" + std::to_string(i), {a});
  }
  t.Output({prev}, {"y"});
  return t.Clone();
}

TEST(SinkTimeout, ExpiryAbortsReturnsTimeoutAndTheModelRecovers) {
  Model model = CompileTiny(ReluChain());
  SinkOptions so;
  so.device = SlowDevice();
  auto sink = LoadSinkModel(model, so);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  Buf x(64 * 4);
  x.Fill(Values(64, 0.5f));
  const auto want = RunV2(model, {&x});
  auto out = OutputsFor(**sink);

  g_sleep_ms = 30;  // 10 x 30 ms against a 50 ms timeout
  const auto t0 = std::chrono::steady_clock::now();
  Status s = (*sink)->Execute({x.In()}, Outs(out), std::chrono::milliseconds(50));
  const auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(s.code(), StatusCode::kTimeout) << s.ToString();
  EXPECT_LT(took, std::chrono::milliseconds(250)) << "the run was not aborted at a task boundary";

  g_sleep_ms = 0;
  ASSERT_TRUE((*sink)->Execute({x.In()}, Outs(out), std::chrono::milliseconds(5000)).ok());
  EXPECT_EQ(out[0].Bytes(), want[0]);
  ASSERT_TRUE((*sink)->Execute({x.In()}, Outs(out), {}).ok());  // and the inline path
  EXPECT_EQ(out[0].Bytes(), want[0]);
}

TEST(SinkTimeout, DefaultTimeoutFromOptionsAppliesToAsyncToo) {
  Model model = CompileTiny(ReluChain());
  SinkOptions so;
  so.device = SlowDevice();
  so.timeout = std::chrono::milliseconds(40);
  auto sink = LoadSinkModel(model, so);
  ASSERT_TRUE(sink.ok());
  Buf x(64 * 4);
  auto out = OutputsFor(**sink);
  g_sleep_ms = 20;
  EXPECT_EQ((*sink)->ExecuteAsync({x.In()}, Outs(out)).get().code(), StatusCode::kTimeout);
  g_sleep_ms = 0;
  EXPECT_TRUE((*sink)->ExecuteAsync({x.In()}, Outs(out)).get().ok());
  EXPECT_EQ(out[0].Bytes(), RunV2(model, {&x})[0]);
}

TEST(SinkTimeout, AbortFromAnotherThreadStopsTheRun) {
  Model model = CompileTiny(ReluChain());
  SinkOptions so;
  so.device = SlowDevice();
  auto sink = LoadSinkModel(model, so);
  ASSERT_TRUE(sink.ok());
  Buf x(64 * 4);
  auto out = OutputsFor(**sink);
  g_sleep_ms = 30;
  std::thread aborter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    (*sink)->Abort();
  });
  Status s = (*sink)->Execute({x.In()}, Outs(out), {});
  aborter.join();
  g_sleep_ms = 0;
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  EXPECT_TRUE((*sink)->Execute({x.In()}, Outs(out), {}).ok());
}

}  // namespace
}  // namespace ge::test
