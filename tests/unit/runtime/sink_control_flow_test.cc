// Control flow in a static plan: If / Loop nodes with static subgraphs are
// planned with them and linked into label tasks (ge/plan/link.h). Sink mode
// runs a whole loop in one HAL call; v2 walks the same task list; both
// equal the v2 converters of the dynamic build and a result worked out here.
#include <cmath>

#include "ge/om.h"
#include "ge/plan/link.h"
#include "ge/plan/verify.h"
#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

using Floats = std::vector<float>;

std::shared_ptr<Graph> BodyOf(TinyGraph& t) {
  EXPECT_TRUE(t.Infer().ok());
  return std::shared_ptr<Graph>(t.Clone());
}

Result<Model> CompileFlow(const TinyGraph& t, bool sink) {
  CompileOptions co;
  co.model_name = "flow";
  co.verify_each_pass = true;
  co.sink_control_flow = sink;
  return Compile(t.Clone(), co);
}

Floats ValuesOf(const Tensor& t) { return Floats(t.as<float>(), t.as<float>() + t.desc().NumElements()); }

std::vector<Floats> RunModel(const Model& m, RunMode mode, const std::vector<TensorView>& in) {
  auto loaded = LoadModel(m, mode);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  if (!loaded.ok()) return {};
  std::vector<Tensor> out;
  Status s = (*loaded)->ExecuteShaped(in, out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<Floats> r;
  for (const Tensor& t : out) r.push_back(ValuesOf(t));
  return r;
}

// Runs the linked model in sink and v2 and the dynamic build in v2: all
// three agree (within `tol`); returns the sink result.
std::vector<Floats> RunAllWays(const TinyGraph& t, const std::vector<TensorView>& in, float tol = 0.f) {
  auto linked = CompileFlow(t, true);
  auto dynamic = CompileFlow(t, false);
  EXPECT_TRUE(linked.ok()) << linked.status().ToString();
  EXPECT_TRUE(dynamic.ok()) << dynamic.status().ToString();
  if (!linked.ok() || !dynamic.ok()) return {};
  EXPECT_FALSE(linked->dynamic);
  EXPECT_FALSE(linked->partitions.empty());
  EXPECT_TRUE(dynamic->dynamic);
  const auto sink = RunModel(*linked, RunMode::kSink, in);
  const auto v2 = RunModel(*linked, RunMode::kV2, in);
  const auto conv = RunModel(*dynamic, RunMode::kV2, in);
  EXPECT_EQ(sink, v2);  // the same kernels over the same task list
  EXPECT_EQ(sink.size(), conv.size());
  for (size_t i = 0; i < sink.size() && i < conv.size(); ++i) {
    EXPECT_EQ(sink[i].size(), conv[i].size());
    for (size_t k = 0; k < sink[i].size() && k < conv[i].size(); ++k) EXPECT_NEAR(sink[i][k], conv[i][k], tol) << i << "," << k;
  }
  return sink;
}

Tensor Iota(Dims d, float scale) {
  Floats v(static_cast<size_t>(NumElements(d)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * std::sin(static_cast<float>(i) + 1.f);
  return F32s(std::move(d), v);
}

// v <- tanh(v W + b), M times; W and b are constants of the body.
constexpr int kWidth = 8;
TinyGraph MlpLoop() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1, kWidth}));
  Node* mm = body.Op("MatMul", "fc", {v, body.Const("W", Iota({kWidth, kWidth}, 0.4f))});
  Node* next = body.Op("Tanh", "act", {body.Op("Add", "bias", {mm, body.Const("b", Iota({1, kWidth}, 0.1f))})});
  body.Output({body.Op("Identity", "cond_out", {c}), next});
  TinyGraph t;
  Node* loop = t.Op("Loop", "loop", {t.Data("M", TensorDesc(DataType::kInt64, {})), nullptr, t.Data("v0", F32({1, kWidth}))});
  loop->subgraphs()["body"] = BodyOf(body);
  t.Output({loop}, {"v"});
  return t;
}

