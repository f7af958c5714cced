// Targeted edits of a compiled model behind its checksums: dropping,
// duplicating and reordering tasks, moving and resizing buffers and
// bindings, changing dtypes and dims, pointing arguments across segments.
// Each edited model goes through the .om bytes (SerializeOm recomputes every
// CRC) and is either refused at load, in both modes, or runs and returns
// exactly what the original returns. None may load and give a wrong answer.
#include <gtest/gtest.h>

#include <functional>

#include "ge/om.h"
#include "ge/plan/verify.h"
#include "tests/common/refusal.h"
#include "tests/unit/runtime/sink_test_util.h"

namespace ge::test {
namespace {

// Aliases (Reshape), in-place chains (Exp over Relu, Neg over Add), a
// constant, an output that is also read inside, and an output that is a
// model input (a copy binding).
std::unique_ptr<Graph> TamperGraph() {
  TinyGraph t;
  Node* x1 = t.Data("x1", F32({1, 64}));
  Node* x2 = t.Data("x2", F32({1, 64}));
  Node* a = t.Op("Relu", "a", {x1});
  Node* b = t.Op("Exp", "b", {a});
  Node* c = t.Op("Reshape", "c", {b, t.Const("s1", I64s({8, 8}))});
  Node* d = t.Op("Sigmoid", "d", {x2});
  Node* e = t.Op("Reshape", "e", {d, t.Const("s2", I64s({8, 8}))});
  Node* f = t.Op("Add", "f", {c, e});
  Node* g = t.Op("Tanh", "g", {f});
  Node* h = t.Op("Neg", "h", {g});
  Node* k = t.Op("Mul", "k", {h, t.Const("w", F32s({8, 8}, Iota(64, 0.25f, -1.f)))});
  t.Output({k, f, x2}, {"k", "f", "x2"});
  return t.Clone();
}

Model Compile(int streams) {
  CompileOptions co;
  co.model_name = "tamper";
  co.stream_num = streams;
  auto m = ge::Compile(TamperGraph(), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m).value();
}

Model Copy(const std::string& om) {
  auto m = ParseOm(om.data(), om.size(), "t.om");
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return std::move(m->model);
}

using Outputs = std::vector<std::vector<uint8_t>>;

// The outputs in `mode`, or nullopt when the model is refused.
std::optional<Outputs> LoadAndRun(const Model& m, RunMode mode, std::string* why) {
  auto l = LoadModel(m, LoadOptions{mode, ""});
  if (!l.ok()) {
    *why = l.status().ToString();
    return std::nullopt;
  }
  Buf x1(256), x2(256);
  x1.Fill(Values(64, 0.5f));
  x2.Fill(Values(64, -0.25f));
  std::vector<Buf> out = OutputsFor(**l);
  std::vector<void*> op;
  for (Buf& b : out) op.push_back(b.data());
  const Status s = (*l)->Execute({x1.data(), x2.data()}, op);
  if (!s.ok()) {
    *why = "run: " + s.ToString();
    return std::nullopt;
  }
  Outputs r;
  for (Buf& b : out) r.push_back(b.Bytes());
  return r;
}

struct Edit {
  std::string what;
  std::function<void(Model&)> apply;
};

std::vector<Edit> Edits(const Model& m) {
  std::vector<Edit> e;
  const auto& streams = m.streams;
  for (size_t s = 0; s < streams.size(); ++s)
    for (size_t i = 0; i < streams[s].tasks.size(); ++i) {
      const std::string at = "stream " + std::to_string(s) + " task " + std::to_string(i);
      e.push_back({"drop " + at, [=](Model& x) { x.streams[s].tasks.erase(x.streams[s].tasks.begin() + i); }});
      e.push_back({"duplicate " + at, [=](Model& x) {
                     auto& t = x.streams[s].tasks;
                     t.insert(t.begin() + i, t[i]);
                   }});
      if (i + 1 < streams[s].tasks.size())
        e.push_back({"swap " + at, [=](Model& x) { std::swap(x.streams[s].tasks[i], x.streams[s].tasks[i + 1]); }});
      for (size_t k = 0; k < streams[s].tasks[i].inputs.size() + streams[s].tasks[i].outputs.size(); ++k)
        for (int seg = 0; seg < 4; ++seg) {
          e.push_back({at + " arg " + std::to_string(k) + " to segment " + std::to_string(seg), [=](Model& x) {
                         Task& t = x.streams[s].tasks[i];
                         TaskArg& a = k < t.inputs.size() ? t.inputs[k] : t.outputs[k - t.inputs.size()];
                         a.segment = static_cast<Segment>(seg);
                       }});
          e.push_back({at + " arg " + std::to_string(k) + " +64", [=](Model& x) {
                         Task& t = x.streams[s].tasks[i];
                         TaskArg& a = k < t.inputs.size() ? t.inputs[k] : t.outputs[k - t.inputs.size()];
                         a.offset += 64;
                       }});
        }
      if (s + 1 < streams.size() || s > 0)  // a task moved to another stream
        e.push_back({"move " + at + " across streams", [=](Model& x) {
                       const size_t to = s + 1 < x.streams.size() ? s + 1 : s - 1;
                       Task t = x.streams[s].tasks[i];
                       x.streams[s].tasks.erase(x.streams[s].tasks.begin() + i);
                       x.streams[to].tasks.push_back(t);
                     }});
    }
  // Buffers moved onto each other (alone, and with every task argument that
  // pointed at them), resized, and put in another segment.
  const auto& buffers = m.memory.buffers;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const std::string name = "buffer " + buffers[i].node + ":" + std::to_string(buffers[i].output);
    for (size_t j = 0; j < buffers.size(); ++j) {
      if (i == j || (buffers[i].segment == buffers[j].segment && buffers[i].offset == buffers[j].offset)) continue;
      for (bool args : {false, true})
        e.push_back({name + " onto " + buffers[j].node + (args ? " with its arguments" : ""), [=](Model& x) {
                       BufferPlan& b = x.memory.buffers[i];
                       const TaskArg from{b.segment, b.offset};
                       b.segment = x.memory.buffers[j].segment;
                       b.offset = x.memory.buffers[j].offset;
                       if (!args) return;
                       for (StreamTasks& st : x.streams)
                         for (Task& t : st.tasks)
                           for (auto* list : {&t.inputs, &t.outputs})
                             for (TaskArg& a : *list)
                               if (a.segment == from.segment && a.offset == from.offset) a = TaskArg{b.segment, b.offset};
                     }});
    }
    e.push_back({name + " resized", [=](Model& x) { x.memory.buffers[i].size -= 4; }});
    e.push_back({name + " unaligned", [=](Model& x) { x.memory.buffers[i].offset += 4; }});
  }
  // Bindings.
  for (size_t i = 0; i < m.memory.outputs.size(); ++i) {
    const std::string name = "output binding " + std::to_string(i);
    e.push_back({name + " toggles copy", [=](Model& x) { x.memory.outputs[i].copy = !x.memory.outputs[i].copy; }});
    e.push_back({name + " moved", [=](Model& x) { x.memory.outputs[i].offset += 64; }});
    e.push_back({name + " resized", [=](Model& x) { x.memory.outputs[i].size -= 4; }});
    for (int seg = 0; seg < 4; ++seg)
      e.push_back({name + " source segment " + std::to_string(seg), [=](Model& x) {
                     x.memory.outputs[i].copy = true;
                     x.memory.outputs[i].source.segment = static_cast<Segment>(seg);
                   }});
    if (i + 1 < m.memory.outputs.size())
      e.push_back({name + " swapped with the next", [=](Model& x) {
                     std::swap(x.memory.outputs[i], x.memory.outputs[i + 1]);
                   }});
  }
  for (size_t i = 0; i < m.memory.inputs.size(); ++i) {
    e.push_back({"input binding " + std::to_string(i) + " moved", [=](Model& x) { x.memory.inputs[i].offset += 64; }});
    if (i + 1 < m.memory.inputs.size())
      e.push_back({"input bindings swapped", [=](Model& x) { std::swap(x.memory.inputs[i], x.memory.inputs[i + 1]); }});
  }
  // Dtypes and dims, keeping the byte size.
  for (const Node* n : m.graph->nodes())
    for (size_t o = 0; o < n->num_outputs(); ++o) {
      const std::string name = n->name();
      if (n->output_desc(o).dtype == DataType::kFloat32)
        e.push_back({"dtype of " + name, [=](Model& x) { x.graph->FindNode(name)->output_desc(o).dtype = DataType::kInt32; }});
      if (n->output_desc(o).dims == Dims{1, 64})
        e.push_back({"dims of " + name, [=](Model& x) { x.graph->FindNode(name)->output_desc(o).dims = {2, 32}; }});
    }
  // The execution order.
  for (size_t i = 0; i + 1 < m.memory.order.size(); ++i)
    e.push_back({"order swap " + std::to_string(i), [=](Model& x) { std::swap(x.memory.order[i], x.memory.order[i + 1]); }});
  return e;
}

void ExpectRefusedOrRight(int streams) {
  const Model original = Compile(streams);
  ASSERT_EQ(original.streams.size(), static_cast<size_t>(streams));
  ASSERT_TRUE(VerifyModel(original).ok());
  auto om = SerializeOm(original);
  ASSERT_TRUE(om.ok());
  std::map<RunMode, Outputs> want;
  for (RunMode mode : {RunMode::kV2, RunMode::kSink}) {
    std::string why;
    auto r = LoadAndRun(original, mode, &why);
    ASSERT_TRUE(r) << why;
    want[mode] = *r;
  }
  int refused = 0, right = 0, unchanged = 0;
  const Model base = Copy(*om);
  for (const Edit& edit : Edits(base)) {
    SCOPED_TRACE(edit.what);
    Model m = Copy(*om);
    edit.apply(m);
    auto bytes = SerializeOm(m);
    if (!bytes.ok()) {
      ++refused;
      continue;
    }
    if (*bytes == *om) {
      ++unchanged;
      continue;
    }
    auto parsed = ParseOm(bytes->data(), bytes->size(), "edited.om");
    if (!parsed.ok()) {
      ++refused;
      continue;
    }
    for (RunMode mode : {RunMode::kV2, RunMode::kSink}) {
      std::string why;
      auto got = LoadAndRun(parsed->model, mode, &why);
      if (!got) {
        ++refused;
        EXPECT_EQ(why.find('\n'), std::string::npos) << why;  // one line
        continue;
      }
      ++right;
      EXPECT_TRUE(*got == want[mode]) << "loaded and gave a wrong answer in " << (mode == RunMode::kV2 ? "v2" : "sink");
    }
  }
  std::printf("%d streams: %d edits refused, %d ran correctly, %d changed nothing\n", streams, refused, right, unchanged);
  EXPECT_GT(refused, 100);
}

TEST(ModelTamper, OneStreamEditsAreRefusedOrRunCorrectly) { ExpectRefusedOrRight(1); }
TEST(ModelTamper, TwoStreamEditsAreRefusedOrRunCorrectly) { ExpectRefusedOrRight(2); }

// The rules one by one, each with the error a user sees.
struct Case {
  std::string what;
  std::function<void(Model&)> edit;
  std::string expect;
};

TEST(ModelTamper, EachRuleNamesTheViolation) {
  const Model original = Compile(1);
  auto om = SerializeOm(original);
  ASSERT_TRUE(om.ok());
  auto task_of = [](Model& m, const std::string& node) -> Task& {
    for (StreamTasks& st : m.streams)
      for (Task& t : st.tasks)
        if (t.node == node && t.kind == Task::Kind::kKernel) return t;
    throw std::runtime_error("no task for " + node);
  };
  auto buffer_of = [](Model& m, const std::string& node) -> BufferPlan& {
    for (BufferPlan& b : m.memory.buffers)
      if (b.node == node) return b;
    throw std::runtime_error("no buffer for " + node);
  };
  const std::vector<Case> cases = {
      {"no tasks", [](Model& m) { m.streams.assign(1, StreamTasks{}); }, "has no task: it would never run"},
      {"last task dropped", [](Model& m) { m.streams[0].tasks.pop_back(); }, "has no task"},
      {"swapped", [&](Model& m) {
         auto& t = m.streams[0].tasks;
         std::swap(t[0], t[1]);
         for (size_t i = 0; i < t.size(); ++i) t[i].kernel = static_cast<int32_t>(i);
       }, "may run before"},
      {"output over a live buffer", [&](Model& m) {
         // d (Sigmoid) written where b is, while b is still to be read.
         BufferPlan& d = buffer_of(m, "d");
         const BufferPlan& b = buffer_of(m, "b");
         const TaskArg to{b.segment, b.offset}, from{d.segment, d.offset};
         d.segment = to.segment;
         d.offset = to.offset;
         for (StreamTasks& st : m.streams)
           for (Task& t : st.tasks)
             for (auto* list : {&t.inputs, &t.outputs})
               for (TaskArg& a : *list)
                 if (a.segment == from.segment && a.offset == from.offset) a = to;
         // e aliases d: it moves too.
         BufferPlan& e = buffer_of(m, "e");
         e.segment = to.segment;
         e.offset = to.offset;
       }, "overlap in memory"},
      {"unaligned", [&](Model& m) { buffer_of(m, "g").offset += 4; }, "not aligned"},
      {"argument across segments", [&](Model& m) { task_of(m, "g").inputs[0].segment = Segment::kFeatureMap; }, "the task reads"},
      {"output copied from the wrong place", [&](Model& m) {
         m.memory.outputs[2].source = TaskArg{Segment::kOutput, 0};
       }, "is copied from"},
      {"dtype", [&](Model& m) { m.graph->FindNode("g")->output_desc(0).dtype = DataType::kInt32; }, "its inputs make it"},
      {"dims", [&](Model& m) { m.graph->FindNode("a")->output_desc(0).dims = {2, 32}; }, "its inputs make it"},
      {"input binding", [&](Model& m) { std::swap(m.memory.inputs[0], m.memory.inputs[1]); }, "input 0 (x1) is bound"},
  };
  for (const Case& c : cases) {
    Model m = Copy(*om);
    c.edit(m);
    const Status s = VerifyModel(m);
    EXPECT_FALSE(s.ok()) << c.what;
    EXPECT_EQ(s.code(), StatusCode::kCorrupt) << c.what;
    EXPECT_NE(s.message().find(c.expect), std::string::npos) << c.what << ": " << s.message();
    EXPECT_TRUE(Refused(LoadModel(m, LoadOptions{RunMode::kSink, ""}), StatusCode::kCorrupt,
                        "sink load of tamper: model tamper: model check"))
        << c.what;
    EXPECT_TRUE(Refused(LoadModel(m, LoadOptions{RunMode::kV2, ""}), StatusCode::kCorrupt, "model tamper: model check"))
        << c.what;
  }
}

}  // namespace
}  // namespace ge::test
