// The HAL conformance suite: what every backend must do, written once against
// the interface (hal::Device&) and run against every registered device
// (tests/hal/hal_cts.h): a new backend runs it by registering itself.
//
// No test sleeps to wait for a result: work blocks on a Gate the test opens,
// and sleeps are used only to give a (wrongly) unblocked stream the chance to
// show it. Every wait has a bound, so a broken backend fails, never hangs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <future>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "hal/device.h"
#include "hal/event.h"
#include "hal/kernel.h"
#include "hal/memory.h"
#include "hal/stream.h"
#include "tests/common/refusal.h"
#include "tests/hal/hal_cts.h"

namespace ge::hal {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

GE_HAL_CTS_SUITE(HalStream, HalTest);
GE_HAL_CTS_SUITE(HalEvent, HalTest);
GE_HAL_CTS_SUITE(HalMemory, HalTest);
GE_HAL_CTS_SUITE(HalMemoryDeathTest, HalTest);
GE_HAL_CTS_SUITE(HalDevice, HalTest);
GE_HAL_CTS_SUITE(HalKernels, HalHostTest);

// A one-shot latch with a bounded wait.
class Gate {
 public:
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  bool WaitFor(std::chrono::milliseconds t) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, t, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// Work that holds the stream until `gate` opens (an error after 2 s, so a
// test that forgets to open it fails instead of hanging).
Stream::Work Blocked(std::shared_ptr<Gate> gate) {
  return [gate] { return gate->WaitFor(2000ms) ? Status::Ok() : Internal("gate never opened"); };
}

double MsSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// ------------------------------------------------------------------ streams

TEST_P(HalStream, WorkOnOneStreamRunsInOrder) {
  auto s = Dev().CreateStream();
  ASSERT_NE(s, nullptr);
  std::vector<int> order;  // touched only by the stream's work
  std::mutex mu;
  for (int i = 0; i < 200; ++i)
    s->Enqueue([&, i] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(i);
      return Status::Ok();
    });
  ASSERT_TRUE(s->Synchronize().ok());
  std::vector<int> want(200);
  for (int i = 0; i < 200; ++i) want[i] = i;
  EXPECT_EQ(order, want);
}

TEST_P(HalStream, EnqueueDoesNotBlockOrRunInline) {
  auto s = Dev().CreateStream();
  auto gate = std::make_shared<Gate>();
  std::atomic<bool> ran{false};
  const auto t0 = Clock::now();
  s->Enqueue([gate, &ran] {
    // If Enqueue ran this inline, the test thread could not open the gate
    // until it returned: the wait would time out.
    if (!gate->WaitFor(1000ms)) return Internal("Enqueue ran the work inline (or the stream blocked)");
    ran = true;
    return Status::Ok();
  });
  EXPECT_LT(MsSince(t0), 500.0) << "Enqueue blocked";
  EXPECT_FALSE(ran.load());
  gate->Open();
  Status st = s->Synchronize();
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(ran.load());
}

TEST_P(HalStream, SynchronizeWaitsForEverythingQueued) {
  auto s = Dev().CreateStream();
  std::atomic<int> done{0};
  for (int i = 0; i < 5; ++i)
    s->Enqueue([&] {
      std::this_thread::sleep_for(10ms);
      ++done;
      return Status::Ok();
    });
  ASSERT_TRUE(s->Synchronize().ok());
  EXPECT_EQ(done.load(), 5);
}

TEST_P(HalStream, SynchronizeOnAnIdleStreamReturnsAtOnce) {
  auto s = Dev().CreateStream();
  EXPECT_TRUE(s->Synchronize().ok());
  EXPECT_TRUE(s->Synchronize(0ms).ok());
  s->Enqueue([] { return Status::Ok(); });
  EXPECT_TRUE(s->Synchronize().ok());
  EXPECT_TRUE(s->Synchronize(0ms).ok());
}

TEST_P(HalStream, FailureIsReturnedLaterWorkSkippedAndTheStreamStaysUsable) {
  auto s = Dev().CreateStream();
  std::atomic<int> ran{0};
  s->Enqueue([&] {
    ++ran;
    return Status::Ok();
  });
  s->Enqueue([] { return InvalidArgument("node conv1 (Conv): boom"); });
  s->Enqueue([&] {
    ran += 100;  // must be skipped
    return Status::Ok();
  });
  s->Enqueue([] { return Internal("second failure, skipped too"); });
  Status st = s->Synchronize();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_EQ(st.message(), "node conv1 (Conv): boom");
  EXPECT_EQ(ran.load(), 1) << "work after the failure ran";
  // The error is cleared and new work runs.
  EXPECT_TRUE(s->Synchronize().ok());
  s->Enqueue([&] {
    ++ran;
    return Status::Ok();
  });
  Status again = s->Synchronize();
  EXPECT_TRUE(again.ok()) << again.ToString();
  EXPECT_EQ(ran.load(), 2);
}

TEST_P(HalStream, SynchronizeTimesOutWhileSlowWorkRunsAndTheWorkContinues) {
  auto s = Dev().CreateStream();
  auto gate = std::make_shared<Gate>();
  std::atomic<bool> finished{false};
  s->Enqueue([gate, &finished] {
    if (!gate->WaitFor(2000ms)) return Internal("gate never opened");
    finished = true;
    return Status::Ok();
  });
  const auto t0 = Clock::now();
  Status st = s->Synchronize(30ms);
  const double waited = MsSince(t0);
  EXPECT_EQ(st.code(), StatusCode::kTimeout) << st.ToString();
  EXPECT_FALSE(st.message().empty());
  EXPECT_GE(waited, 25.0);
  EXPECT_LT(waited, 500.0);
  EXPECT_FALSE(finished.load());
  // Timing out did not abort the work: it completes once unblocked.
  gate->Open();
  Status later = s->Synchronize(1000ms);
  EXPECT_TRUE(later.ok()) << later.ToString();
  EXPECT_TRUE(finished.load());
}

TEST_P(HalStream, AFailureAfterATimeoutIsReportedByTheNextSynchronize) {
  auto s = Dev().CreateStream();
  auto gate = std::make_shared<Gate>();
  s->Enqueue([gate] {
    gate->WaitFor(2000ms);
    return Internal("late failure");
  });
  EXPECT_EQ(s->Synchronize(10ms).code(), StatusCode::kTimeout);
  gate->Open();
  Status st = s->Synchronize(1000ms);
  EXPECT_EQ(st.code(), StatusCode::kInternal) << st.ToString();
  EXPECT_EQ(st.message(), "late failure");
}

TEST_P(HalStream, WorkMayEnqueueMoreWorkOnItsOwnStream) {
  auto s = Dev().CreateStream();
  Stream* raw = s.get();
  std::atomic<int> ran{0};
  s->Enqueue([&] {
    ++ran;
    raw->Enqueue([&] {
      ++ran;
      return Status::Ok();
    });
    return Status::Ok();
  });
  ASSERT_TRUE(s->Synchronize(1000ms).ok());
  ASSERT_TRUE(s->Synchronize(1000ms).ok());
  EXPECT_EQ(ran.load(), 2);
}

TEST_P(HalStream, StreamsRunInParallel) {
  // A's work can only finish if B's work runs while A's is still running.
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto gate = std::make_shared<Gate>();
  a->Enqueue([gate] { return gate->WaitFor(1000ms) ? Status::Ok() : Internal("stream B did not run while A was busy"); });
  b->Enqueue([gate] {
    gate->Open();
    return Status::Ok();
  });
  Status sa = a->Synchronize(2000ms);
  EXPECT_TRUE(sa.ok()) << sa.ToString();
  EXPECT_TRUE(b->Synchronize(2000ms).ok());
}

TEST_P(HalStream, DestroyingAStreamFinishesItsQueuedWork) {
  std::atomic<int> ran{0};
  {
    auto s = Dev().CreateStream();
    for (int i = 0; i < 20; ++i)
      s->Enqueue([&] {
        ++ran;
        return Status::Ok();
      });
  }
  EXPECT_EQ(ran.load(), 20);
}

TEST_P(HalStream, AsManyStreamsAsTheCapabilitiesPromise) {
  const int n = Dev().capabilities().max_streams;
  ASSERT_GE(n, 1);
  std::vector<std::unique_ptr<Stream>> streams;
  std::atomic<int> ran{0};
  for (int i = 0; i < n; ++i) {
    streams.push_back(Dev().CreateStream());
    ASSERT_NE(streams.back(), nullptr) << i;
  }
  for (auto& s : streams)
    s->Enqueue([&] {
      ++ran;
      return Status::Ok();
    });
  for (auto& s : streams) EXPECT_TRUE(s->Synchronize(1000ms).ok());
  EXPECT_EQ(ran.load(), n);
}

// ------------------------------------------------------------------- events

TEST_P(HalEvent, WaitOrdersWorkAfterTheRecordOnAnotherStream) {
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  ASSERT_NE(ev, nullptr);
  auto gate = std::make_shared<Gate>();
  std::atomic<int> a_done{0};
  std::atomic<int> b_saw{-1};
  a->Enqueue([gate, &a_done] {
    if (!gate->WaitFor(2000ms)) return Internal("gate never opened");
    a_done = 1;
    return Status::Ok();
  });
  ev->Record(*a);
  ev->Wait(*b);
  b->Enqueue([&] {
    b_saw = a_done.load();
    return Status::Ok();
  });
  // B is held by the event while A is blocked.
  EXPECT_EQ(b->Synchronize(50ms).code(), StatusCode::kTimeout);
  EXPECT_EQ(b_saw.load(), -1) << "B's work ran before A reached the record";
  gate->Open();
  Status sb = b->Synchronize(2000ms);
  EXPECT_TRUE(sb.ok()) << sb.ToString();
  EXPECT_EQ(b_saw.load(), 1);
  EXPECT_TRUE(a->Synchronize(2000ms).ok());
}

TEST_P(HalEvent, WaitMatchesTheLatestRecordIssuedBeforeIt) {
  // A: [gate1] record#1 [gate2] record#2;  B: wait (issued between the two records).
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  auto gate1 = std::make_shared<Gate>();
  auto gate2 = std::make_shared<Gate>();
  std::atomic<bool> b_ran{false};
  a->Enqueue(Blocked(gate1));
  ev->Record(*a);
  ev->Wait(*b);
  b->Enqueue([&] {
    b_ran = true;
    return Status::Ok();
  });
  a->Enqueue(Blocked(gate2));
  ev->Record(*a);
  EXPECT_EQ(b->Synchronize(30ms).code(), StatusCode::kTimeout);
  EXPECT_FALSE(b_ran.load());
  gate1->Open();
  // Record #1 is reached; B must not wait for record #2 (A is still blocked on gate2).
  Status sb = b->Synchronize(1000ms);
  EXPECT_TRUE(sb.ok()) << "B waited for a record issued after its Wait: " << sb.ToString();
  EXPECT_TRUE(b_ran.load());
  gate2->Open();
  EXPECT_TRUE(a->Synchronize(2000ms).ok());
}

TEST_P(HalEvent, WaitWithoutAnyRecordDoesNotBlock) {
  auto b = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  std::atomic<bool> ran{false};
  ev->Wait(*b);
  b->Enqueue([&] {
    ran = true;
    return Status::Ok();
  });
  Status st = b->Synchronize(1000ms);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(ran.load());
}

TEST_P(HalEvent, OneRecordReleasesEveryWaitingStream) {
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto c = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  auto gate = std::make_shared<Gate>();
  std::atomic<int> ran{0};
  a->Enqueue(Blocked(gate));
  ev->Record(*a);
  for (Stream* s : {b.get(), c.get()}) {
    ev->Wait(*s);
    s->Enqueue([&] {
      ++ran;
      return Status::Ok();
    });
  }
  EXPECT_EQ(c->Synchronize(30ms).code(), StatusCode::kTimeout);
  EXPECT_EQ(ran.load(), 0);
  gate->Open();
  EXPECT_TRUE(b->Synchronize(1000ms).ok());
  EXPECT_TRUE(c->Synchronize(1000ms).ok());
  EXPECT_EQ(ran.load(), 2);
}

TEST_P(HalEvent, HostWaitBlocksUntilTheRecordIsReached) {
  auto a = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  auto gate = std::make_shared<Gate>();
  std::atomic<bool> a_done{false};
  a->Enqueue([gate, &a_done] {
    if (!gate->WaitFor(2000ms)) return Internal("gate never opened");
    a_done = true;
    return Status::Ok();
  });
  ev->Record(*a);
  auto waiter = std::async(std::launch::async, [&] {
    ev->HostWait();
    return a_done.load();
  });
  EXPECT_EQ(waiter.wait_for(30ms), std::future_status::timeout) << "HostWait returned before the record";
  gate->Open();
  ASSERT_EQ(waiter.wait_for(1000ms), std::future_status::ready) << "HostWait did not return after the record";
  EXPECT_TRUE(waiter.get()) << "HostWait returned before the work recorded before it had finished";
  EXPECT_TRUE(a->Synchronize(1000ms).ok());
}

TEST_P(HalEvent, HostWaitWithoutRecordOrAfterItReturnsAtOnce) {
  auto ev = Dev().CreateEvent();
  auto w1 = std::async(std::launch::async, [&] { ev->HostWait(); });
  ASSERT_EQ(w1.wait_for(1000ms), std::future_status::ready);
  auto a = Dev().CreateStream();
  ev->Record(*a);
  ASSERT_TRUE(a->Synchronize(1000ms).ok());
  auto w2 = std::async(std::launch::async, [&] { ev->HostWait(); });
  ASSERT_EQ(w2.wait_for(1000ms), std::future_status::ready);
}

TEST_P(HalEvent, EventsCanBeReusedRecordAfterRecord) {
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  std::atomic<int> counter{0};
  std::vector<int> seen;
  for (int round = 0; round < 20; ++round) {
    a->Enqueue([&] {
      ++counter;
      return Status::Ok();
    });
    ev->Record(*a);
    ev->Wait(*b);
    b->Enqueue([&, round] {
      seen.push_back(counter.load());
      return counter.load() >= round + 1 ? Status::Ok() : Internal("B ran ahead of A's record");
    });
  }
  Status sb = b->Synchronize(2000ms);
  EXPECT_TRUE(sb.ok()) << sb.ToString();
  EXPECT_TRUE(a->Synchronize(2000ms).ok());
  EXPECT_EQ(seen.size(), 20u);
}

// A failure on the recording stream skips its later work, record included.
// The waiting stream must still not hang for ever: a backend that deadlocks
// here turns one failing kernel of a multi-stream model into a process that
// cannot even unload it. (The waiting stream is leaked if it does hang, so
// the suite carries on.)
TEST_P(HalEvent, AFailureOnTheRecordingStreamDoesNotHangTheWaiter) {
  auto a = Dev().CreateStream();
  auto b = Dev().CreateStream();
  auto ev = Dev().CreateEvent();
  a->Enqueue([] { return Internal("kernel failed"); });
  ev->Record(*a);
  ev->Wait(*b);
  b->Enqueue([] { return Status::Ok(); });
  EXPECT_EQ(a->Synchronize(1000ms).code(), StatusCode::kInternal);
  Status sb = b->Synchronize(500ms);
  if (sb.code() == StatusCode::kTimeout) {
    (void)b.release();  // its worker is stuck in the event wait; destroying it would hang the suite
    ADD_FAILURE() << "stream B waits for ever on an event whose record was skipped after a failure on stream A";
  }
}

// ------------------------------------------------------------------- memory

TEST_P(HalMemory, AllocationsAre64ByteAlignedAndWritable) {
  for (size_t bytes : {size_t{1}, size_t{3}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}, size_t{1} << 20}) {
    auto b = Dev().Allocate(bytes);
    ASSERT_TRUE(b.ok()) << bytes << ": " << b.status().ToString();
    ASSERT_NE(b->data(), nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % kDefaultAlignment, 0u) << bytes;
    EXPECT_EQ(b->size(), bytes);
    std::memset(b->data(), 0x5A, bytes);  // the whole range is ours
    EXPECT_EQ(static_cast<uint8_t*>(b->data())[bytes - 1], 0x5A);
  }
  EXPECT_EQ(kDefaultAlignment, 64u);
}