Floats MlpReference(Floats v, int64_t m) {
  const Tensor w = Iota({kWidth, kWidth}, 0.4f), b = Iota({1, kWidth}, 0.1f);
  for (int64_t it = 0; it < m; ++it) {
    Floats next(kWidth);
    for (int j = 0; j < kWidth; ++j) {
      double acc = b.as<float>()[j];
      for (int k = 0; k < kWidth; ++k) acc += static_cast<double>(v[k]) * w.as<float>()[k * kWidth + j];
      next[j] = static_cast<float>(std::tanh(acc));
    }
    v = next;
  }
  return v;
}

TEST(SinkControlFlow, AStaticLoopRunsInOneSinkCallAndMatchesV2AndTheConverters) {
  const TinyGraph t = MlpLoop();
  const Floats v0 = {0.5f, -1.f, 0.25f, 2.f, -0.5f, 1.f, 0.f, -2.f};
  for (int64_t m : {int64_t{0}, int64_t{1}, int64_t{16}}) {
    const auto out = RunAllWays(t, {{DataType::kInt64, {}, &m}, {DataType::kFloat32, {1, kWidth}, v0.data()}}, 1e-6f);
    ASSERT_EQ(out.size(), 1u);
    const Floats want = MlpReference(v0, m);
    for (int j = 0; j < kWidth; ++j) EXPECT_NEAR(out[0][j], want[j], 1e-5f) << "M=" << m << " j=" << j;
  }
}

TEST(SinkControlFlow, TheLinkedTaskListHasTheLoopsLabelsAndControlKernels) {
  auto m = CompileFlow(MlpLoop(), true);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->partitions.size(), 1u);
  EXPECT_EQ(m->partitions[0].node, "loop");
  EXPECT_EQ(m->partitions[0].subgraph, "body");
  auto linked = LinkModel(*m);
  ASSERT_TRUE(linked.ok()) << linked.status().ToString();
  ASSERT_EQ(linked->streams.size(), 1u);
  EXPECT_EQ(linked->num_labels, 3);
  std::string seq;
  for (const Task& t : linked->streams[0].tasks) {
    switch (t.kind) {
      case Task::Kind::kLabelSet: seq += "set" + std::to_string(t.label) + " "; break;
      case Task::Kind::kLabelGoto: seq += "goto" + std::to_string(t.label) + " "; break;
      case Task::Kind::kLabelSwitch: seq += "switch" + std::to_string(t.labels[0]) + "," + std::to_string(t.labels[1]) + " "; break;
      default: seq += (t.op.empty() ? t.node : t.op) + " "; break;
    }
  }
  // The body's kernels by path (MatMul + Add fused into one inside it); its
  // result copied into the state after it; the condition it passes through
  // unchanged stays where it is (no copy).
  EXPECT_EQ(seq,
            "MemcpyAsync LoopInit set0 LoopCondIndex switch1,2 set1 loop/body/fc loop/body/act "
            "MemcpyAsync LoopIncrement goto0 set2 ")
      << seq;
  // The body's constants are in the linked weights under their paths, and
  // its workspace is after the root's feature map.
  EXPECT_TRUE(linked->nodes.count("loop/body/W"));
  bool w = false;
  for (const BufferPlan& b : linked->memory.buffers) w |= b.node == "loop/body/W";
  EXPECT_TRUE(w);
  EXPECT_GT(linked->memory.weights_size, m->memory.weights_size);
  EXPECT_GT(linked->memory.feature_map_size, m->memory.feature_map_size);
}

