// The memory planner and task lists (libge/compiler/memory, tasks) on tiny
// graphs with hand-computed lifetimes and offsets, and runtime v2 running
// their plans (aliasing is real there: a wrong offset is a wrong output).
#include "compiler/memory/memory_planner.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "compiler/tasks/task_builder.h"
#include "ge/model.h"
#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_alias.h"
#include "ge/runtime.h"
#include "tests/common/refusal.h"

namespace ge::memory {
namespace {

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc(DataType::kFloat32, std::move(dims)); }

// Builds graphs in a few lines: every tensor f32 of `dims`.
struct G {
  std::unique_ptr<Graph> g = std::make_unique<Graph>("t");
  std::vector<int64_t> dims = {1, 16};  // 64 bytes
  int inputs = 0;
  Node* Data(const std::string& name) {
    Node* n = g->AddNode(op::kData, name, 0, 1);
    n->SetAttr("index", int64_t{inputs++});
    n->output_desc(0) = F32(dims);
    return n;
  }
  Node* Const(const std::string& name, std::vector<float> v) {
    Node* n = g->AddNode(op::kConst, name, 0, 1);
    n->SetAttr("value", Tensor::FromVector<float>(DataType::kFloat32, dims, v));
    n->output_desc(0) = F32(dims);
    return n;
  }
  Node* Op(const std::string& type, const std::string& name, std::vector<Node*> in) {
    Node* n = g->AddNode(type, name, in.size(), 1);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_TRUE(g->AddEdge(in[i], 0, n, i).ok());
    n->output_desc(0) = F32(dims);
    return n;
  }
  Node* Out(std::vector<Node*> in) {
    Node* n = g->AddNode(op::kNetOutput, "out", in.size(), 0);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_TRUE(g->AddEdge(in[i], 0, n, i).ok());
    return n;
  }
};

const BufferPlan& Buf(const MemoryPlan& p, const std::string& node) {
  for (const BufferPlan& b : p.buffers)
    if (b.node == node && b.output == 0) return b;
  static BufferPlan none;
  ADD_FAILURE() << "no buffer for " << node;
  return none;
}

int Step(const MemoryPlan& p, const std::string& node) {
  for (size_t i = 0; i < p.order.size(); ++i)
    if (p.order[i] == node) return static_cast<int>(i);
  ADD_FAILURE() << "not in order: " << node;
  return -1;
}

PlanOptions NoInplace() {
  PlanOptions o;
  o.inplace = false;
  return o;
}

// x -> a=Sigmoid(x) -> b=Sigmoid(a) -> c=Add(a,b) -> d=Sigmoid(c) -> out
std::unique_ptr<Graph> Diamond() {
  G b;
  Node* x = b.Data("x");
  Node* a = b.Op("Sigmoid", "a", {x});
  Node* bb = b.Op("Sigmoid", "b", {a});
  Node* c = b.Op("Add", "c", {a, bb});
  Node* d = b.Op("Sigmoid", "d", {c});
  b.Out({d});
  return std::move(b.g);
}

TEST(MemoryPlanner, LifetimesRunFromProducerToLastReader) {
  auto g = Diamond();
  auto p = PlanMemory(*g, NoInplace());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->order.size(), 6u);
  EXPECT_EQ(Buf(*p, "a").first_use, Step(*p, "a"));
  EXPECT_EQ(Buf(*p, "a").last_use, Step(*p, "c"));
  EXPECT_EQ(Buf(*p, "b").first_use, Step(*p, "b"));
  EXPECT_EQ(Buf(*p, "b").last_use, Step(*p, "c"));
  EXPECT_EQ(Buf(*p, "c").last_use, Step(*p, "d"));
  EXPECT_EQ(Buf(*p, "d").last_use, Step(*p, "out"));
  EXPECT_EQ(Buf(*p, "x").segment, Segment::kInput);
  EXPECT_EQ(Buf(*p, "d").segment, Segment::kOutput);
  // a, b, c are all alive at c's step: 3 x 64 bytes, and the packing meets it.
  EXPECT_EQ(p->lower_bound, 192);
  EXPECT_EQ(p->feature_map_size, 192);
  EXPECT_EQ(p->no_reuse_size, 192);
  EXPECT_EQ(p->input_size, 64);
  EXPECT_EQ(p->output_size, 64);
}