TEST_P(HalMemory, LargerAlignmentsAreHonoured) {
  for (size_t align : {size_t{128}, size_t{4096}}) {
    auto b = Dev().Allocate(100, align);
    ASSERT_TRUE(b.ok()) << align;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % align, 0u) << align;
    EXPECT_EQ(b->size(), 100u);
  }
}

TEST_P(HalMemory, ZeroBytesIsAnEmptyBuffer) {
  auto b = Dev().Allocate(0);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->size(), 0u);
  DeviceBuffer d;
  EXPECT_EQ(d.data(), nullptr);
  EXPECT_EQ(d.size(), 0u);
}

TEST_P(HalMemory, MoveTransfersOwnership) {
  auto r = Dev().Allocate(256);
  ASSERT_TRUE(r.ok());
  DeviceBuffer a = std::move(r).value();
  void* p = a.data();
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, 256);

  DeviceBuffer b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 256u);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT: checking the moved-from state is the point
  EXPECT_EQ(a.size(), 0u);

  auto r2 = Dev().Allocate(64);
  ASSERT_TRUE(r2.ok());
  DeviceBuffer c = std::move(r2).value();
  c = std::move(b);  // frees c's old block, takes b's
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.size(), 256u);
  EXPECT_EQ(b.data(), nullptr);  // NOLINT
  EXPECT_EQ(b.size(), 0u);

  DeviceBuffer& self = c;
  c = std::move(self);  // self-move keeps the block
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.size(), 256u);
  EXPECT_EQ(static_cast<uint8_t*>(c.data())[255], 1);

  std::vector<DeviceBuffer> many;  // vectors of buffers relocate by move
  for (int i = 0; i < 50; ++i) {
    auto x = Dev().Allocate(64 + i);
    ASSERT_TRUE(x.ok());
    many.push_back(std::move(x).value());
  }
  std::set<void*> distinct;
  for (auto& m : many) distinct.insert(m.data());
  EXPECT_EQ(distinct.size(), 50u);
}

