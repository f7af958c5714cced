// The memory plan on a multi-stream schedule: a buffer read on stream 1 is
// not reused (or written in place) by stream 0 before stream 0 waits for
// that read; every pair of buffers sharing memory is ordered by
// happens-before; one stream keeps the single-stream plan.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "compiler/memory/memory_planner.h"
#include "compiler/streams/streams.h"
#include "ge/om.h"
#include "ge/plan/happens_before.h"
#include "ge/plan/verify.h"
#include "ge/runtime.h"
#include "ge_parsers/onnx_parser.h"
#include "tests/common/refusal.h"
#include "tests/unit/streams/graph_builder.h"

namespace ge::streams::test {
namespace {

// x -> a -> c=Tanh(a) (side stream, read by d at the end)
//        -> b=Relu(a) -> b2=Exp -> b3=Neg -> d=Add(b3, c) -> out
// In execution order c comes before b, so on one stream a dies at b: b may
// write over a in place, and b2 may reuse a's memory. On two streams c runs
// beside b, b2, b3 and nothing on stream 0 waits for it before d.
std::unique_ptr<Graph> SideRead() {
  G g;
  Node* a = g.Op("Sigmoid", "a", {g.Data("x")});
  Node* c = g.Op("Tanh", "c", {a});
  Node* b = g.Op("Relu", "b", {a});
  Node* b2 = g.Op("Exp", "b2", {b});
  Node* b3 = g.Op("Neg", "b3", {b2});
  g.Out({g.Op("Add", "d", {b3, c})});
  return std::move(g.g);
}

const BufferPlan& Buf(const MemoryPlan& p, const std::string& node) {
  for (const BufferPlan& b : p.buffers)
    if (b.node == node && b.output == 0) return b;
  static BufferPlan none;
  ADD_FAILURE() << "no buffer for " << node;
  return none;
}

bool Share(const BufferPlan& x, const BufferPlan& y) {
  return x.segment == y.segment && x.offset < y.offset + y.size && y.offset < x.offset + x.size;
}

Result<std::pair<MemoryPlan, std::vector<StreamTasks>>> Plan(const Graph& g, int32_t streams, bool inplace) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, memory::ExecutionOrder(g));
  GE_ASSIGN_OR_RETURN(std::vector<StreamTasks> schedule, BuildSchedule(order, streams));
  memory::PlanOptions o;
  o.inplace = inplace;
  o.schedule = &schedule;
  GE_ASSIGN_OR_RETURN(MemoryPlan plan, memory::PlanMemory(g, o));
  return std::make_pair(std::move(plan), std::move(schedule));
}

// Every two feature-map symbols that overlap in memory: every kernel task
// touching one happens before the other's producer.
void ExpectOrderedSharing(const Graph& g, const MemoryPlan& p, const std::vector<StreamTasks>& schedule) {
  auto hb = HappensBefore::Build(schedule);
  ASSERT_TRUE(hb.ok());
  std::map<int64_t, std::vector<const BufferPlan*>> by_symbol;
  for (const BufferPlan& b : p.buffers)
    if (b.segment == Segment::kFeatureMap) by_symbol[b.symbol].push_back(&b);
  auto touches = [&](int64_t sym) {
    std::vector<TaskPos> out;
    for (const BufferPlan* b : by_symbol[sym]) {
      Node* n = g.FindNode(b->node);
      if (auto pos = hb->Find(n->name())) out.push_back(*pos);
      for (const Endpoint& c : n->OutputConsumers(b->output))
        if (auto pos = hb->Find(c.node->name())) out.push_back(*pos);
    }
    return out;
  };
  auto producer = [&](int64_t sym) { return *hb->Find(by_symbol[sym].front()->node); };
  auto before = [&](int64_t x, int64_t y) {
    for (const TaskPos& t : touches(x))
      if (!hb->Before(t, producer(y))) return false;
    return true;
  };
  for (const auto& [x, bx] : by_symbol)
    for (const auto& [y, by] : by_symbol)
      if (x < y && Share(*bx.front(), *by.front())) {
        EXPECT_TRUE(before(x, y) || before(y, x)) << bx.front()->node << " and " << by.front()->node << " share memory unordered";
      }
}

TEST(StreamMemory, ABufferReadOnAnotherStreamIsNotReusedBeforeTheWait) {
  auto g = SideRead();
  auto one = Plan(*g, 1, false);
  auto two = Plan(*g, 2, false);
  ASSERT_TRUE(one.ok() && two.ok()) << one.status().ToString() << two.status().ToString();
  ASSERT_EQ(two->second.size(), 2u);
  const MemoryPlan& p1 = one->first;
  const MemoryPlan& p2 = two->first;
  // One stream: a dies at b, so a, b, c (192 bytes) is the most alive at once
  // and b2 reuses a's memory.
  EXPECT_EQ(p1.lower_bound, 192);
  EXPECT_EQ(p1.feature_map_size, 192);
  EXPECT_TRUE(Share(Buf(p1, "a"), Buf(p1, "b2")));
  // Two streams: c may still be reading a while b2 and b3 are written.
  EXPECT_FALSE(Share(Buf(p2, "a"), Buf(p2, "b2")));
  EXPECT_FALSE(Share(Buf(p2, "a"), Buf(p2, "b3")));
  // The bound sees it: a, b, b2, c conflict pairwise.
  EXPECT_EQ(p2.lower_bound, 256);
  EXPECT_GE(p2.feature_map_size, p2.lower_bound);
  ExpectOrderedSharing(*g, p1, one->second);
  ExpectOrderedSharing(*g, p2, two->second);
}