// The boundary rules, read off the linked list of the MLP loop: no body
// kernel writes the Loop's inputs (the initial value stays intact for the
// next inference) or its state (only copies write the state, after the
// body); every body kernel writes inside the loop's workspace, after the
// root's own feature map.
TEST(SinkControlFlow, BodyKernelsWriteOnlyTheirWorkspaceAndCopiesWriteTheState) {
  auto m = CompileFlow(MlpLoop(), true);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  auto linked = LinkModel(*m);
  ASSERT_TRUE(linked.ok()) << linked.status().ToString();
  const Task* loop_task = nullptr;
  for (const Task& t : m->streams[0].tasks)
    if (t.node == "loop") loop_task = &t;
  ASSERT_NE(loop_task, nullptr);
  const int64_t bytes = kWidth * 4;
  auto overlaps = [&](const TaskArg& a, const TaskArg& b) {
    return a.offset >= 0 && b.offset >= 0 && a.segment == b.segment && a.offset < b.offset + bytes && b.offset < a.offset + bytes;
  };
  const TaskArg state = loop_task->outputs[0], initial = loop_task->inputs[2];
  const int64_t root_fm = m->memory.feature_map_size;
  int body_kernels = 0, state_writes = 0;
  for (const Task& t : linked->streams[0].tasks) {
    if (t.kind != Task::Kind::kKernel) continue;
    for (const TaskArg& o : t.outputs) {
      EXPECT_FALSE(overlaps(o, initial)) << t.node << " " << t.op << " writes the Loop's input";
      if (overlaps(o, state)) {
        EXPECT_EQ(t.op, "MemcpyAsync") << t.node << " writes the loop state";
        ++state_writes;
      }
      if (t.node.rfind("loop/body/", 0) == 0) {
        EXPECT_EQ(o.segment, Segment::kFeatureMap) << t.node;
        EXPECT_GE(o.offset, root_fm) << t.node << " writes outside the loop's workspace";
      }
    }
    body_kernels += t.node.rfind("loop/body/", 0) == 0;
  }
  EXPECT_EQ(body_kernels, 2);  // the fused Gemm and Tanh
  EXPECT_EQ(state_writes, 2);  // the initial copy, and the copy back after each body
}

// Scan outputs need a static length: a trip count constants decide. With a
// constant M, or a counter stepped towards a constant limit (tf.while_loop's
// i + 1 < n, carried with the state), the stacked outputs are static and
// each iteration's slice is written to its row in sink mode.
TEST(SinkControlFlow, ScanOutputsOfALoopWhoseTripCountConstantsDecideStackInSink) {
  for (bool counter : {false, true}) {
    SCOPED_TRACE(counter ? "counter < limit" : "constant M");
    TinyGraph body;
    body.Data("iter", TensorDesc(DataType::kInt64, {}));
    Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
    Node* i = body.Data("i", TensorDesc(DataType::kInt32, {}));
    Node* v = body.Data("v", F32({2}));
    Node* next = body.Op("Mul", "twice", {v, body.Const("two", F32s({2}, {2.f, 2.f}))});
    Node* i_next = body.Op("Add", "i_next", {i, body.Const("one", Tensor::FromVector(DataType::kInt32, {}, std::vector<int32_t>{1}))});
    Node* more = counter ? body.Op("Less", "more", {i_next, body.Const("limit", Tensor::FromVector(DataType::kInt32, {}, std::vector<int32_t>{4}))})
                         : body.Op("Identity", "more", {c});
    body.Output({more, i_next, next, body.Op("Identity", "row", {next})});
    TinyGraph t;
    Node* m = counter ? nullptr : t.Const("M", Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{3}));
    Node* go = t.Const("go", Tensor::FromVector(DataType::kBool, {}, std::vector<uint8_t>{1}));
    Node* i0 = t.Const("i0", Tensor::FromVector(DataType::kInt32, {}, std::vector<int32_t>{0}));
    Node* loop = t.Op("Loop", "loop", {m, go, i0, t.Data("v0", F32({2}))}, {}, 3);
    loop->subgraphs()["body"] = BodyOf(body);
    t.Output({loop}, {"i"});
    ASSERT_TRUE(t.g().AddEdge(loop, 1, t.g().OutputNode(), 1).ok());
    ASSERT_TRUE(t.g().AddEdge(loop, 2, t.g().OutputNode(), 2).ok());
    t.g().OutputNode()->SetAttr("output_names", std::vector<std::string>{"i", "v", "rows"});
    const int64_t trips = counter ? 4 : 3;
    auto linked = CompileFlow(t, true);
    ASSERT_TRUE(linked.ok()) << linked.status().ToString();
    EXPECT_EQ(linked->outputs[2].desc.dims, std::vector<int64_t>({trips, 2}));
    const Floats v0 = {1, -1};
    const auto out = RunAllWays(t, {{DataType::kFloat32, {2}, v0.data()}});
    ASSERT_EQ(out.size(), 3u);
    Floats rows;
    float f = 1;
    for (int64_t k = 0; k < trips; ++k) {
      f *= 2;
      rows.insert(rows.end(), {f, -f});
    }
    EXPECT_EQ(out[1], Floats({f, -f}));
    EXPECT_EQ(out[2], rows);
  }
}

