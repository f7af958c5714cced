// Tiny models for the sink runtime tests: compiled with the real compiler,
// run by v2 for the expected bytes, and aligned buffers to run them with.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/runtime.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {

// 64-byte aligned bytes; `skew` > 0 makes data() deliberately unaligned.
class Buf {
 public:
  explicit Buf(size_t n, size_t skew = 0) : n_(n), skew_(skew), raw_(static_cast<uint8_t*>(std::aligned_alloc(64, (n + skew + 64) / 64 * 64 + 64))) {
    std::memset(raw_, 0, n + skew);
  }
  ~Buf() { std::free(raw_); }
  Buf(Buf&& o) noexcept : n_(o.n_), skew_(o.skew_), raw_(o.raw_) { o.raw_ = nullptr; }
  Buf(const Buf&) = delete;
  uint8_t* data() const { return raw_ + skew_; }
  size_t size() const { return n_; }
  void Fill(const std::vector<float>& v) { std::memcpy(data(), v.data(), v.size() * sizeof(float)); }
  std::vector<uint8_t> Bytes() const { return std::vector<uint8_t>(data(), data() + n_); }
  DataBuffer In() const { return {data(), n_}; }
  MutableBuffer Out() const { return {data(), n_}; }

 private:
  size_t n_, skew_;
  uint8_t* raw_;
};

inline Model CompileTiny(std::unique_ptr<Graph> g, bool reuse = true) {
  CompileOptions co;
  co.model_name = "tiny";
  co.buffer_reuse = reuse;
  auto m = Compile(std::move(g), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m).value();
}

// x1, x2 [1,64]: y = Relu(x1) + Sigmoid(x2); z = y * c. Outputs z, y.
inline std::unique_ptr<Graph> TwoInputGraph() {
  TinyGraph t;
  Node* x1 = t.Data("x1", F32({1, 64}));
  Node* x2 = t.Data("x2", F32({1, 64}));
  Node* c = t.Const("c", F32s({1, 64}, Iota(64, 0.5f, -2.f)));
  Node* r = t.Op("Relu", "r", {x1});
  Node* s = t.Op("Sigmoid", "s", {x2});
  Node* y = t.Op("Add", "y", {r, s});
  Node* z = t.Op("Mul", "z", {y, c});
  t.Output({z, y}, {"z", "y"});
  return t.Clone();
}

inline std::vector<float> Values(size_t n, float seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = seed + 0.37f * static_cast<float>((i * 13) % 17) - 3.f;
  return v;
}

// Runs `model` in v2 on the given inputs; the output bytes.
inline std::vector<std::vector<uint8_t>> RunV2(const Model& model, const std::vector<const Buf*>& in) {
  auto v2 = LoadModel(model, RunMode::kV2);
  EXPECT_TRUE(v2.ok()) << v2.status().ToString();
  std::vector<const void*> ip;
  for (const Buf* b : in) ip.push_back(b->data());
  std::vector<Buf> out;
  std::vector<void*> op;
  for (const auto& o : (*v2)->outputs()) out.emplace_back(static_cast<size_t>(o.desc.Bytes()));
  for (auto& b : out) op.push_back(b.data());
  EXPECT_TRUE((*v2)->Execute(ip, op).ok());
  std::vector<std::vector<uint8_t>> r;
  for (auto& b : out) r.push_back(b.Bytes());
  return r;
}

inline std::vector<Buf> OutputsFor(const LoadedModel& m, size_t skew = 0) {
  std::vector<Buf> out;
  for (const auto& o : m.outputs()) out.emplace_back(static_cast<size_t>(o.desc.Bytes()), skew);
  return out;
}
inline std::vector<MutableBuffer> Outs(const std::vector<Buf>& b) {
  std::vector<MutableBuffer> r;
  for (const auto& x : b) r.push_back(x.Out());
  return r;
}

// Moves the kernel tasks of a single-stream model onto `streams` streams
// (task i to stream assign(i)) and adds an event for every value produced on
// one stream and read on another: recorded right after its producer, waited
// right before each consumer. The model must be planned without reuse (no
// buffer is shared by tensors whose lifetimes the new order could overlap).
template <typename Assign>
void SplitOverStreams(Model& m, int streams, Assign assign) {
  ASSERT_EQ(m.streams.size(), 1u);
  const std::vector<Task> tasks = m.streams[0].tasks;
  std::vector<int> where(tasks.size());
  std::vector<int> event_of(tasks.size(), -1);
  int events = 0;
  auto producer = [&](const TaskArg& a, size_t before) -> int {
    for (size_t p = 0; p < before; ++p)
      for (const TaskArg& o : tasks[p].outputs)
        if (o.segment == a.segment && o.offset == a.offset) return static_cast<int>(p);
    return -1;
  };
  for (size_t i = 0; i < tasks.size(); ++i) where[i] = assign(static_cast<int>(i)) % streams;
  std::vector<std::vector<int>> waits(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i)
    for (const TaskArg& a : tasks[i].inputs) {
      if (a.offset < 0) continue;
      const int p = producer(a, i);
      if (p < 0 || where[p] == where[i]) continue;
      if (event_of[p] < 0) event_of[p] = events++;
      waits[i].push_back(event_of[p]);
    }
  m.streams.assign(static_cast<size_t>(streams), StreamTasks{});
  for (int s = 0; s < streams; ++s) m.streams[s].stream = s;
  for (size_t i = 0; i < tasks.size(); ++i) {
    auto& list = m.streams[where[i]].tasks;
    for (int e : waits[i]) {
      Task w;
      w.kind = Task::Kind::kEventWait;
      w.event = e;
      list.push_back(w);
    }
    list.push_back(tasks[i]);
    if (event_of[i] >= 0) {
      Task r;
      r.kind = Task::Kind::kEventRecord;
      r.event = event_of[i];
      list.push_back(r);
    }
  }
  // Kernel ids run over stream 0's kernel tasks, then stream 1's (ge/plan.h).
  int32_t kernel = 0;
  for (StreamTasks& st : m.streams)
    for (Task& t : st.tasks)
      if (t.kind == Task::Kind::kKernel) t.kernel = kernel++;
}

// Resident memory of this process in KiB (/proc/self/status VmRSS).
inline long RssKiB() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

}  // namespace ge::test