TEST(MemoryPlanner, ReuseGivesADeadBufferToALaterOne) {
  // x -> a -> b -> c -> d -> out (a chain of non-in-place ops): two buffers
  // alternate.
  G b;
  Node* n = b.Data("x");
  for (const char* name : {"a", "b", "c", "d"}) n = b.Op("Sigmoid", name, {n});
  b.Out({b.Op("Sigmoid", "e", {n})});
  auto p = PlanMemory(*b.g, NoInplace());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->lower_bound, 128);
  EXPECT_EQ(p->feature_map_size, 128);
  EXPECT_EQ(p->no_reuse_size, 256);
  EXPECT_EQ(Buf(*p, "a").offset, Buf(*p, "c").offset);
  EXPECT_EQ(Buf(*p, "b").offset, Buf(*p, "d").offset);
  EXPECT_NE(Buf(*p, "a").offset, Buf(*p, "b").offset);
}

TEST(MemoryPlanner, ReuseOffGivesEveryBufferItsOwnRange) {
  G b;
  Node* n = b.Data("x");
  for (const char* name : {"a", "b", "c", "d"}) n = b.Op("Sigmoid", name, {n});
  b.Out({b.Op("Sigmoid", "e", {n})});
  PlanOptions o = NoInplace();
  o.reuse = false;
  auto p = PlanMemory(*b.g, o);
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->reuse);
  EXPECT_EQ(p->feature_map_size, 256);
  EXPECT_EQ(p->feature_map_size, p->no_reuse_size);
  EXPECT_EQ(Buf(*p, "a").offset, 0);
  EXPECT_EQ(Buf(*p, "b").offset, 64);
  EXPECT_EQ(Buf(*p, "c").offset, 128);
  EXPECT_EQ(Buf(*p, "d").offset, 192);
}

// Weights every reader takes from its packed copy (weight_prepack's
// "_packed<i>") go after the weights runs read, whatever the graph order.
TEST(MemoryPlanner, WeightsReadOnlyPackedGoLast) {
  G b;
  Node* x = b.Data("x");
  Node* w = b.Const("w", std::vector<float>(16, 1.0f));     // first in graph order, read packed
  Node* bias = b.Const("bias", std::vector<float>(16, 2.0f));  // read as it is
  Node* shared = b.Const("shared", std::vector<float>(16, 3.0f));  // read packed by one, plain by another
  Node* conv = b.Op("Conv", "conv", {x, w, bias});
  conv->SetAttr(PackedInputAttr(1), Tensor(TensorDesc(DataType::kUInt8, {64}), std::vector<uint8_t>(64)));
  Node* mm = b.Op("MatMul", "mm", {conv, shared});
  mm->SetAttr(PackedInputAttr(1), Tensor(TensorDesc(DataType::kUInt8, {64}), std::vector<uint8_t>(64)));
  Node* add = b.Op("Add", "add", {mm, shared});
  b.Out({add});
  auto p = PlanMemory(*b.g, NoInplace());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(Buf(*p, "bias").offset, 0);
  EXPECT_EQ(Buf(*p, "shared").offset, 64);
  EXPECT_EQ(Buf(*p, "w").offset, 128);
  EXPECT_EQ(p->weights_size, 192);
}

TEST(BestFit, HandComputedOffsets) {
  // Largest first: A at 0; B overlaps A, on top (128); C overlaps only B and
  // takes the 128-byte hole at 0; D overlaps B and C and fits between them.
  const std::vector<Interval> iv = {{128, 0, 1}, {64, 0, 4}, {64, 2, 3}, {64, 2, 3}};
  const Packing p = PackIntervals(iv, 64, true);
  EXPECT_EQ(p.offsets, (std::vector<int64_t>{0, 128, 0, 64}));
  EXPECT_EQ(p.peak, 192);
  EXPECT_EQ(LowerBound(iv, 64), 192);
}

