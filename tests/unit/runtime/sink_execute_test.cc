// The sink execute path: zero-copy vs copy binding, frozen-input refresh,
// asynchronous execute, the run loop and bad buffers.
#include <atomic>

#include "runtime/v1/sink_model.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

constexpr size_t kBytes = 64 * sizeof(float);

struct Fixture {
  Fixture() : model(CompileTiny(TwoInputGraph())), x1(kBytes), x2(kBytes) {
    x1.Fill(Values(64, 1.f));
    x2.Fill(Values(64, 2.f));
    auto m = LoadSinkModel(model);
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    sink = std::move(m).value();
  }
  const rt::ExecuteStats& stats() const { return *v1::SinkStats(*sink); }
  Model model;
  Buf x1, x2;
  std::unique_ptr<SinkLoadedModel> sink;
};

void ExpectOutputs(const std::vector<Buf>& out, const std::vector<std::vector<uint8_t>>& want) {
  ASSERT_EQ(out.size(), want.size());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i].Bytes(), want[i]) << "output " << i;
}

TEST(SinkExecute, AlignedBuffersAreBoundZeroCopyAndMatchV2Bitwise) {
  Fixture f;
  const auto want = RunV2(f.model, {&f.x1, &f.x2});
  auto out = OutputsFor(*f.sink);
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(out), {}).ok());
  ExpectOutputs(out, want);
  EXPECT_EQ(f.stats().copied_inputs, 0u);
  EXPECT_EQ(f.stats().copied_outputs, 0u);
  EXPECT_GT(f.stats().patched_slots, 0u);
}

TEST(SinkExecute, UnalignedBuffersAreCopiedAndGiveTheSameBytes) {
  Fixture f;
  const auto want = RunV2(f.model, {&f.x1, &f.x2});
  Buf u1(kBytes, 4), u2(kBytes, 4);
  std::memcpy(u1.data(), f.x1.data(), kBytes);
  std::memcpy(u2.data(), f.x2.data(), kBytes);
  auto out = OutputsFor(*f.sink, /*skew=*/8);
  ASSERT_TRUE(f.sink->Execute({u1.In(), u2.In()}, Outs(out), {}).ok());
  ExpectOutputs(out, want);
  EXPECT_EQ(f.stats().copied_inputs, 2u);
  EXPECT_EQ(f.stats().copied_outputs, 2u);
  // Back to aligned buffers: zero copy again.
  auto aligned = OutputsFor(*f.sink);
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(aligned), {}).ok());
  ExpectOutputs(aligned, want);
  EXPECT_EQ(f.stats().copied_inputs, 0u);
  EXPECT_EQ(f.stats().copied_outputs, 0u);
}

TEST(SinkExecute, UnchangedAddressesAreFrozenAndAChangedOneIsRefreshed) {
  Fixture f;
  auto out = OutputsFor(*f.sink);
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(out), {}).ok());
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(out), {}).ok());
  EXPECT_EQ(f.stats().patched_slots, 0u) << "nothing changed, nothing may be refreshed";
  // The same address with new contents: frozen, and the output follows the data.
  f.x1.Fill(Values(64, 7.f));
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(out), {}).ok());
  EXPECT_EQ(f.stats().patched_slots, 0u);
  ExpectOutputs(out, RunV2(f.model, {&f.x1, &f.x2}));
  // x2 moves: only its slot is rewritten, and the output follows.
  Buf other(kBytes);
  other.Fill(Values(64, -4.f));
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), other.In()}, Outs(out), {}).ok());
  EXPECT_EQ(f.stats().patched_slots, 1u) << "only x2's argument slot (Sigmoid's input) should be refreshed";
  ExpectOutputs(out, RunV2(f.model, {&f.x1, &other}));
}

TEST(SinkExecute, PointerOnlyExecuteOfLoadedModelWorks) {
  Fixture f;
  auto loaded = LoadModel(f.model, RunMode::kSink);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto out = OutputsFor(**loaded);
  ASSERT_TRUE((*loaded)->Execute({f.x1.data(), f.x2.data()}, {out[0].data(), out[1].data()}).ok());
  ExpectOutputs(out, RunV2(f.model, {&f.x1, &f.x2}));
}