TEST(StreamMemory, NoInPlaceOverABufferAnotherStreamStillReads) {
  auto g = SideRead();
  auto one = Plan(*g, 1, true);
  auto two = Plan(*g, 2, true);
  ASSERT_TRUE(one.ok() && two.ok());
  // One stream: Relu b writes over a (its last reader in order).
  EXPECT_EQ(Buf(one->first, "b").symbol, Buf(one->first, "a").symbol);
  // Two streams: c on stream 1 is not ordered before b.
  EXPECT_NE(Buf(two->first, "b").symbol, Buf(two->first, "a").symbol);
  ExpectOrderedSharing(*g, two->first, two->second);
}

TEST(StreamMemory, InPlaceWithinOneStreamStays) {
  // x -> a -> m_Exp -> m_Neg -> m_Abs -> b=Add(m_Abs, c); c=Tanh(a) on
  // stream 1. The in-place chain on stream 0 touches nothing stream 1 reads:
  // the multi-stream rule must not switch it off.
  G g;
  Node* a = g.Op("Sigmoid", "a", {g.Data("x")});
  Node* n = a;
  for (const char* t : {"Exp", "Neg", "Abs"}) n = g.Op(t, std::string("m_") + t, {n});
  Node* c = g.Op("Tanh", "c", {a});
  g.Out({g.Op("Add", "b", {n, c})});
  auto two = Plan(*g.g, 2, true);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_EQ(two->second.size(), 2u);
  EXPECT_EQ(Buf(two->first, "m_Abs").symbol, Buf(two->first, "m_Neg").symbol);  // same stream: still in place
  ExpectOrderedSharing(*g.g, two->first, two->second);
}

TEST(StreamMemory, TwoStreamsComputeWhatOneDoes) {
  for (bool reuse : {true, false}) {
    Model m1 = CompileWith(SideRead(), 1, reuse);
    Model m2 = CompileWith(SideRead(), 2, reuse);
    ASSERT_EQ(m2.streams.size(), 2u);
    std::vector<std::vector<float>> outs;
    for (Model* m : {&m1, &m2}) {
      auto l = LoadModel(*m, RunMode::kV2);
      ASSERT_TRUE(l.ok()) << l.status().ToString();
      std::vector<float> in(16), out(16);
      for (int i = 0; i < 16; ++i) in[i] = 0.3f * static_cast<float>(i) - 2.f;
      ASSERT_TRUE((*l)->Execute({in.data()}, {out.data()}).ok());
      outs.push_back(out);
    }
    EXPECT_EQ(outs[0], outs[1]);
  }
}

TEST(StreamMemory, TheModelCheckRejectsSharingTheStreamsDoNotOrder) {
  // Reuse off: every buffer its own range. Then b2 moved onto a: their
  // lifetimes in the order are disjoint (the single-stream check passes),
  // but c on stream 1 may still be reading a while b2 is written.
  Model m = CompileWith(SideRead(), 2, false);
  ASSERT_EQ(m.streams.size(), 2u);
  auto ok = SerializeOm(m);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ParseOm(ok->data(), ok->size(), "good.om").ok());
  const int64_t a = Buf(m.memory, "a").offset;
  for (BufferPlan& b : m.memory.buffers)
    if (b.node == "b2") b.offset = a;
  // Consistently: b2's task writes there and b3 reads it from there.
  for (StreamTasks& st : m.streams)
    for (Task& t : st.tasks) {
      if (t.node == "b2" && t.kind == Task::Kind::kKernel) t.outputs[0].offset = a;
      if (t.node == "b3" && t.kind == Task::Kind::kKernel) t.inputs[0].offset = a;
    }
  auto bad = SerializeOm(m);
  ASSERT_TRUE(bad.ok());
  // The bytes decode; their meaning is refused by the model check every load runs.
  auto loaded = ParseOm(bad->data(), bad->size(), "racy.om");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Status s = VerifyModel(loaded->model);
  ASSERT_TRUE(Refused(s, StatusCode::kCorrupt, "overlap in memory while both may be in use"));
}

TEST(StreamMemory, ReferenceModelsShareMemoryOnlyInHappensBeforeOrder) {
  // The rule checked from outside the planner on real schedules: every two
  // feature-map buffers overlapping in memory are ordered by the events.
  for (const char* name : {"squeezenet1_1", "resnet18", "bert_encoder"}) {
    const std::string path = std::string(GE_MODELS_DIR) + "/" + name + ".onnx";
    if (!std::filesystem::exists(path)) {
      std::printf("skipping %s: %s is absent\n", name, path.c_str());
      continue;
    }
    for (int32_t n : {2, 4}) {
      auto g = ParseOnnxFile(path, ParseOptions{});
      ASSERT_TRUE(g.ok()) << g.status().ToString();
      Model m = CompileWith(std::move(g).value(), n);
      ASSERT_GE(m.streams.size(), 2u) << name;
      SCOPED_TRACE(std::string(name) + " stream_num " + std::to_string(n));
      ExpectOrderedSharing(*m.graph, m.memory, m.streams);
      EXPECT_GE(m.memory.feature_map_size, m.memory.lower_bound);
    }
  }
}

}  // namespace
}  // namespace ge::streams::test