TEST(BestFit, PicksTheSmallestHoleThatFits) {
  // Long-lived buffers leave holes of 128 at [64,192) and 64 at [256,320)
  // during step 2; a 64-byte buffer alive then goes into the smaller hole.
  const std::vector<Interval> iv = {
      {64, 0, 3},   // 0: [0,64) all along
      {128, 0, 1},  // 1: [64,192) until step 1
      {64, 0, 3},   // 2: [192,256)
      {64, 0, 1},   // 3: [256,320) until step 1
      {64, 0, 3},   // 4: [320,384)
      {64, 2, 3},   // 5: the newcomer
  };
  const Packing p = PackIntervals(iv, 64, true);
  EXPECT_EQ(p.peak, 384);
  // Whatever order won, the newcomer must not sit on a live buffer and the
  // peak is the lower bound.
  EXPECT_EQ(LowerBound(iv, 64), 384);
  for (size_t i = 0; i < iv.size(); ++i)
    for (size_t j = i + 1; j < iv.size(); ++j) {
      const bool live = iv[i].first <= iv[j].last && iv[j].first <= iv[i].last;
      const bool overlap = p.offsets[i] < p.offsets[j] + 64 * ((iv[j].size + 63) / 64) &&
                           p.offsets[j] < p.offsets[i] + 64 * ((iv[i].size + 63) / 64);
      EXPECT_FALSE(live && overlap) << i << " and " << j;
    }
}

TEST(BestFit, AlignmentRoundsEveryBuffer) {
  const std::vector<Interval> iv = {{10, 0, 1}, {10, 0, 1}};
  Packing p = PackIntervals(iv, 64, true);
  EXPECT_EQ(p.peak, 128);
  EXPECT_EQ(p.offsets[0] % 64 + p.offsets[1] % 64, 0);
  p = PackIntervals(iv, 256, true);
  EXPECT_EQ(p.peak, 512);
  EXPECT_EQ(p.offsets[0] % 256 + p.offsets[1] % 256, 0);
  EXPECT_EQ(LowerBound(iv, 256), 512);
  EXPECT_EQ(LowerBound(iv, 1), 20);
  auto g = Diamond();
  PlanOptions o;
  o.alignment = 48;
  EXPECT_EQ(PlanMemory(*g, o).status().code(), StatusCode::kInvalidArgument);
  o.alignment = 512;
  auto plan = PlanMemory(*g, o);
  ASSERT_TRUE(plan.ok());
  for (const BufferPlan& b : plan->buffers) EXPECT_EQ(b.offset % 512, 0) << b.node;
}

TEST(BestFit, RandomIntervalsNeverOverlapWhileAliveAndNeverBeatTheBound) {
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffff; };
  for (int round = 0; round < 40; ++round) {
    std::vector<Interval> iv;
    const int count = 5 + static_cast<int>(next() % 40);
    for (int i = 0; i < count; ++i) {
      const int32_t first = static_cast<int32_t>(next() % 30);
      iv.push_back({static_cast<int64_t>(1 + next() % 5000), first, first + static_cast<int32_t>(next() % 8)});
    }
    const Packing p = PackIntervals(iv, 64, true);
    EXPECT_GE(p.peak, LowerBound(iv, 64));
    for (size_t i = 0; i < iv.size(); ++i) {
      EXPECT_EQ(p.offsets[i] % 64, 0);
      EXPECT_LE(p.offsets[i] + AlignUp(iv[i].size, 64), p.peak);
      for (size_t j = i + 1; j < iv.size(); ++j) {
        const bool live = iv[i].first <= iv[j].last && iv[j].first <= iv[i].last;
        const bool overlap = p.offsets[i] < p.offsets[j] + AlignUp(iv[j].size, 64) &&
                             p.offsets[j] < p.offsets[i] + AlignUp(iv[i].size, 64);
        ASSERT_FALSE(live && overlap) << "round " << round << ": " << i << " and " << j;
      }
    }
    // The search is seeded: the same input gives the same plan.
    EXPECT_EQ(PackIntervals(iv, 64, true).offsets, p.offsets);
  }
}

