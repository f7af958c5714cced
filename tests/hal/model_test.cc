// HAL models (hal/model.h): pre-distributed task lists run by one call.
// Written against the interface; kernels are tiny test kernels, so the suite
// holds for any backend that can run host-callable kernels.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "hal/model.h"
#include "tests/hal/hal_cts.h"

namespace ge::hal {
namespace {

using namespace std::chrono_literals;

GE_HAL_CTS_SUITE(HalModel, HalHostTest);

// out[0] = in[0] + 1 (one float), optionally sleeping first.
class AddOne final : public Kernel {
 public:
  explicit AddOne(std::chrono::milliseconds sleep = 0ms, std::atomic<int>* runs = nullptr) : sleep_(sleep), runs_(runs) {}
  Status Run(const void* const* in, void* const* out) override {
    if (sleep_.count() > 0) std::this_thread::sleep_for(sleep_);
    if (runs_) runs_->fetch_add(1);
    *static_cast<float*>(out[0]) = *static_cast<const float*>(in[0]) + 1.f;
    return Status::Ok();
  }
  std::chrono::milliseconds sleep_;
  std::atomic<int>* runs_;
};

class Failing final : public Kernel {
 public:
  Status Run(const void* const*, void* const*) override { return Internal("test kernel failed on purpose"); }
};

// A chain of n AddOne kernels over buf[0..n]: buf[i+1] = buf[i] + 1.
struct Chain {
  explicit Chain(int n, std::chrono::milliseconds sleep = 0ms) : buf(n + 1, 0.f), ins(n), outs(n) {
    for (int i = 0; i < n; ++i) {
      kernels.push_back(std::make_unique<AddOne>(sleep));
      ins[i] = &buf[i];
      outs[i] = &buf[i + 1];
    }
  }
  ModelTask Task(int i) {
    ModelTask t;
    t.kernel = kernels[i].get();
    t.inputs = &ins[i];
    t.outputs = &outs[i];
    return t;
  }
  std::vector<float> buf;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::vector<const void*> ins;
  std::vector<void*> outs;
};

ModelTask Record(int e) {
  ModelTask t;
  t.kind = ModelTask::Kind::kEventRecord;
  t.event = e;
  return t;
}
ModelTask Wait(int e) {
  ModelTask t;
  t.kind = ModelTask::Kind::kEventWait;
  t.event = e;
  return t;
}

TEST_P(HalModel, SingleStreamRunsTheChainInOrderEveryTime) {
  Chain c(100);
  ModelDesc d;
  d.streams.resize(1);
  for (int i = 0; i < 100; ++i) d.streams[0].push_back(c.Task(i));
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  for (int run = 0; run < 3; ++run) {
    c.buf[0] = static_cast<float>(run);
    ASSERT_TRUE((*m)->Execute().ok());
    EXPECT_EQ(c.buf[100], run + 100.f);
    ASSERT_TRUE((*m)->Execute(5s).ok());  // the worker path
    EXPECT_EQ(c.buf[100], run + 100.f);
  }
}

TEST_P(HalModel, EventsOrderTwoStreamsAndRefreshedArgumentsAreSeen) {
  // Stream 1 computes buf[0..50] -> records; stream 0 waits, then continues.
  Chain c(100);
  ModelDesc d;
  d.num_events = 1;
  d.streams.resize(2);
  for (int i = 0; i < 50; ++i) d.streams[1].push_back(c.Task(i));
  d.streams[1].push_back(Record(0));
  d.streams[0].push_back(Wait(0));
  for (int i = 50; i < 100; ++i) d.streams[0].push_back(c.Task(i));
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->num_streams(), 2u);
  for (int run = 0; run < 20; ++run) {
    c.buf[0] = static_cast<float>(run);
    ASSERT_TRUE((*m)->Execute().ok());
    ASSERT_EQ(c.buf[100], run + 100.f) << "run " << run;
  }
  // Address refresh: point task 0 at another input between runs.
  float other = 1000.f;
  c.ins[0] = &other;
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(c.buf[100], 1100.f);
}

TEST_P(HalModel, StreamsRunInParallel) {
  // Two streams of one 100 ms kernel each: together well under 200 ms.
  Chain a(1, 100ms), b(1, 100ms);
  ModelDesc d;
  d.streams = {{a.Task(0)}, {b.Task(0)}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 190ms);
}

TEST_P(HalModel, TimeoutAbortsAndTheModelRunsCorrectlyAfterwards) {
  Chain c(20, 20ms);  // 400 ms in all
  ModelDesc d;
  d.streams.resize(1);
  for (int i = 0; i < 20; ++i) d.streams[0].push_back(c.Task(i));
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  const auto t0 = std::chrono::steady_clock::now();
  Status s = (*m)->Execute(50ms);
  const auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(s.code(), StatusCode::kTimeout) << s.ToString();
  EXPECT_LT(took, 200ms) << "the abort did not stop the run at a task boundary";
  // After the call returns nothing writes: the chain stopped part-way.
  const float stopped = c.buf[20];
  std::this_thread::sleep_for(60ms);
  EXPECT_EQ(c.buf[20], stopped);
  c.buf[0] = 5.f;
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(c.buf[20], 25.f);
}

TEST_P(HalModel, AbortUnblocksAStreamHeldInAnEventWait) {
  Chain slow(1, 300ms), fast(1);
  ModelDesc d;
  d.num_events = 1;
  d.streams = {{Wait(0), fast.Task(0)}, {slow.Task(0), Record(0)}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE((*m)->Launch().ok());
  std::this_thread::sleep_for(20ms);
  (*m)->Abort();
  Status s = (*m)->Wait(2s);
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(fast.buf[1], 1.f);
}

TEST_P(HalModel, AFailingKernelStopsTheRunAndNamesTheTask) {
  Chain c(3);
  Failing bad;
  ModelDesc d;
  d.streams.resize(1);
  d.streams[0] = {c.Task(0), c.Task(1), c.Task(2)};
  d.streams[0][1].kernel = &bad;
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  Status s = (*m)->Execute();
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("stream 0 task 1"), std::string::npos) << s.ToString();
  EXPECT_EQ(c.buf[3], 0.f) << "the task after the failure ran";
}

TEST_P(HalModel, RejectsModelsThatCouldDeadlockOrNameBadEvents) {
  Chain c(2);
  auto create = [](std::vector<std::vector<ModelTask>> streams, int events) {
    ModelDesc d;
    d.streams = std::move(streams);
    d.num_events = events;
    return Dev().CreateModel(d).status();
  };
  // A cycle: each stream waits for what the other records afterwards.
  Status cycle = create({{Wait(0), Record(1)}, {Wait(1), Record(0)}}, 2);
  EXPECT_EQ(cycle.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(cycle.message().find("cycle"), std::string::npos) << cycle.ToString();
  EXPECT_EQ(create({{Wait(0)}}, 1).code(), StatusCode::kInvalidArgument);                       // never recorded
  EXPECT_EQ(create({{Wait(0), Record(0)}}, 1).code(), StatusCode::kInvalidArgument);            // record after own wait
  EXPECT_EQ(create({{Record(0)}, {Record(0)}}, 1).code(), StatusCode::kInvalidArgument);         // twice
  EXPECT_EQ(create({{Record(3)}}, 1).code(), StatusCode::kInvalidArgument);                      // out of range
  ModelTask no_kernel;
  EXPECT_EQ(create({{no_kernel}}, 0).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(create({{c.Task(0), Record(0)}, {Wait(0), c.Task(1)}}, 1).ok());
}

TEST_P(HalModel, TimingRecordsEveryTaskOnlyWhenEnabled) {
  Chain c(4);
  ModelDesc d;
  d.num_events = 1;
  d.streams = {{c.Task(0), c.Task(1), Record(0)}, {Wait(0), c.Task(2), c.Task(3)}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_TRUE((*m)->timings().empty());
  (*m)->EnableTiming(true);
  ASSERT_TRUE((*m)->Execute().ok());
  const auto& t = (*m)->timings();
  ASSERT_EQ(t.size(), 2u);
  for (const auto& s : t)
    for (const TaskTime& x : s) {
      EXPECT_GT(x.begin_ns, 0);
      EXPECT_GE(x.end_ns, x.begin_ns);
    }
  EXPECT_GE(t[1][1].begin_ns, t[0][2].begin_ns) << "task after the wait started before the record";
}

TEST_P(HalModel, EmptyModelRuns) {
  ModelDesc d;
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE((*m)->Execute().ok());
  EXPECT_TRUE((*m)->Execute(10ms).ok());
}

}  // namespace
}  // namespace ge::hal