// A body that swaps two carried values passes its inputs straight through:
// each result is gathered into the body's slots before the state is
// written, or the second copy would read what the first overwrote.
TEST(SinkControlFlow, ABodyThatSwapsItsStateCopiesThroughItsSlots) {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* a = body.Data("a", F32({2}));
  Node* b = body.Data("b", F32({2}));
  body.Output({c, b, a});
  TinyGraph t;
  Node* loop = t.Op("Loop", "loop", {t.Data("M", TensorDesc(DataType::kInt64, {})), nullptr, t.Data("a0", F32({2})),
                                     t.Data("b0", F32({2}))},
                    {}, 2);
  loop->subgraphs()["body"] = BodyOf(body);
  t.Output({loop}, {"a"});
  ASSERT_TRUE(t.g().AddEdge(loop, 1, t.g().OutputNode(), 1).ok());
  t.g().OutputNode()->SetAttr("output_names", std::vector<std::string>{"a", "b"});
  const Floats a0 = {1, 2}, b0 = {3, 4};
  for (int64_t m : {int64_t{2}, int64_t{3}}) {
    const auto out = RunAllWays(t, {{DataType::kInt64, {}, &m}, {DataType::kFloat32, {2}, a0.data()}, {DataType::kFloat32, {2}, b0.data()}});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0], m % 2 ? b0 : a0) << "M=" << m;
    EXPECT_EQ(out[1], m % 2 ? a0 : b0) << "M=" << m;
  }
}

// while (v < 5) v += 1, with no trip count: the body computes the
// condition; with M = 3 the trip count stops it first.
TEST(SinkControlFlow, ALoopStopsOnTheConditionItsBodyComputes) {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1}));
  Node* next = body.Op("Add", "inc", {v, body.Const("one", F32s({1}, {1.f}))});
  Node* more = body.Op("Less", "more", {next, body.Const("limit", F32s({1}, {5.f}))});
  body.Output({body.Op("Reshape", "more_s", {more, body.Const("scalar", Tensor::FromVector(DataType::kInt64, {0}, std::vector<int64_t>{}))}), next});
  for (bool with_m : {false, true}) {
    TinyGraph t;
    Node* m = with_m ? t.Data("M", TensorDesc(DataType::kInt64, {})) : nullptr;
    Node* loop = t.Op("Loop", "loop", {m, t.Data("go", TensorDesc(DataType::kBool, {})), t.Data("v0", F32({1}))});
    loop->subgraphs()["body"] = BodyOf(body);
    t.Output({loop}, {"v"});
    const int64_t trips = 3;
    const uint8_t go = 1;
    const Floats v0 = {0.f};
    std::vector<TensorView> in;
    if (with_m) in.push_back({DataType::kInt64, {}, &trips});
    in.push_back({DataType::kBool, {}, &go});
    in.push_back({DataType::kFloat32, {1}, v0.data()});
    const auto out = RunAllWays(t, in);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], Floats({with_m ? 3.f : 5.f}));
    // cond false on entry: no iteration at all.
    const uint8_t stop = 0;
    in[with_m ? 1 : 0] = {DataType::kBool, {}, &stop};
    EXPECT_EQ(RunAllWays(t, in), std::vector<Floats>({v0}));
  }
}

// if (c) { for i < n: v = v * 2 } else { v = -v }: a loop nested in a
// branch links inside the branch's workspace.
TinyGraph NestedModel() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({3}));
  body.Output({body.Op("Identity", "keep", {c}), body.Op("Add", "double", {v, v})});
  TinyGraph then_g;
  Node* tn = then_g.Data("n", TensorDesc(DataType::kInt64, {}));
  Node* tx = then_g.Data("x", F32({3}));
  Node* inner = then_g.Op("Loop", "inner", {tn, nullptr, tx});
  inner->subgraphs()["body"] = BodyOf(body);
  then_g.Output({inner});
  TinyGraph else_g;
  else_g.Data("n", TensorDesc(DataType::kInt64, {}));
  else_g.Output({else_g.Op("Neg", "neg", {else_g.Data("x", F32({3}))})});
  TinyGraph t;
  Node* n = t.Op("If", "if", {t.Data("c", TensorDesc(DataType::kBool, {})), t.Data("n", TensorDesc(DataType::kInt64, {})),
                              t.Data("x", F32({3}))},
                 {{"_captures", int64_t{2}}});
  n->subgraphs()["then_branch"] = BodyOf(then_g);
  n->subgraphs()["else_branch"] = BodyOf(else_g);
  t.Output({n}, {"y"});
  return t;
}