TEST(BestFit, LowerBoundIsTheLargestTotalAliveAtOneStep) {
  // Step 0: 64; step 1: 64+128; step 2: 128+192; step 3: 192.
  const std::vector<Interval> iv = {{64, 0, 1}, {128, 1, 2}, {192, 2, 3}};
  EXPECT_EQ(LowerBound(iv, 64), 320);
  EXPECT_EQ(LowerBound({}, 64), 0);
  EXPECT_EQ(LowerBound({{0, 0, 5}}, 64), 0);
}

TEST(Symbols, ReshapeAndIdentityShareTheirInputsMemory) {
  // x -> r=Reshape(x, shape) -> s=Sigmoid(r) -> i=Identity(s) -> t=Sigmoid(i) -> out
  G b;
  Node* x = b.Data("x");
  Node* shape = b.g->AddNode(op::kConst, "shape", 0, 1);
  shape->SetAttr("value", Tensor::FromVector<int64_t>(DataType::kInt64, {2}, {1, 16}));
  shape->output_desc(0) = TensorDesc(DataType::kInt64, {2});
  Node* r = b.Op("Reshape", "r", {x, shape});
  Node* s = b.Op("Sigmoid", "s", {r});
  Node* i = b.Op("Identity", "i", {s});
  Node* t = b.Op("Sigmoid", "t", {i});
  b.Out({t});
  auto p = PlanMemory(*b.g, NoInplace());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(Buf(*p, "r").symbol, Buf(*p, "x").symbol);
  EXPECT_EQ(Buf(*p, "r").segment, Segment::kInput);
  EXPECT_EQ(Buf(*p, "i").symbol, Buf(*p, "s").symbol);
  EXPECT_EQ(Buf(*p, "i").offset, Buf(*p, "s").offset);
  // The symbol lives from s to t: the union of s's and i's lifetimes.
  EXPECT_EQ(Buf(*p, "s").first_use, Step(*p, "s"));
  EXPECT_EQ(Buf(*p, "s").last_use, Step(*p, "t"));
  EXPECT_EQ(Buf(*p, "i").last_use, Step(*p, "t"));
  EXPECT_EQ(Buf(*p, "shape").segment, Segment::kWeights);
  EXPECT_EQ(p->lower_bound, 64);

  // Tasks: Reshape and Identity are no-ops; t reads s's address.
  auto tasks = tasks::BuildTasks(*b.g, *p);
  ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
  ASSERT_EQ(tasks->size(), 1u);
  const auto& list = (*tasks)[0].tasks;
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].node, "s");
  EXPECT_EQ(list[0].kernel, 0);
  EXPECT_EQ(list[0].inputs[0].segment, Segment::kInput);
  EXPECT_EQ(list[1].node, "t");
  EXPECT_EQ(list[1].kernel, 1);
  EXPECT_EQ(list[1].inputs[0].segment, Segment::kFeatureMap);
  EXPECT_EQ(list[1].inputs[0].offset, Buf(*p, "s").offset);
  EXPECT_EQ(list[1].outputs[0].segment, Segment::kOutput);
  // The alias rule the planner and the task builder share.
  EXPECT_FALSE(RunsKernel(*r));
  EXPECT_FALSE(RunsKernel(*i));
  EXPECT_TRUE(RunsKernel(*s));
  EXPECT_EQ(AliasedInput(*r, 0), 0);
  EXPECT_EQ(AliasedInput(*s, 0), -1);
}

TEST(Symbols, InPlaceOnlyOverADyingFeatureMapBuffer) {
  // x -> a=Sigmoid(x) -> b=Relu(a) -> c=Relu(b), d=Add(b, c) -> out.
  // b may overwrite a (a dies at b); c may not overwrite b (d reads b later);
  // a may not overwrite x (the user's input).
  G g;
  Node* x = g.Data("x");
  Node* a = g.Op("Sigmoid", "a", {x});
  Node* b = g.Op("Relu", "b", {a});
  Node* c = g.Op("Relu", "c", {b});
  Node* d = g.Op("Add", "d", {b, c});
  g.Out({d});
  auto p = PlanMemory(*g.g, PlanOptions{});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(Buf(*p, "b").symbol, Buf(*p, "a").symbol);
  EXPECT_NE(Buf(*p, "c").symbol, Buf(*p, "b").symbol);
  EXPECT_NE(Buf(*p, "a").symbol, Buf(*p, "x").symbol);
  // d = Add(b, c) may overwrite b (b dies at d), so a, b and d are one
  // symbol, and as d is the graph output they all live in the user's buffer.
  EXPECT_EQ(Buf(*p, "d").symbol, Buf(*p, "b").symbol);
  EXPECT_EQ(Buf(*p, "b").segment, Segment::kOutput);
  EXPECT_EQ(Buf(*p, "c").segment, Segment::kFeatureMap);
  EXPECT_EQ(p->feature_map_size, 64);
  // The in-place node still computes: it has a task.
  auto t = tasks::BuildTasks(*g.g, *p);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)[0].tasks.size(), 4u);
}

