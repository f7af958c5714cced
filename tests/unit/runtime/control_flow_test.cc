// Control flow in the v2 runtime: If picks a branch per call, Loop carries
// its state and stacks scan outputs for any trip count, Scan walks its
// inputs forwards or backwards; the subgraphs read captured outer values.
#include <cmath>

#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

using Floats = std::vector<float>;

std::shared_ptr<Graph> Subgraph(TinyGraph& t) {
  EXPECT_TRUE(t.Infer().ok());
  return std::shared_ptr<Graph>(t.Clone());
}

// sink: static If / Loop nodes join the static plan (linked into label
// tasks at load); false keeps every one for the v2 converters.
Model CompileModel(TinyGraph& t, bool sink = true) {
  CompileOptions co;
  co.model_name = "flow";
  co.verify_each_pass = true;
  co.sink_control_flow = sink;
  auto m = Compile(t.Clone(), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : Model{};
}

Floats FloatsOf(const Tensor& t) { return Floats(t.as<float>(), t.as<float>() + t.desc().NumElements()); }

// y = cond ? Relu(x) : Neg(x), x captured by both branches (index 0).
TEST(ControlFlow, IfRunsTheBranchTheConditionPicks) {
  TinyGraph then_g, else_g;
  then_g.Output({then_g.Op("Relu", "r", {then_g.Data("x", F32({3}))})});
  else_g.Output({else_g.Op("Neg", "n", {else_g.Data("x", F32({3}))})});
  TinyGraph t;
  Node* cond = t.Data("cond", TensorDesc(DataType::kBool, {}));
  Node* x = t.Data("x", F32({3}));
  Node* n = t.Op("If", "if", {cond, x}, {{"_captures", int64_t{1}}});
  n->subgraphs()["then_branch"] = Subgraph(then_g);
  n->subgraphs()["else_branch"] = Subgraph(else_g);
  t.Output({n}, {"y"});
  // The v2 converters (a dynamic model), and the static plan with the
  // branches linked into label tasks, in both modes.
  Model dynamic = CompileModel(t, false);
  ASSERT_TRUE(dynamic.dynamic);
  Model linked = CompileModel(t);
  ASSERT_FALSE(linked.dynamic);
  ASSERT_EQ(linked.partitions.size(), 2u);
  for (auto [m, mode] : {std::pair{&dynamic, RunMode::kV2}, {&linked, RunMode::kV2}, {&linked, RunMode::kSink}}) {
    auto loaded = LoadModel(*m, mode);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Floats xs = {-1, 2, -3};
    for (bool c : {true, false, true}) {
      const uint8_t cv = c;
      std::vector<Tensor> out;
      Status s = (*loaded)->ExecuteShaped({{DataType::kBool, {}, &cv}, {DataType::kFloat32, {3}, xs.data()}}, out);
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(FloatsOf(out[0]), c ? Floats({0, 2, 0}) : Floats({1, -2, 3}));
    }
  }
}

// v = v + step (step captured), M times; the scan output stacks every v.
TinyGraph LoopModel() {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({2}));
  Node* step = body.Data("step", F32({2}));  // the capture, after the body's own inputs
  Node* next = body.Op("Add", "next", {v, step});
  body.Output({body.Op("Identity", "cond_out", {c}), next, body.Op("Identity", "slice", {next})});
  TinyGraph t;
  Node* trips = t.Data("M", TensorDesc(DataType::kInt64, {}));
  Node* v0 = t.Data("v0", F32({2}));
  Node* s = t.Data("step", F32({2}));
  Node* loop = t.Op("Loop", "loop", {trips, nullptr, v0, s}, {{"_captures", int64_t{1}}}, 2);
  loop->subgraphs()["body"] = Subgraph(body);
  t.Output({loop}, {"v_final"});
  EXPECT_TRUE(t.g().AddEdge(loop, 1, t.g().OutputNode(), 1).ok());
  t.g().OutputNode()->SetAttr("output_names", std::vector<std::string>{"v_final", "vs"});
  return t;
}