TEST(SinkExecute, BadBuffersAreErrorsNotCrashes) {
  Fixture f;
  auto out = OutputsFor(*f.sink);
  EXPECT_EQ(f.sink->Execute({f.x1.In()}, Outs(out), {}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(f.sink->Execute({f.x1.In(), {f.x2.data(), 8}}, Outs(out), {}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(f.sink->Execute({f.x1.In(), {nullptr, kBytes}}, Outs(out), {}).code(), StatusCode::kInvalidArgument);
  std::vector<MutableBuffer> small = Outs(out);
  small[1].size = 4;
  Status s = f.sink->Execute({f.x1.In(), f.x2.In()}, small, {});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("output 1"), std::string::npos) << s.ToString();
  ASSERT_TRUE(f.sink->Execute({f.x1.In(), f.x2.In()}, Outs(out), {}).ok());  // still fine
}

TEST(SinkExecute, AsynchronousExecuteByFutureAndByCallback) {
  Fixture f;
  const auto want = RunV2(f.model, {&f.x1, &f.x2});
  auto out = OutputsFor(*f.sink);
  std::future<Status> fut = f.sink->ExecuteAsync({f.x1.In(), f.x2.In()}, Outs(out));
  ASSERT_EQ(fut.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  ASSERT_TRUE(fut.get().ok());
  ExpectOutputs(out, want);

  auto out2 = OutputsFor(*f.sink);
  std::promise<Status> done;
  f.sink->ExecuteAsync({f.x1.In(), f.x2.In()}, Outs(out2), [&done](Status s) { done.set_value(s); });
  auto df = done.get_future();
  ASSERT_EQ(df.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  ASSERT_TRUE(df.get().ok());
  ExpectOutputs(out2, want);
}

TEST(SinkExecute, RunLoopDeliversManyQueuedInputsInOrderAndCorrectly) {
  Model model = CompileTiny(TwoInputGraph());
  SinkOptions so;
  so.queue_depth = 4;  // far fewer slots than jobs: Submit blocks, nothing is lost
  auto sink = LoadSinkModel(model, so);
  ASSERT_TRUE(sink.ok());
  constexpr int kJobs = 300;
  std::vector<Buf> in1, in2;
  std::vector<std::vector<Buf>> outs;
  for (int k = 0; k < kJobs; ++k) {
    in1.emplace_back(kBytes, k % 3 == 0 ? 4 : 0);  // a third unaligned: the copy path too
    in2.emplace_back(kBytes);
    in1.back().Fill(Values(64, static_cast<float>(k)));
    in2.back().Fill(Values(64, -static_cast<float>(k)));
    outs.push_back(OutputsFor(**sink));
  }
  std::atomic<int> delivered{0}, failures{0}, out_of_order{0};
  for (int k = 0; k < kJobs; ++k)
    (*sink)->ExecuteAsync({in1[k].In(), in2[k].In()}, Outs(outs[k]), [&, k](Status s) {
      if (!s.ok()) failures++;
      if (delivered.fetch_add(1) != k) out_of_order++;
    });
  (*sink)->Drain();
  EXPECT_EQ(delivered.load(), kJobs);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(out_of_order.load(), 0);
  for (int k = 0; k < kJobs; k += 7) {
    Buf a(kBytes), b(kBytes);
    std::memcpy(a.data(), in1[k].data(), kBytes);
    std::memcpy(b.data(), in2[k].data(), kBytes);
    ExpectOutputs(outs[k], RunV2(model, {&a, &b}));
  }
}

TEST(SinkExecute, ModelManagerLoadsForksAndUnloadsById) {
  Model model = CompileTiny(TwoInputGraph());
  ModelManager mm;
  auto id = mm.Load(model);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  auto fid = mm.Fork(*id);
  ASSERT_TRUE(fid.ok()) << fid.status().ToString();
  EXPECT_NE(*id, *fid);
  EXPECT_EQ(mm.size(), 2u);
  auto held = mm.Get(*fid);
  ASSERT_TRUE(held.ok());
  EXPECT_TRUE(mm.Unload(*fid).ok());
  EXPECT_EQ(mm.Unload(*fid).code(), StatusCode::kNotFound);
  EXPECT_EQ(mm.Get(*fid).status().code(), StatusCode::kNotFound);
  // The caller's reference keeps the unloaded fork usable.
  Buf x1(kBytes), x2(kBytes);
  auto out = OutputsFor(**held);
  EXPECT_TRUE((*held)->Execute({x1.In(), x2.In()}, Outs(out), {}).ok());
  EXPECT_TRUE(mm.Unload(*id).ok());
  EXPECT_EQ(mm.size(), 0u);
}

}  // namespace
}  // namespace ge::test