TEST(Symbols, ConvWithFusedSumWritesOverItsResidualOnceTheOtherReadersRan) {
  // The residual block: r -> c1=Conv(r) -> c2=Conv(c1, +r). r's other
  // reader (c1) runs before c2, so c2 computes over r's memory (Conv: output
  // 0 over input 3) and the kernel needs no copy of the residual; the input
  // it convolves (c1, a different symbol) is not a candidate.
  G g;
  g.dims = {1, 4, 2, 2};
  Node* x = g.Data("x");
  Node* w = g.g->AddNode(op::kConst, "w", 0, 1);
  w->SetAttr("value", Tensor::FromVector<float>(DataType::kFloat32, {4, 4, 1, 1}, std::vector<float>(16, 0.5f)));
  w->output_desc(0) = F32({4, 4, 1, 1});
  Node* r = g.Op("Relu", "r", {x});
  Node* c1 = g.Op("Conv", "c1", {r, w});
  Node* c2 = g.g->AddNode("Conv", "c2", 4, 1);  // X, W, no bias, the residual
  ASSERT_TRUE(g.g->AddEdge(c1, 0, c2, 0).ok());
  ASSERT_TRUE(g.g->AddEdge(w, 0, c2, 1).ok());
  ASSERT_TRUE(g.g->AddEdge(r, 0, c2, 3).ok());
  c2->output_desc(0) = F32(g.dims);
  c2->SetAttr("fused_sum", int64_t{1});
  Node* y = g.Op("Relu", "y", {c2});
  g.Out({y});
  auto p = PlanMemory(*g.g, PlanOptions{});
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(Buf(*p, "c2").symbol, Buf(*p, "r").symbol);
  EXPECT_NE(Buf(*p, "c2").symbol, Buf(*p, "c1").symbol);
  // Without in-place every tensor keeps its own symbol.
  auto q = PlanMemory(*g.g, NoInplace());
  ASSERT_TRUE(q.ok());
  EXPECT_NE(Buf(*q, "c2").symbol, Buf(*q, "r").symbol);
}

TEST(Tasks, ArgumentTablesFollowThePlan) {
  auto g = Diamond();
  auto p = PlanMemory(*g, NoInplace());
  ASSERT_TRUE(p.ok());
  auto t = tasks::BuildTasks(*g, *p);
  ASSERT_TRUE(t.ok());
  const auto& list = (*t)[0].tasks;
  ASSERT_EQ(list.size(), 4u);  // a b c d; Data and NetOutput have none
  std::map<std::string, const Task*> by;
  for (const Task& x : list) by[x.node] = &x;
  const Task& c = *by.at("c");
  ASSERT_EQ(c.inputs.size(), 2u);
  EXPECT_EQ(c.inputs[0].offset, Buf(*p, "a").offset);
  EXPECT_EQ(c.inputs[1].offset, Buf(*p, "b").offset);
  EXPECT_EQ(c.outputs[0].offset, Buf(*p, "c").offset);
  EXPECT_EQ(by.at("a")->inputs[0].segment, Segment::kInput);
  EXPECT_EQ(by.at("d")->outputs[0].segment, Segment::kOutput);
  for (size_t i = 0; i < list.size(); ++i) EXPECT_EQ(list[i].kernel, static_cast<int>(i));
}

// ---- IO: zero copy where possible, a copy where not, all of it executed.