TEST(ControlFlow, LoopCarriesStateAndStacksScanOutputs) {
  TinyGraph t = LoopModel();
  Model m = CompileModel(t);
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Floats v0 = {1, 10}, step = {0.5f, -1};
  for (int64_t trips : {3, 0, 5}) {
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped(
        {{DataType::kInt64, {}, &trips}, {DataType::kFloat32, {2}, v0.data()}, {DataType::kFloat32, {2}, step.data()}}, out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(out.size(), 2u);
    const float t = static_cast<float>(trips);
    EXPECT_EQ(FloatsOf(out[0]), Floats({1 + 0.5f * t, 10 - t}));
    EXPECT_EQ(out[1].desc().dims, (std::vector<int64_t>{trips, 2}));
    for (int64_t i = 0; i < trips; ++i) {
      EXPECT_FLOAT_EQ(out[1].as<float>()[2 * i], 1 + 0.5f * static_cast<float>(i + 1));
      EXPECT_FLOAT_EQ(out[1].as<float>()[2 * i + 1], 10 - static_cast<float>(i + 1));
    }
  }
}

// Opset-8 Scan: a batch axis on every input and sequence_lens. Batch 0 runs
// its 3 steps backwards (directions 1), batch 1 one step; rows of the scan
// output past a shorter sequence are zero.
TEST(ControlFlow, Opset8ScanRunsEachBatchElementForItsSequenceLength) {
  TinyGraph body;
  Node* acc = body.Data("acc", F32({1}));
  Node* x = body.Data("x", F32({1}));
  Node* sum = body.Op("Add", "sum", {acc, x});
  body.Output({sum, body.Op("Identity", "slice", {sum})});
  TinyGraph t;
  Node* scan = t.Op("Scan", "scan",
                    {t.Data("lens", TensorDesc(DataType::kInt32, {2})), t.Data("init", F32({2, 1})), t.Data("xs", F32({2, 3, 1}))},
                    {{"num_scan_inputs", int64_t{1}}, {"_scan_opset", int64_t{8}}, {"directions", std::vector<int64_t>{1}}}, 2);
  scan->subgraphs()["body"] = Subgraph(body);
  t.Output({scan});
  EXPECT_TRUE(t.g().AddEdge(scan, 1, t.g().OutputNode(), 1).ok());
  Model m = CompileModel(t);
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const std::vector<int32_t> lens = {3, 1};
  const Floats init = {0, 100}, xs = {1, 2, 3, 4, 5, 6};
  std::vector<Tensor> out;
  Status st = (*loaded)->ExecuteShaped({{DataType::kInt32, {2}, lens.data()}, {DataType::kFloat32, {2, 1}, init.data()},
                                        {DataType::kFloat32, {2, 3, 1}, xs.data()}},
                                       out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(FloatsOf(out[0]), Floats({6, 104}));
  EXPECT_EQ(out[1].desc().dims, std::vector<int64_t>({2, 3, 1}));
  EXPECT_EQ(FloatsOf(out[1]), Floats({3, 5, 6, 104, 0, 0}));
  // A sequence length past the sequence is an error naming it.
  const std::vector<int32_t> bad = {4, 1};
  st = (*loaded)->ExecuteShaped({{DataType::kInt32, {2}, bad.data()}, {DataType::kFloat32, {2, 1}, init.data()},
                                 {DataType::kFloat32, {2, 3, 1}, xs.data()}},
                                out);
  EXPECT_NE(st.message().find("sequence_lens[0] = 4"), std::string::npos) << st.ToString();
}

// Running sum over the rows of x (forwards, or backwards with direction 1).
// scan_input_axes 1: x [2, 3] gives 3 slices x[:, t] ([2]); scan_output_axes
// 1 stacks the running sums as columns ([2, 3]); -1 means the same axis.
TEST(ControlFlow, ScanSlicesAndStacksAlongOtherAxes) {
  for (int64_t axis : {1, -1}) {
    TinyGraph body;
    Node* acc = body.Data("acc", F32({2}));
    Node* col = body.Data("col", F32({2}));
    Node* sum = body.Op("Add", "sum", {acc, col});
    body.Output({sum, body.Op("Identity", "slice", {sum})});
    TinyGraph t;
    Node* scan = t.Op("Scan", "scan", {t.Data("init", F32({2})), t.Data("x", F32({2, 3}))},
                      {{"num_scan_inputs", int64_t{1}},
                       {"scan_input_axes", std::vector<int64_t>{axis}},
                       {"scan_output_axes", std::vector<int64_t>{axis}}},
                      2);
    scan->subgraphs()["body"] = Subgraph(body);
    t.Output({scan});
    EXPECT_TRUE(t.g().AddEdge(scan, 1, t.g().OutputNode(), 1).ok());
    Model m = CompileModel(t);
    auto loaded = LoadModel(m, RunMode::kV2);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Floats zero = {0, 0}, xs = {1, 2, 3, 4, 5, 6};  // rows [1 2 3] and [4 5 6]
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {2}, zero.data()}, {DataType::kFloat32, {2, 3}, xs.data()}}, out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(FloatsOf(out[0]), Floats({6, 15}));
    EXPECT_EQ(out[1].desc().dims, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(FloatsOf(out[1]), Floats({1, 3, 6, 4, 9, 15}));
  }
}

TEST(ControlFlow, ScanWalksItsInputInEitherDirection) {
  for (int64_t dir : {0, 1}) {
    TinyGraph body;
    Node* acc = body.Data("acc", F32({2}));
    Node* row = body.Data("row", F32({2}));
    Node* sum = body.Op("Add", "sum", {acc, row});
    body.Output({sum, body.Op("Identity", "slice", {sum})});
    TinyGraph t;
    Node* init = t.Data("init", F32({2}));
    Node* x = t.Data("x", F32({3, 2}));
    Node* scan = t.Op("Scan", "scan", {init, x},
                      {{"num_scan_inputs", int64_t{1}}, {"scan_input_directions", std::vector<int64_t>{dir}}}, 2);
    scan->subgraphs()["body"] = Subgraph(body);
    t.Output({scan});
    EXPECT_TRUE(t.g().AddEdge(scan, 1, t.g().OutputNode(), 1).ok());
    Model m = CompileModel(t);
    auto loaded = LoadModel(m, RunMode::kV2);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Floats zero = {0, 0}, xs = {1, 2, 3, 4, 5, 6};
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {2}, zero.data()}, {DataType::kFloat32, {3, 2}, xs.data()}}, out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(FloatsOf(out[0]), Floats({9, 12}));
    EXPECT_EQ(FloatsOf(out[1]), dir == 0 ? Floats({1, 2, 4, 6, 9, 12}) : Floats({5, 6, 8, 10, 9, 12}));
  }
}