TEST_P(HalMemory, ImpossibleSizesAreErrorsNotTinyBuffers) {
  for (size_t bytes : {std::numeric_limits<size_t>::max(), std::numeric_limits<size_t>::max() - 10, size_t{1} << 62}) {
    auto b = Dev().Allocate(bytes);
    EXPECT_TRUE(Refused(b, StatusCode::kInvalidArgument, "bytes is impossible")) << "Allocate(" << bytes << ")";
  }
}

TEST_P(HalMemoryDeathTest, ABadAlignmentIsAnErrorNotACrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        auto b = Dev().Allocate(16, 0);
        std::exit(b.ok() ? 2 : 0);
      },
      ::testing::ExitedWithCode(0), "")
      << "Allocate(16, alignment 0) must return an error (exit 2 means it succeeded; a signal means it crashed)";
}

// ------------------------------------------------------------- capabilities

TEST_P(HalDevice, CapabilitiesAreSane) {
  const Capabilities& c = Dev().capabilities();
  EXPECT_FALSE(c.name.empty());
  EXPECT_GE(c.max_streams, 1);
  EXPECT_LE(c.max_streams, 1024);
  EXPECT_GE(c.compute_threads, 1);
  const unsigned hw = std::thread::hardware_concurrency();
  if (hw) {
    EXPECT_LE(c.compute_threads, static_cast<int>(hw));
  }
  if (c.events) {
    EXPECT_NE(Dev().CreateEvent(), nullptr);
  }
  EXPECT_EQ(&c, &Dev().capabilities());  // stable
}