int PlanIndex(const Model& m, const std::string& node, const std::string& sub) {
  for (size_t i = 0; i < m.partitions.size(); ++i)
    if (m.partitions[i].node == node && m.partitions[i].subgraph == sub) return static_cast<int>(i);
  return -1;
}

TEST(SinkControlFlow, ALoopNestedInABranchLinksInsideIt) {
  const TinyGraph t = NestedModel();
  auto m = CompileFlow(t, true);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->partitions.size(), 3u);
  EXPECT_EQ(PlanIndex(*m, "if/then_branch/inner", "body"), 1);
  const int64_t n = 3;
  const Floats x = {1, -2, 0.5f};
  for (uint8_t c : {uint8_t{1}, uint8_t{0}}) {
    const auto out = RunAllWays(t, {{DataType::kBool, {}, &c}, {DataType::kInt64, {}, &n}, {DataType::kFloat32, {3}, x.data()}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], c ? Floats({8, -16, 4}) : Floats({-1, 2, -0.5f}));
  }
}

TEST(SinkControlFlow, ALinkedModelRoundTripsThroughAnOmFile) {
  auto m = CompileFlow(NestedModel(), true);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  auto bytes = SerializeOm(*m);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = ParseOm(bytes->data(), bytes->size(), "nested.om");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->model.partitions.size(), 3u);
  const int64_t n = 2;
  const uint8_t c = 1;
  const Floats x = {1, 2, 3};
  const auto out = RunModel(back->model, RunMode::kSink, {{DataType::kBool, {}, &c}, {DataType::kInt64, {}, &n}, {DataType::kFloat32, {3}, x.data()}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], Floats({4, 8, 12}));
}

// A damaged plan is refused by the model check, naming what is wrong;
// nothing crashes.
TEST(SinkControlFlow, DamagedSubgraphPlansAreRefusedWithTheirNode) {
  auto good = CompileFlow(NestedModel(), true);
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  auto damaged = [&](auto edit) {
    auto bytes = SerializeOm(*good);
    EXPECT_TRUE(bytes.ok());
    auto copy = ParseOm(bytes->data(), bytes->size(), "copy.om");
    EXPECT_TRUE(copy.ok());
    edit(copy->model);
    return VerifyModel(copy->model);
  };
  auto expect = [](const Status& s, const std::string& part) {
    EXPECT_TRUE(Refused(s, StatusCode::kCorrupt, "model check"));
    EXPECT_NE(s.message().find(part), std::string::npos) << part << " not in: " << s.message();
  };
  expect(damaged([](Model& m) { m.partitions.erase(m.partitions.begin()); }), "has no plan");
  expect(damaged([](Model& m) { m.partitions[0].node = "x"; }), "not an If or Loop node");
  expect(damaged([](Model& m) { m.partitions.push_back(m.partitions[0]); }), "two plans");
  expect(damaged([](Model& m) { m.partitions[0].subgraph = "body"; }), "links only its branches");
  const int inner = PlanIndex(*good, "if/then_branch/inner", "body");
  const int other = PlanIndex(*good, "if", "else_branch");
  ASSERT_GE(inner, 0);
  ASSERT_GE(other, 0);
  expect(damaged([&](Model& m) { m.partitions[inner].memory.inputs.pop_back(); }), "inner");
  expect(damaged([&](Model& m) { m.partitions[other].memory.outputs[0].size += 64; }), "else_branch");
  // Loaders refuse it the same way.
  Model broken = CompileFlow(NestedModel(), true).value();
  broken.partitions.erase(broken.partitions.begin() + inner);
  auto loaded = LoadModel(broken, RunMode::kSink);
  ASSERT_TRUE(Refused(loaded, StatusCode::kCorrupt, "inner"));
}

}  // namespace
}  // namespace ge::test