Model ModelOf(std::unique_ptr<Graph> g, bool reuse = true) {
  Model m;
  m.name = "t";
  m.graph = std::move(g);
  DescribeModelIo(m);
  PlanOptions o;
  o.reuse = o.inplace = reuse;
  auto p = PlanMemory(*m.graph, o);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  m.memory = *p;
  auto t = tasks::BuildTasks(*m.graph, m.memory);
  EXPECT_TRUE(t.ok());
  m.streams = *t;
  return m;
}

std::vector<float> Ramp(float start) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = start + 0.25f * i;
  return v;
}

TEST(MemoryIo, OutputsThatAreInputsConstantsOrRepeatedAreCopied) {
  // out = (x, relu(x), relu(x), c, reshape-free Identity(x))
  G b;
  Node* x = b.Data("x");
  Node* c = b.Const("c", Ramp(-3.f));
  Node* r = b.Op("Relu", "r", {x});
  Node* i = b.Op("Identity", "i", {x});
  b.Out({x, r, r, c, i});
  Model m = ModelOf(std::move(b.g));
  const MemoryPlan& p = m.memory;
  ASSERT_EQ(p.outputs.size(), 5u);
  EXPECT_TRUE(p.outputs[0].copy);
  EXPECT_EQ(p.outputs[0].source.segment, Segment::kInput);
  EXPECT_FALSE(p.outputs[1].copy);  // relu writes into the user's buffer
  EXPECT_TRUE(p.outputs[2].copy);   // the same tensor a second time
  EXPECT_EQ(p.outputs[2].source.segment, Segment::kOutput);
  EXPECT_EQ(p.outputs[2].source.offset, p.outputs[1].offset);
  EXPECT_TRUE(p.outputs[3].copy);
  EXPECT_EQ(p.outputs[3].source.segment, Segment::kWeights);
  EXPECT_TRUE(p.outputs[4].copy);
  EXPECT_EQ(p.outputs[4].source.segment, Segment::kInput);

  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const std::vector<float> in = Ramp(-2.f);
  std::vector<std::vector<float>> out(5, std::vector<float>(16, 99.f));
  std::vector<void*> outs;
  for (auto& o : out) outs.push_back(o.data());
  ASSERT_TRUE((*loaded)->Execute({in.data()}, outs).ok());
  std::vector<float> relu = in;
  for (float& v : relu) v = v > 0 ? v : 0;
  EXPECT_EQ(out[0], in);
  EXPECT_EQ(out[1], relu);
  EXPECT_EQ(out[2], relu);
  EXPECT_EQ(out[3], Ramp(-3.f));
  EXPECT_EQ(out[4], in);
  // A second run with other buffers: the zero-copy addresses are refreshed.
  std::vector<float> in2 = Ramp(1.f);
  std::vector<std::vector<float>> out2(5, std::vector<float>(16, -1.f));
  outs.clear();
  for (auto& o : out2) outs.push_back(o.data());
  ASSERT_TRUE((*loaded)->Execute({in2.data()}, outs).ok());
  EXPECT_EQ(out2[1], in2);
  EXPECT_EQ(out2[0], in2);
  EXPECT_EQ(out[1], relu) << "the first run's buffers were written again";
}

TEST(MemoryIo, ReusedFeatureMapGivesTheSameResultsAsNoReuse) {
  // A chain long enough for buffers to be recycled several times, with a
  // branch that keeps one alive across the recycling.
  auto build = [] {
    G b;
    Node* x = b.Data("x");
    Node* keep = b.Op("Sigmoid", "keep", {x});
    Node* n = keep;
    for (int i = 0; i < 6; ++i) n = b.Op(i % 2 ? "Relu" : "Sigmoid", "n" + std::to_string(i), {n});
    Node* sum = b.Op("Add", "sum", {n, keep});
    b.Out({b.Op("Exp", "e", {sum}), keep});
    return std::move(b.g);
  };
  Model on = ModelOf(build(), true);
  Model off = ModelOf(build(), false);
  EXPECT_LT(on.memory.feature_map_size, off.memory.feature_map_size);
  const std::vector<float> in = Ramp(-1.5f);
  std::vector<std::vector<float>> results;
  for (Model* m : {&on, &off}) {
    auto l = LoadModel(*m, RunMode::kV2);
    ASSERT_TRUE(l.ok()) << l.status().ToString();
    std::vector<float> y(16), k(16);
    ASSERT_TRUE((*l)->Execute({in.data()}, {y.data(), k.data()}).ok());
    results.push_back(y);
    results.push_back(k);
  }
  EXPECT_EQ(results[0], results[2]);
  EXPECT_EQ(results[1], results[3]);
}