TEST(ControlFlow, AMissingBranchIsACompileErrorNamingTheNode) {
  TinyGraph then_g;
  then_g.Output({then_g.Op("Relu", "r", {then_g.Data("x", F32({3}))})});
  TinyGraph t;
  Node* n = t.Op("If", "lonely_if", {t.Data("cond", TensorDesc(DataType::kBool, {})), t.Data("x", F32({3}))},
                 {{"_captures", int64_t{1}}});
  n->subgraphs()["then_branch"] = Subgraph(then_g);
  t.Output({n});
  CompileOptions co;
  auto m = Compile(t.Clone(), co);
  ASSERT_TRUE(Refused(m, StatusCode::kInvalidArgument, "lonely_if"));
  EXPECT_NE(m.status().message().find("else_branch"), std::string::npos) << m.status().message();
}

TEST(ControlFlow, AnUnsupportedOpInsideABodyIsNamedAtCompileTime) {
  TinyGraph body;
  body.Output({body.Op("NoSuchOp", "inner", {body.Data("x", F32({3}))})});
  TinyGraph t;
  Node* n = t.Op("If", "if", {t.Data("cond", TensorDesc(DataType::kBool, {})), t.Data("x", F32({3}))},
                 {{"_captures", int64_t{1}}});
  n->subgraphs()["then_branch"] = std::shared_ptr<Graph>(body.Clone());
  n->subgraphs()["else_branch"] = std::shared_ptr<Graph>(body.Clone());
  t.Output({n});
  CompileOptions co;
  auto m = Compile(t.Clone(), co);
  ASSERT_TRUE(
      Refused(m, StatusCode::kUnsupported, "subgraph 'then_branch': node inner (NoSuchOp): op type not supported"));
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

// An If on a constant condition is its branch: folded at compile time, the
// model is static again (and runs in sink mode).
TEST(ControlFlow, AConstantConditionFoldsTheIfIntoItsBranch) {
  for (bool c : {true, false}) {
    TinyGraph then_g, else_g;
    then_g.Output({then_g.Op("Relu", "r", {then_g.Data("x", F32({3}))})});
    else_g.Output({else_g.Op("Neg", "n", {else_g.Data("x", F32({3}))})});
    TinyGraph t;
    Node* cond = t.Const("cond", Tensor(TensorDesc(DataType::kBool, {}), std::vector<uint8_t>{c}));
    Node* n = t.Op("If", "if", {cond, t.Data("x", F32({3}))}, {{"_captures", int64_t{1}}});
    n->subgraphs()["then_branch"] = Subgraph(then_g);
    n->subgraphs()["else_branch"] = Subgraph(else_g);
    t.Output({n}, {"y"});
    Model m = CompileModel(t);
    EXPECT_FALSE(m.dynamic);
    int ifs = 0;
    for (const Node* x : m.graph->nodes()) ifs += x->type() == "If";
    EXPECT_EQ(ifs, 0);
    EXPECT_NE(m.graph->FindNode(c ? "if/r" : "if/n"), nullptr);
    auto loaded = LoadModel(m, RunMode::kSink);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Floats xs = {-1, 2, -3};
    std::vector<Tensor> out;
    ASSERT_TRUE((*loaded)->ExecuteShaped({{DataType::kFloat32, {3}, xs.data()}}, out).ok());
    EXPECT_EQ(FloatsOf(out[0]), c ? Floats({0, 2, 0}) : Floats({1, -2, 3}));
  }
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

int CountIn(const Graph& g, const std::string& type) {
  int c = 0;
  for (const Node* n : g.nodes()) c += n->type() == type;
  return c;
}

// Compiles t with `disabled` passes off, runs it once in v2 on `inputs`;
// the model and its first output.
std::pair<Model, Floats> CompileAndRunOnce(const TinyGraph& t, std::vector<std::string> disabled,
                                           const std::vector<TensorView>& inputs) {
  CompileOptions co;
  co.verify_each_pass = true;
  co.disabled_passes = std::move(disabled);
  auto m = Compile(t.Clone(), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (!m.ok()) return {};
  auto loaded = LoadModel(*m, RunMode::kV2);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  if (!loaded.ok()) return {};
  std::vector<Tensor> out;
  Status st = (*loaded)->ExecuteShaped(inputs, out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return {std::move(*m), st.ok() ? FloatsOf(out[0]) : Floats{}};
}

// The optimize and fusion passes run inside subgraphs, innermost first: a
// constant chain of a loop body folds, a MatMul + Add inside it becomes one
// Gemm, and an If on a constant inside the body of a loop inside a branch
// folds into its branch. The results are those of the unoptimised model.
TEST(ControlFlow, PassesRunInsideSubgraphsInnermostFirst) {
  // body: v' = (v @ W + b) * (two + two); the If inside picks Relu on a constant true.
  TinyGraph inner_then, inner_else;
  inner_then.Output({inner_then.Op("Relu", "r", {inner_then.Data("x", F32({1, 2}))})});
  inner_else.Output({inner_else.Op("Neg", "n", {inner_else.Data("x", F32({1, 2}))})});
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1, 2}));
  Node* mm = body.Op("MatMul", "mm", {v, body.Const("w", F32s({2, 2}, {0.5f, -1.f, 0.25f, 2.f}))});
  Node* add = body.Op("Add", "bias", {mm, body.Const("b", F32s({2}, {0.1f, -0.2f}))});
  Node* two = body.Const("two", F32s({}, {2.f}));
  Node* four = body.Op("Add", "four", {two, two});
  Node* scaled = body.Op("Mul", "scaled", {add, four});
  Node* inner_if = body.Op("If", "inner_if", {body.Const("yes", Tensor(TensorDesc(DataType::kBool, {}), std::vector<uint8_t>{1})), scaled},
                           {{"_captures", int64_t{1}}});
  inner_if->subgraphs()["then_branch"] = Subgraph(inner_then);
  inner_if->subgraphs()["else_branch"] = Subgraph(inner_else);
  body.Output({body.Op("Identity", "cond_out", {c}), inner_if});
  TinyGraph t;
  Node* trip = t.Data("n", TensorDesc(DataType::kInt64, {}));
  Node* loop = t.Op("Loop", "loop", {trip, nullptr, t.Data("v0", F32({1, 2}))});
  loop->subgraphs()["body"] = Subgraph(body);
  t.Output({loop}, {"y"});

  const int64_t n = 3;
  const Floats v0 = {1.f, -2.f};
  auto run = [&](std::vector<std::string> disabled) {
    return CompileAndRunOnce(t, std::move(disabled), {{DataType::kInt64, {}, &n}, {DataType::kFloat32, {1, 2}, v0.data()}});
  };
  auto [optimized, y] = run({});
  Node* l = optimized.graph->FindNode("loop");
  ASSERT_NE(l, nullptr);
  const Graph& b = *l->subgraphs().at("body");
  EXPECT_EQ(CountIn(b, "If"), 0) << "the constant If inside the body was not folded";
  EXPECT_EQ(CountIn(b, "MatMul"), 0) << "MatMul + Add inside the body did not become a Gemm";
  EXPECT_EQ(CountIn(b, "Add"), 0) << "two + two inside the body was not folded (or the bias not fused)";
  auto [plain, want] =
      run({"constant_folding", "fold_constant_if", "matmul_add_to_gemm", "gemm_post_ops", "algebraic_simplify", "cse"});
  EXPECT_EQ(CountIn(*plain.graph->FindNode("loop")->subgraphs().at("body"), "If"), 1);
  ASSERT_EQ(y.size(), want.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-4f) << i;
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

// v' = v @ Transpose(w) * (w_scale + 1), w and w_scale captured: the
// Transpose and the Add depend only on captures and move in front of the
// Loop; the body reads them as two more captures. Same result either way.
TEST(ControlFlow, LoopInvariantsDependingOnCapturesAreHoisted) {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32({1, 2}));
  Node* w = body.Data("w", F32({2, 2}));          // capture 0
  Node* s = body.Data("w_scale", F32({}));        // capture 1
  Node* wt = body.Op("Transpose", "wt", {w}, {{"perm", std::vector<int64_t>{1, 0}}});
  Node* scale = body.Op("Add", "scale", {s, body.Const("one", F32s({}, {1.f}))});
  Node* next = body.Op("Mul", "next", {body.Op("MatMul", "mm", {v, wt}), scale});
  body.Output({body.Op("Identity", "cond_out", {c}), next});
  TinyGraph t;
  Node* loop = t.Op("Loop", "loop", {t.Data("n", TensorDesc(DataType::kInt64, {})), nullptr, t.Data("v0", F32({1, 2})),
                                     t.Data("w", F32({2, 2})), t.Data("w_scale", F32({}))},
                    {{"_captures", int64_t{2}}});
  loop->subgraphs()["body"] = Subgraph(body);
  t.Output({loop}, {"y"});

  const int64_t n = 3;
  const Floats v0 = {1.f, -2.f}, w_ = {0.5f, -1.f, 0.25f, 2.f}, ws = {0.5f};
  auto run = [&](std::vector<std::string> disabled) {
    return CompileAndRunOnce(t, std::move(disabled),
                             {{DataType::kInt64, {}, &n},
                              {DataType::kFloat32, {1, 2}, v0.data()},
                              {DataType::kFloat32, {2, 2}, w_.data()},
                              {DataType::kFloat32, {}, ws.data()}});
  };
  auto [hoisted, y] = run({});
  Node* l = hoisted.graph->FindNode("loop");
  ASSERT_NE(l, nullptr);
  const Graph& b = *l->subgraphs().at("body");
  EXPECT_EQ(CountIn(b, "Transpose"), 0);
  EXPECT_EQ(CountIn(b, "Add"), 0);
  // In front of the loop, in the root graph (the loop is static: one plan).
  EXPECT_FALSE(hoisted.dynamic);
  EXPECT_EQ(CountIn(*hoisted.graph, "Transpose"), 1);
  EXPECT_EQ(l->GetInt("_captures"), 4);
  auto [plain, want] = run({"hoist_loop_invariants"});
  EXPECT_EQ(CountIn(*plain.graph->FindNode("loop")->subgraphs().at("body"), "Transpose"), 1);
  ASSERT_EQ(y.size(), want.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], want[i], 1e-5f) << i;
  // v <- v @ W^T * 1.5, three times from [1, -2], worked out by hand.
  EXPECT_EQ(y, Floats({31.640625f, -42.1875f}));
}

}  // namespace
}  // namespace ge::test
