// HAL models (hal/model.h): pre-distributed task lists run by one call.
// Written against the interface; kernels are tiny test kernels, so the suite
// holds for any backend that can run host-callable kernels.
#include "hal/model.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/hal/hal_cts.h"

namespace ge::hal {
namespace {

using namespace std::chrono_literals;

GE_HAL_CTS_SUITE(HalModel, HalHostTest);

// out[0] = in[0] + 1 (one float).
class AddOne final : public Kernel {
 public:
  Status Run(const void* const* in, void* const* out) override {
    *static_cast<float*>(out[0]) = *static_cast<const float*>(in[0]) + 1.f;
    return Status::Ok();
  }
};

class Failing final : public Kernel {
 public:
  Status Run(const void* const*, void* const*) override { return Internal("test kernel failed on purpose"); }
};

// A chain of n AddOne kernels over buf[0..n]: buf[i+1] = buf[i] + 1.
struct Chain {
  explicit Chain(int n) : buf(n + 1, 0.f), ins(n), outs(n) {
    for (int i = 0; i < n; ++i) {
      kernels.push_back(std::make_unique<AddOne>());
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

// Two kernels that wait for each other: each counts its arrival, then waits
// until both have arrived. Run one after the other, the first waits for a
// partner that cannot come and, after the deadlock guard, fails.
struct Rendezvous {
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
};
class MeetKernel final : public Kernel {
 public:
  explicit MeetKernel(Rendezvous* r) : r_(r) {}
  Status Run(const void* const*, void* const*) override {
    std::unique_lock<std::mutex> lock(r_->mu);
    ++r_->arrived;
    r_->cv.notify_all();
    if (!r_->cv.wait_for(lock, 60s, [this] { return r_->arrived >= 2; }))
      return Internal("the other stream's kernel never ran alongside this one");
    return Status::Ok();
  }

 private:
  Rendezvous* r_;
};

TEST_P(HalModel, StreamsRunInParallel) {
  Rendezvous meet;
  MeetKernel a(&meet), b(&meet);
  ModelTask ta, tb;
  ta.kernel = &a;
  tb.kernel = &b;
  ModelDesc d;
  d.streams = {{ta}, {tb}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  Status s = (*m)->Execute();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(meet.arrived, 2);
}

// A kernel that holds its stream until Open(), and says when it has started.
class GateKernel final : public Kernel {
 public:
  Status Run(const void* const*, void* const*) override {
    std::unique_lock<std::mutex> lock(mu_);
    entered_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return open_; });
    return Status::Ok();
  }
  void AwaitEntered() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return entered_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool entered_ = false;
  bool open_ = false;
};

TEST_P(HalModel, AbortUnblocksAStreamHeldInAnEventWait) {
  // Stream 0 waits for the event stream 1 records after its held kernel: the
  // abort comes while the kernel is held, so no margin decides the order.
  GateKernel gate;
  Chain fast(1);
  ModelTask held;
  held.kernel = &gate;
  ModelDesc d;
  d.num_events = 1;
  d.streams = {{Wait(0), fast.Task(0)}, {held, Record(0)}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_TRUE((*m)->Launch().ok());
  gate.AwaitEntered();
  (*m)->Abort();
  gate.Open();
  Status s = (*m)->Wait();
  EXPECT_EQ(s.code(), StatusCode::kAborted) << s.ToString();
  EXPECT_NE(s.message().find("model run aborted"), std::string::npos) << s.ToString();
  EXPECT_EQ(fast.buf[1], 0.f) << "the task after the wait ran in the aborted run";
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

// Label tasks: out[0] (int32) = in[0] (float) < limit ? 1 : 0, the index a
// LabelSwitch reads.
class Below final : public Kernel {
 public:
  explicit Below(float limit) : limit_(limit) {}
  Status Run(const void* const* in, void* const* out) override {
    *static_cast<int32_t*>(out[0]) = *static_cast<const float*>(in[0]) < limit_ ? 1 : 0;
    return Status::Ok();
  }
  float limit_;
};

ModelTask LabelSet(int l) {
  ModelTask t;
  t.kind = ModelTask::Kind::kLabelSet;
  t.label = l;
  return t;
}
ModelTask Goto(int l) {
  ModelTask t;
  t.kind = ModelTask::Kind::kLabelGoto;
  t.label = l;
  return t;
}
ModelTask Switch(const void* const* index, const std::vector<int32_t>& labels) {
  ModelTask t;
  t.kind = ModelTask::Kind::kLabelSwitch;
  t.inputs = index;
  t.labels = labels.data();
  t.num_labels = static_cast<int32_t>(labels.size());
  return t;
}

// A do-while loop in one call: x += 1 until x >= limit. buf[0] is x; AddOne
// writes it in place.
struct CountedLoop {
  explicit CountedLoop(float limit) : below(limit) {
    x_in = &x;
    x_out = &x;
    idx_in = &idx;
    idx_out = &idx;
  }
  ModelDesc Desc() {
    ModelDesc d;
    d.num_labels = 2;
    ModelTask add;
    add.kernel = &add_one;
    add.inputs = &x_in;
    add.outputs = &x_out;
    ModelTask test;
    test.kernel = &below;
    test.inputs = &x_in;
    test.outputs = &idx_out;
    // 0: L0  1: x += 1  2: idx = x < limit  3: switch idx -> [L1 exit, L0 loop]  4: L1
    d.streams = {{LabelSet(0), add, test, Switch(&idx_in, labels), LabelSet(1)}};
    return d;
  }
  float x = 0;
  int32_t idx = 0;
  const void* x_in;
  void* x_out;
  const void* idx_in;
  void* idx_out;
  AddOne add_one;
  Below below;
  std::vector<int32_t> labels = {1, 0};
};

TEST_P(HalModel, ALabelSwitchLoopRunsEveryIterationInOneCall) {
  CountedLoop loop(16.f);
  auto m = Dev().CreateModel(loop.Desc());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(loop.x, 16.f);
  loop.x = -100.f;
  ASSERT_TRUE((*m)->Execute(5s).ok());  // the worker path
  EXPECT_EQ(loop.x, 16.f);
  (*m)->EnableTiming(true);
  loop.x = 0;
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(loop.x, 16.f);
  EXPECT_GT((*m)->timings()[0][1].begin_ns, 0);  // the last iteration's time
}

TEST_P(HalModel, TimeoutAbortsAndTheModelRunsCorrectlyAfterwards) {
  // A loop whose limit is never reached ends only when the timeout aborts it
  // at a task boundary: no wall-clock margin decides the result.
  CountedLoop loop(std::numeric_limits<float>::infinity());
  auto m = Dev().CreateModel(loop.Desc());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  Status s = (*m)->Execute(50ms);
  EXPECT_EQ(s.code(), StatusCode::kTimeout) << s.ToString();
  EXPECT_NE(s.message().find("did not finish within 50 ms"), std::string::npos) << s.ToString();
  // After the call returns nothing writes: the loop stopped part-way.
  const float stopped = loop.x;
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(loop.x, stopped);
  loop.below.limit_ = 16.f;
  loop.x = 0.f;
  ASSERT_TRUE((*m)->Execute().ok());
  EXPECT_EQ(loop.x, 16.f);
}

TEST_P(HalModel, ALabelSwitchPicksABranchAndAnOutOfRangeIndexTakesTheLast) {
  // if (idx == 0) buf += 1 else buf += 1 twice; idx is data written by the caller.
  Chain c(3);
  int32_t idx = 0;
  const void* idx_ptr = &idx;
  std::vector<int32_t> labels = {0, 1};
  ModelDesc d;
  d.num_labels = 3;
  // 0: switch  1: L0  2: add(0)  3: goto L2  4: L1  5: add(1)  6: add(2)  7: L2
  c.ins[1] = &c.buf[0];  // both branches start from buf[0]
  c.ins[2] = &c.buf[2];
  d.streams = {{Switch(&idx_ptr, labels), LabelSet(0), c.Task(0), Goto(2), LabelSet(1), c.Task(1), c.Task(2),
                LabelSet(2)}};
  auto m = Dev().CreateModel(d);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  for (int32_t i : {0, 1, 7, -1}) {
    SCOPED_TRACE(i);
    idx = i;
    c.buf.assign(4, 0.f);
    ASSERT_TRUE((*m)->Execute().ok());
    if (i == 0) {
      EXPECT_EQ(c.buf[1], 1.f);
      EXPECT_EQ(c.buf[3], 0.f) << "the else branch ran";
    } else {
      EXPECT_EQ(c.buf[1], 0.f) << "the then branch ran";
      EXPECT_EQ(c.buf[3], 2.f);
    }
  }
}

TEST_P(HalModel, RejectsBadLabels) {
  CountedLoop loop(4.f);
  auto create = [](ModelDesc d) { return Dev().CreateModel(std::move(d)).status(); };
  auto expect_error = [&](ModelDesc d, const std::string& what) {
    const Status s = create(std::move(d));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << what;
    EXPECT_NE(s.message().find(what), std::string::npos) << s.ToString();
  };
  ModelDesc twice = loop.Desc();
  twice.streams[0].push_back(LabelSet(0));
  expect_error(twice, "set twice");
  ModelDesc range = loop.Desc();
  range.num_labels = 1;
  expect_error(range, "out of range");
  ModelDesc unset = loop.Desc();
  unset.streams[0].back() = Goto(1);
  expect_error(unset, "which no task sets");
  ModelDesc other = loop.Desc();
  other.streams.push_back({LabelSet(1)});
  other.streams[0].pop_back();
  expect_error(other, "set on stream 1");
  ModelDesc events = loop.Desc();
  events.num_events = 1;
  events.streams[0].push_back(Record(0));
  expect_error(events, "both jumps and events");
  ModelDesc no_index = loop.Desc();
  no_index.streams[0][3].inputs = nullptr;
  expect_error(no_index, "without an index");
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