// The runtime never compiles (the layering of docs/architecture.md).
TEST(MemoryIo, AnUnplannedModelIsRefusedAtLoad) {
  Model m;
  m.name = "diamond";
  m.graph = Diamond();
  DescribeModelIo(m);
  auto l = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(Refused(l, StatusCode::kInvalidArgument, "model diamond has no memory plan"));
}

// A plan whose Reshape does not share its input's memory contradicts the
// alias rule: the task builder refuses it instead of building a no-op that
// would leave the output unwritten.
TEST(Symbols, TasksRefuseAPlanThatBreaksTheAliasRule) {
  G b;
  Node* x = b.Data("x");
  Node* s = b.Op("Sigmoid", "s", {x});
  Node* shape = b.g->AddNode(op::kConst, "shape", 0, 1);
  shape->SetAttr("value", Tensor::FromVector<int64_t>(DataType::kInt64, {2}, {1, 16}));
  shape->output_desc(0) = TensorDesc(DataType::kInt64, {2});
  Node* r = b.Op("Reshape", "r", {s, shape});
  b.Out({b.Op("Sigmoid", "t", {r})});
  auto p = PlanMemory(*b.g, NoInplace());
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  for (BufferPlan& buf : p->buffers)
    if (buf.node == "r") buf.symbol = 999;
  auto tasks = tasks::BuildTasks(*b.g, *p);
  ASSERT_TRUE(Refused(tasks, StatusCode::kInternal, "r (Reshape) output 0 aliases its input"));
}

// The one range check the .om reader and the runtimes share.
TEST(MemoryPlanRanges, ContainsChecksEverySegmentWithoutOverflow) {
  MemoryPlan p;
  p.weights_size = 128;
  p.feature_map_size = 64;
  p.input_size = 0;
  p.output_size = 32;
  EXPECT_EQ(p.SegmentSize(Segment::kFeatureMap), 64);
  EXPECT_EQ(p.SegmentSize(static_cast<Segment>(7)), -1);
  EXPECT_TRUE(p.Contains(Segment::kWeights, 0, 128));
  EXPECT_TRUE(p.Contains(Segment::kWeights, 128, 0));
  EXPECT_FALSE(p.Contains(Segment::kWeights, 64, 65));
  EXPECT_FALSE(p.Contains(Segment::kFeatureMap, -1, 1));
  EXPECT_FALSE(p.Contains(Segment::kFeatureMap, 0, -1));
  EXPECT_FALSE(p.Contains(Segment::kFeatureMap, 1, INT64_MAX));  // no wrap-around
  EXPECT_TRUE(p.Contains(Segment::kInput, 0, 0));
  EXPECT_FALSE(p.Contains(Segment::kInput, 0, 1));
  EXPECT_FALSE(p.Contains(static_cast<Segment>(7), 0, 0));
}

TEST(MemoryReport, OneLineWithPeakBoundNoReuseAndWeights) {
  MemoryPlan p;
  p.feature_map_size = 3 << 20;
  p.lower_bound = 3 << 20;
  p.no_reuse_size = 12 << 20;
  p.weights_size = 44 << 20;
  const std::string s = MemoryReport(p);
  EXPECT_NE(s.find("feature map 3.0 MiB"), std::string::npos) << s;
  EXPECT_NE(s.find("lower bound 3.0 MiB"), std::string::npos) << s;
  EXPECT_NE(s.find("no reuse 12.0 MiB"), std::string::npos) << s;
  EXPECT_NE(s.find("weights 44.0 MiB"), std::string::npos) << s;
}

}  // namespace
}  // namespace ge::memory