TEST_P(HalDevice, TheRegistryGivesOneProcessWideObjectPerName) {
  auto again = GetDevice(GetParam());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, &Dev());
}

// ----------------------------------------------------------------- registry

TEST(HalRegistry, TheCpuBackendIsRegisteredAndIsTheDefault) {
  const std::vector<std::string> names = DeviceNames();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "cpu");
  auto def = GetDevice();
  auto cpu = GetDevice("cpu");
  ASSERT_TRUE(def.ok() && cpu.ok());
  EXPECT_EQ(*def, *cpu);
  EXPECT_EQ((*cpu)->capabilities().name, "cpu");
  auto host = GetHostDevice();
  ASSERT_TRUE(host.ok()) << host.status().ToString();
  EXPECT_TRUE((*host)->capabilities().host_memory);
}

TEST(HalRegistry, AnUnknownNameIsNotFoundListingTheRegisteredOnes) {
  auto d = GetDevice("npu9");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kNotFound);
  EXPECT_NE(d.status().message().find("unknown device 'npu9' (registered: cpu"), std::string::npos) << d.status().ToString();
}

TEST(HalRegistry, ANameIsRegisteredOnceAndAFailingFactoryIsAnError) {
  EXPECT_EQ(RegisterDevice("cpu", [] { return Result<std::unique_ptr<Device>>(Internal("never called")); }).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(RegisterDevice("", [] { return Result<std::unique_ptr<Device>>(Internal("never called")); }).code(),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(RegisterDevice("cts_broken", [] { return Result<std::unique_ptr<Device>>(Internal("no hardware")); }).ok());
  auto d = GetDevice("cts_broken");
  ASSERT_TRUE(Refused(d, StatusCode::kInternal, "device cts_broken: no hardware"));
}

// ------------------------------------------------------------------ kernels

KernelSpec Spec(const std::string& op, std::vector<TensorInfo> in, std::vector<TensorInfo> out) {
  KernelSpec s;
  s.op = op;
  s.name = "cts_" + op;
  s.inputs = std::move(in);
  s.outputs = std::move(out);
  return s;
}

TensorInfo F32(std::vector<int64_t> dims) { return TensorInfo{DataType::kFloat32, std::move(dims)}; }

TEST_P(HalKernels, AnUnknownOpIsUnsupportedWithAMessage) {
  const KernelRegistry& r = Dev().kernels();
  KernelSpec s = Spec("NoSuchOp42", {F32({2})}, {F32({2})});
  EXPECT_FALSE(r.HasOp("NoSuchOp42"));
  Status st = r.Supports(s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kUnsupported) << st.ToString();
  EXPECT_NE(st.message().find("NoSuchOp42"), std::string::npos) << st.message();
  auto k = r.Create(s);
  ASSERT_TRUE(Refused(k, StatusCode::kUnsupported, "NoSuchOp42"));
}

TEST_P(HalKernels, TheRegistryKnowsConvMatMulAndAdd) {
  const KernelRegistry& r = Dev().kernels();
  const std::vector<std::string> ops = r.Ops();
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
  EXPECT_EQ(std::set<std::string>(ops.begin(), ops.end()).size(), ops.size());
  for (const char* op : {"Conv", "MatMul", "Add"}) {
    EXPECT_TRUE(r.HasOp(op)) << op;
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  }
  Status add = r.Supports(Spec("Add", {F32({2, 3}), F32({3})}, {F32({2, 3})}));
  EXPECT_TRUE(add.ok()) << add.ToString();
  Status mm = r.Supports(Spec("MatMul", {F32({2, 3}), F32({3, 4})}, {F32({2, 4})}));
  EXPECT_TRUE(mm.ok()) << mm.ToString();
  Status conv = r.Supports(Spec("Conv", {F32({1, 1, 3, 3}), F32({1, 1, 2, 2})}, {F32({1, 1, 2, 2})}));
  EXPECT_TRUE(conv.ok()) << conv.ToString();
}

TEST_P(HalKernels, SpecsAKernelCannotRunAreRefusedWithAReason) {
  const KernelRegistry& r = Dev().kernels();
  struct BadSpec {
    KernelSpec spec;
    StatusCode code;
    std::string reason;
  };
  const StatusCode bad = StatusCode::kInvalidArgument, unsupported = StatusCode::kUnsupported;
  const std::vector<BadSpec> cases = {
      {Spec("MatMul", {F32({2, 3}), F32({4, 5})}, {F32({2, 5})}), bad, "inner dims differ"},
      {Spec("Add", {F32({2, 3}), F32({4})}, {F32({2, 3})}), bad, "do not broadcast"},
      {Spec("Add", {F32({2}), TensorInfo{DataType::kInt64, {2}}}, {F32({2})}), unsupported, "dtypes f32/i64"},
      {Spec("Conv", {F32({3, 3}), F32({1, 1})}, {F32({3, 3})}), unsupported, "input rank 2"},
      {Spec("Conv", {F32({1, 1, 3, 3}), F32({1, 1, 2, 2})}, {F32({1, 1, 3, 3})}), bad,
       "output [1,1,3,3] does not match the computed [1,1,2,2]"},
  };
  for (const BadSpec& c : cases) {
    EXPECT_TRUE(Refused(r.Supports(c.spec), c.code, c.reason)) << c.spec.op;
    EXPECT_TRUE(Refused(r.Create(c.spec), c.code, c.reason)) << c.spec.op;
  }
}

// Kernels created from the registry run as stream work, the way the runtimes use them.
TEST_P(HalKernels, KernelsRunAsStreamWork) {
  const KernelRegistry& r = Dev().kernels();
  auto stream = Dev().CreateStream();
  auto alloc = [](const std::vector<float>& v) {
    auto b = Dev().Allocate(v.size() * sizeof(float));
    EXPECT_TRUE(b.ok());
    DeviceBuffer d = std::move(b).value();
    std::memcpy(d.data(), v.data(), v.size() * sizeof(float));
    return d;
  };
  auto read = [](const DeviceBuffer& b, size_t n) {
    std::vector<float> v(n);
    std::memcpy(v.data(), b.data(), n * sizeof(float));
    return v;
  };

  // MatMul [2,3] x [3,2].
  DeviceBuffer a = alloc({1, 2, 3, 4, 5, 6}), b = alloc({1, 0, 0, 1, 1, 1}), y = alloc({-1, -1, -1, -1});
  auto mm = r.Create(Spec("MatMul", {F32({2, 3}), F32({3, 2})}, {F32({2, 2})}));
  ASSERT_TRUE(mm.ok()) << mm.status().ToString();
  // Add [2,2] + [2] (broadcast).
  DeviceBuffer bias = alloc({10, 20}), z = alloc({0, 0, 0, 0});
  auto add = r.Create(Spec("Add", {F32({2, 2}), F32({2})}, {F32({2, 2})}));
  ASSERT_TRUE(add.ok()) << add.status().ToString();
  // Conv: ones [1,1,3,3] with a constant 2x2 kernel of ones.
  DeviceBuffer x = alloc(std::vector<float>(9, 1.f)), w = alloc({1, 1, 1, 1}), cy = alloc({0, 0, 0, 0});
  KernelSpec cs = Spec("Conv", {F32({1, 1, 3, 3}), F32({1, 1, 2, 2})}, {F32({1, 1, 2, 2})});
  cs.const_inputs = {nullptr, w.data()};
  auto conv = r.Create(cs);
  ASSERT_TRUE(conv.ok()) << conv.status().ToString();

  Kernel* mmk = mm->get();
  Kernel* addk = add->get();
  Kernel* convk = conv->get();
  stream->Enqueue([&] {
    const void* in[] = {a.data(), b.data()};
    void* out[] = {y.data()};
    return mmk->Run(in, out);
  });
  stream->Enqueue([&] {  // consumes the MatMul's output: stream order makes it ready
    const void* in[] = {y.data(), bias.data()};
    void* out[] = {z.data()};
    return addk->Run(in, out);
  });
  stream->Enqueue([&] {
    const void* in[] = {x.data(), w.data()};
    void* out[] = {cy.data()};
    return convk->Run(in, out);
  });
  Status st = stream->Synchronize(5000ms);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(read(y, 4), (std::vector<float>{4, 5, 10, 11}));
  EXPECT_EQ(read(z, 4), (std::vector<float>{14, 25, 20, 31}));
  EXPECT_EQ(read(cy, 4), (std::vector<float>{4, 4, 4, 4}));
}

}  // namespace
}  // namespace ge::hal
