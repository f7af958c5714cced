// The limits of a v2 run on a dynamic model (LoadOptions timeout,
// max_loop_iterations, max_memory): a while(true) Loop, a Loop nested in a
// Loop's body, a Loop that doubles its state and a Scan of 10^9 slices stop
// with one error naming the node and the limit, in either executor; the
// memory the run took is back afterwards and the next call succeeds.
#include <chrono>
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"
#include "v2/run_limits.h"

namespace ge::test {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<Graph> LimitsBody(TinyGraph& t) {
  EXPECT_TRUE(t.Infer().ok());
  return std::shared_ptr<Graph>(t.Clone());
}

// Control flow kept for the v2 converters (not linked into label tasks).
Model CompileForLimits(TinyGraph& t) {
  CompileOptions co;
  co.model_name = "limits";
  co.sink_control_flow = false;
  auto m = Compile(t.Clone(), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : Model{};
}

// Loop(M, cond, v0) named `name`; the body passes its condition on and
// makes v from v_in with `step` (Neg, or Concat(v, v) with dims {-1}).
Node* AddWhileLoop(TinyGraph& t, const std::string& name, Node* trips, Node* cond, Node* v0, const std::string& step,
                   const std::vector<int64_t>& dims) {
  TinyGraph body;
  body.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = body.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = body.Data("v", F32(dims));
  Node* next = step == "Concat" ? body.Op("Concat", "double", {v, v}, {{"axis", int64_t{0}}}) : body.Op(step, "step", {v});
  body.Output({body.Op("Identity", "cond_out", {c}), next});
  Node* loop = t.Op("Loop", name, {trips, cond, v0});
  loop->subgraphs()["body"] = LimitsBody(body);
  return loop;
}

// v = Neg(v) while cond and fewer than M iterations.
Model WhileModel() {
  TinyGraph t;
  Node* trips = t.Data("M", TensorDesc(DataType::kInt64, {}));
  Node* cond = t.Data("cond", TensorDesc(DataType::kBool, {}));
  t.Output({AddWhileLoop(t, "loop1", trips, cond, t.Data("v0", F32({4})), "Neg", {4})}, {"v"});
  return CompileForLimits(t);
}

struct LoopCall {
  int64_t trips;
  uint8_t cond;
  std::vector<float> v{1, -2, 3, -4};
  std::vector<TensorView> Views() const {
    return {{DataType::kInt64, {}, &trips}, {DataType::kBool, {}, &cond}, {DataType::kFloat32, {4}, v.data()}};
  }
};
constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

std::unique_ptr<LoadedModel> LoadLimited(const Model& m, const LoadOptions& o) {
  auto loaded = LoadModel(m, o);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? std::move(loaded).value() : nullptr;
}

LoadOptions WithTimeout(std::chrono::milliseconds ms, LoadOptions::Executor e = LoadOptions::Executor::kSequential) {
  LoadOptions o;
  o.timeout = ms;
  o.executor = e;
  o.executor_threads = 2;
  return o;
}

// Three iterations of Neg: -v; the model is usable and its memory back.
void ExpectFiniteCallWorks(LoadedModel& m) {
  LoopCall finite{3, 1};
  std::vector<Tensor> out;
  Status s = m.ExecuteShaped(finite.Views(), out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(std::vector<float>(out[0].as<float>(), out[0].as<float>() + 4), (std::vector<float>{-1, 2, -3, 4}));
  EXPECT_EQ(m.bytes_in_use(), 0u);
}

TEST(V2Limits, AWhileTrueLoopStopsAtTheTimeoutInEitherExecutor) {
  Model m = WhileModel();
  for (auto e : {LoadOptions::Executor::kSequential, LoadOptions::Executor::kTopological}) {
    SCOPED_TRACE(e == LoadOptions::Executor::kSequential ? "sequential" : "topological");
    auto loaded = LoadLimited(m, WithTimeout(100ms, e));
    ASSERT_TRUE(loaded);
    ExpectFiniteCallWorks(*loaded);
    LoopCall forever{kForever, 1};
    std::vector<Tensor> out;
    const auto t0 = std::chrono::steady_clock::now();
    Status s = loaded->ExecuteShaped(forever.Views(), out);
    const auto took = std::chrono::steady_clock::now() - t0;
    EXPECT_TRUE(Refused(s, StatusCode::kTimeout, "timeout after 100 ms")) << s.ToString();
    EXPECT_NE(s.message().find("node loop1 (Loop)"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("iteration "), std::string::npos) << s.ToString();
    EXPECT_GE(took, 100ms);
    EXPECT_LT(took, 5s);
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(loaded->bytes_in_use(), 0u);
    ExpectFiniteCallWorks(*loaded);
  }
}

// The outer Loop runs twice; its body's Loop never ends on its own: the
// deadline of the top-level call reaches it.
TEST(V2Limits, TheTimeoutReachesALoopNestedInALoopBody) {
  TinyGraph outer;
  outer.Data("iter", TensorDesc(DataType::kInt64, {}));
  Node* c = outer.Data("cond_in", TensorDesc(DataType::kBool, {}));
  Node* v = outer.Data("v", F32({4}));
  outer.Output({outer.Op("Identity", "cond_out", {c}), AddWhileLoop(outer, "inner", nullptr, c, v, "Neg", {4})});
  TinyGraph t;
  Node* trips = t.Data("M", TensorDesc(DataType::kInt64, {}));
  Node* cond = t.Data("cond", TensorDesc(DataType::kBool, {}));
  Node* loop = t.Op("Loop", "outer", {trips, cond, t.Data("v0", F32({4}))});
  loop->subgraphs()["body"] = LimitsBody(outer);
  t.Output({loop}, {"v"});
  auto loaded = LoadLimited(CompileForLimits(t), WithTimeout(100ms));
  ASSERT_TRUE(loaded);
  LoopCall call{2, 1};
  std::vector<Tensor> out;
  Status s = loaded->ExecuteShaped(call.Views(), out);
  EXPECT_TRUE(Refused(s, StatusCode::kTimeout, "timeout after 100 ms")) << s.ToString();
  EXPECT_NE(s.message().find("node outer (Loop): iteration 0"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("node inner (Loop)"), std::string::npos) << s.ToString();
  EXPECT_EQ(loaded->bytes_in_use(), 0u);
  call.cond = 0;  // the inner loop runs no iteration
  s = loaded->ExecuteShaped(call.Views(), out);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

TEST(V2Limits, MaxLoopIterationsStopsAnEndlessLoopAndAllowsExactlyTheLimit) {
  Model m = WhileModel();
  LoadOptions o;
  o.max_loop_iterations = 1000;
  auto loaded = LoadLimited(m, o);
  ASSERT_TRUE(loaded);
  LoopCall forever{kForever, 1};
  std::vector<Tensor> out;
  Status s = loaded->ExecuteShaped(forever.Views(), out);
  EXPECT_TRUE(Refused(s, StatusCode::kInvalidArgument, "node loop1 (Loop): iteration 1000 passes the limit of 1000 "
                                                          "iterations (--max_loop_iterations)"));
  EXPECT_EQ(loaded->bytes_in_use(), 0u);
  LoopCall exact{1000, 1};
  s = loaded->ExecuteShaped(exact.Views(), out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(out[0].as<float>()[0], 1.0f);  // an even number of negations
}

TEST(V2Limits, ANegativeIterationLimitIsRefusedAtLoad) {
  LoadOptions o;
  o.max_loop_iterations = -1;
  EXPECT_TRUE(Refused(LoadModel(WhileModel(), o), StatusCode::kInvalidArgument, "max_loop_iterations -1"));
}

// v = Concat(v, v) from 4 KiB: past 64 MiB after 14 iterations.
TEST(V2Limits, MaxMemoryStopsALoopThatDoublesItsState) {
  TinyGraph t;
  Node* trips = t.Data("M", TensorDesc(DataType::kInt64, {}));
  Node* cond = t.Data("cond", TensorDesc(DataType::kBool, {}));
  t.Output({AddWhileLoop(t, "grow", trips, cond, t.Data("v0", F32({-1})), "Concat", {-1})}, {"v"});
  Model m = CompileForLimits(t);
  LoadOptions o;
  o.max_memory = 64 << 20;
  auto loaded = LoadLimited(m, o);
  ASSERT_TRUE(loaded);
  const std::vector<float> v(1024, 1.0f);
  int64_t trips_value = kForever;
  const uint8_t yes = 1;
  std::vector<TensorView> in = {
      {DataType::kInt64, {}, &trips_value}, {DataType::kBool, {}, &yes}, {DataType::kFloat32, {1024}, v.data()}};
  std::vector<Tensor> out;
  Status s = loaded->ExecuteShaped(in, out);
  EXPECT_TRUE(Refused(s, StatusCode::kInvalidArgument, "passes the memory limit of 64.0 MiB (--max_memory)"));
  // 4 KiB doubled 14 times is the 64 MiB the Concat cannot have.
  EXPECT_NE(s.message().find("node grow (Loop): iteration 13: node double (Concat) output 0: a request of 64.0 MiB"),
            std::string::npos)
      << s.ToString();
  EXPECT_EQ(loaded->bytes_in_use(), 0u);
  for (int64_t trips : {12, 3}) {
    trips_value = trips;
    s = loaded->ExecuteShaped(in, out);
    ASSERT_TRUE(s.ok()) << trips << ": " << s.ToString();
    EXPECT_EQ(out[0].desc().dims, (std::vector<int64_t>{1024 << trips}));
    EXPECT_EQ(loaded->bytes_in_use(), 0u);
  }
}

// Two value memories of one tree (a model and its Loop body): the cache of
// one holds budget the other cannot trim; TrimCaches (after a failed call)
// gives it back.
TEST(V2Limits, TrimCachesFreesWhatOneAllocatorOfTheTreeKeptCached) {
  auto device = hal::GetDevice("cpu");
  ASSERT_TRUE(device.ok()) << device.status().ToString();
  v2::MemoryBudget budget(1 << 20);
  v2::ValueMemory body(**device, false, &budget), root(**device, false, &budget);
  v2::Value a, b;
  a.bytes = b.bytes = 768 << 10;
  ASSERT_TRUE(body.Alloc(a).ok());
  EXPECT_EQ(budget.in_use(), a.block->size());
  body.Free(a);  // cached: still held
  EXPECT_EQ(budget.in_use(), 0u);
  EXPECT_TRUE(Refused(root.Alloc(b), StatusCode::kInvalidArgument,
                      "a request of 768.0 KiB passes the memory limit of 1.0 MiB (--max_memory) with 768.0 KiB held"));
  budget.TrimCaches();
  EXPECT_EQ(budget.held(), 0u);
  ASSERT_TRUE(root.Alloc(b).ok());
  EXPECT_EQ(budget.held(), b.block->size());
  root.Free(b);
}

// acc = Neg(acc) per slice of xs f32[N, 0]: N iterations without a byte.
Model HugeScanModel() {
  TinyGraph body;
  Node* acc = body.Data("acc", F32({1}));
  body.Data("x", F32({0}));
  body.Output({body.Op("Neg", "flip", {acc})});
  TinyGraph t;
  Node* scan = t.Op("Scan", "scan1", {t.Data("acc0", F32({1})), t.Data("xs", F32({-1, 0}))},
                    {{"num_scan_inputs", int64_t{1}}});
  scan->subgraphs()["body"] = LimitsBody(body);
  t.Output({scan}, {"acc"});
  return CompileForLimits(t);
}

TEST(V2Limits, AScanOfABillionSlicesMeetsTheIterationLimitOrTheTimeout) {
  Model m = HugeScanModel();
  const float one = 1;
  alignas(64) static const float nothing[16] = {};
  std::vector<TensorView> in = {{DataType::kFloat32, {1}, &one}, {DataType::kFloat32, {1000000000, 0}, nothing}};
  LoadOptions o;
  o.max_loop_iterations = 1000;
  auto counted = LoadLimited(m, o);
  ASSERT_TRUE(counted);
  std::vector<Tensor> out;
  EXPECT_TRUE(Refused(counted->ExecuteShaped(in, out), StatusCode::kInvalidArgument,
                      "node scan1 (Scan): 1000000000 iterations pass the limit of 1000 (--max_loop_iterations)"));
  auto timed = LoadLimited(m, WithTimeout(100ms));
  ASSERT_TRUE(timed);
  Status s = timed->ExecuteShaped(in, out);
  EXPECT_TRUE(Refused(s, StatusCode::kTimeout, "timeout after 100 ms")) << s.ToString();
  EXPECT_NE(s.message().find("node scan1 (Scan)"), std::string::npos) << s.ToString();
  EXPECT_EQ(timed->bytes_in_use(), 0u);
  in[1].dims = {4, 0};
  ASSERT_TRUE(timed->ExecuteShaped(in, out).ok());
  EXPECT_EQ(out[0].as<float>()[0], 1.0f);
}

}  // namespace
}  // namespace ge::test
