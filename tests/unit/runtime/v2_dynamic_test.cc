// The v2 runtime on dynamic models: one compiled model run with several
// input shapes, known-shape partitions run as sink models inside it, shapes
// computed from values, errors that name the input, and memory that comes
// back to the cache.
#include <cmath>

#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

Model CompileDynamic(std::unique_ptr<Graph> g) {
  CompileOptions co;
  co.model_name = "dyn";
  co.verify_each_pass = true;
  auto m = Compile(std::move(g), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(m).value() : Model{};
}

std::vector<float> Floats(const Tensor& t) { return std::vector<float>(t.as<float>(), t.as<float>() + t.desc().NumElements()); }

// x f32[2,4] static: k = Sigmoid(Relu(x) + bias) (a known partition);
// y f32[?,4]: u = Relu(y) * bias (unknown shape), w = Reshape(u, [-1]).
std::unique_ptr<Graph> MixedGraph() {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 4}));
  Node* y = t.Data("y", F32({-1, 4}));
  Node* bias = t.Const("bias", F32s({4}, {1, -2, 3, -4}));
  Node* k = t.Op("Sigmoid", "k", {t.Op("Add", "a", {t.Op("Relu", "r", {x}), bias})});
  Node* u = t.Op("Mul", "u", {t.Op("Relu", "ru", {y}), bias});
  Node* w = t.Op("Reshape", "w", {u, t.Const("flat", I64s({-1}))});
  t.Output({k, u, w});
  return t.Clone();
}

TEST(V2Dynamic, OneModelRunsEveryBatchAndItsKnownPartition) {
  Model m = CompileDynamic(MixedGraph());
  ASSERT_TRUE(m.dynamic);
  ASSERT_EQ(m.partitions.size(), 1u);
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_TRUE((*loaded)->dynamic());
  const std::vector<float> x = {-1, 0.5f, 2, -3, 4, -5, 6, 0};
  const float bias[4] = {1, -2, 3, -4};
  for (int64_t batch : {3, 1, 5, 3}) {
    std::vector<float> y(static_cast<size_t>(batch * 4));
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i % 7) - 3.f;
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {2, 4}, x.data()}, {DataType::kFloat32, {batch, 4}, y.data()}}, out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].desc().dims, (std::vector<int64_t>{2, 4}));
    EXPECT_EQ(out[1].desc().dims, (std::vector<int64_t>{batch, 4}));
    EXPECT_EQ(out[2].desc().dims, (std::vector<int64_t>{batch * 4}));
    const auto k = Floats(out[0]), u = Floats(out[1]), w = Floats(out[2]);
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_NEAR(k[i], 1.f / (1.f + std::exp(-(std::max(x[i], 0.f) + bias[i % 4]))), 1e-6f);
    for (size_t i = 0; i < y.size(); ++i) {
      EXPECT_FLOAT_EQ(u[i], std::max(y[i], 0.f) * bias[i % 4]);
      EXPECT_FLOAT_EQ(w[i], u[i]);
    }
  }
}

TEST(V2Dynamic, ARepeatedShapeAllocatesNothingNew) {
  Model m = CompileDynamic(MixedGraph());
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  std::vector<float> x(8, 1.f), y(12, 2.f);
  std::vector<Tensor> out;
  auto run = [&] {
    ASSERT_TRUE((*loaded)->ExecuteShaped({{DataType::kFloat32, {2, 4}, x.data()}, {DataType::kFloat32, {3, 4}, y.data()}}, out).ok());
  };
  run();
  const size_t after_first = (*loaded)->device_bytes();
  for (int i = 0; i < 5; ++i) run();
  EXPECT_EQ((*loaded)->device_bytes(), after_first);
}

TEST(V2Dynamic, WrongInputsAreRefusedNamingTheInput) {
  Model m = CompileDynamic(MixedGraph());
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  std::vector<float> x(8), y(12);
  std::vector<Tensor> out;
  Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {2, 4}, x.data()}, {DataType::kFloat32, {3, 5}, y.data()}}, out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("input y"), std::string::npos) << s.message();
  s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {2, 4}, x.data()}, {DataType::kInt32, {3, 4}, y.data()}}, out);
  EXPECT_NE(s.message().find("input y"), std::string::npos) << s.message();
  // Pointer-only execution cannot know the shapes.
  std::vector<float> o(100);
  EXPECT_TRUE(Refused((*loaded)->Execute({x.data(), y.data()}, {o.data(), o.data(), o.data()}),
                      StatusCode::kInvalidArgument, "model dyn has dynamic shapes: run it with its input shapes"));
}

TEST(V2Dynamic, SinkModeRefusesADynamicModelNamingItsInputs) {
  Model m = CompileDynamic(MixedGraph());
  auto loaded = LoadModel(m, RunMode::kSink);
  ASSERT_TRUE(Refused(loaded, StatusCode::kInvalidArgument, "y f32[?,4]"));
}

TEST(V2Dynamic, TheTopologicalExecutorGivesTheSameOutputs) {
  Model m = CompileDynamic(MixedGraph());
  LoadOptions seq, topo;
  topo.executor = LoadOptions::Executor::kTopological;
  topo.executor_threads = 2;
  auto a = LoadModel(m, seq), b = LoadModel(m, topo);
  ASSERT_TRUE(a.ok() && b.ok()) << b.status().ToString();
  for (int64_t batch : {2, 7}) {
    std::vector<float> x(8), y(static_cast<size_t>(batch * 4));
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<float>(i) * 0.5f - 3.f;
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 4.f;
    const std::vector<TensorView> in = {{DataType::kFloat32, {2, 4}, x.data()}, {DataType::kFloat32, {batch, 4}, y.data()}};
    std::vector<Tensor> oa, ob;
    ASSERT_TRUE((*a)->ExecuteShaped(in, oa).ok());
    Status s = (*b)->ExecuteShaped(in, ob);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(oa.size(), ob.size());
    for (size_t j = 0; j < oa.size(); ++j) {
      EXPECT_EQ(oa[j].desc(), ob[j].desc());
      EXPECT_EQ(Floats(oa[j]), Floats(ob[j]));
    }
  }
  // A static model's memory plan is made for one order.
  TinyGraph t;
  t.Output({t.Op("Relu", "r", {t.Data("x", F32({2}))})});
  auto fixed = Compile(t.Clone(), CompileOptions{});
  ASSERT_TRUE(fixed.ok());
  EXPECT_TRUE(Refused(LoadModel(*fixed, topo), StatusCode::kInvalidArgument,
                      "the topological executor runs dynamic models; tiny is static, its"));
}

// Shape arithmetic on runtime values: Reshape(x, Concat(Shape(x)[0], 2, -1)).
TEST(V2Dynamic, ShapesComputedFromRuntimeShapes) {
  TinyGraph t;
  Node* x = t.Data("x", F32({-1, 4}));
  Node* shape = t.Op("Shape", "shape", {x});
  Node* n = t.Op("Gather", "n", {shape, t.Const("zero", I64s({0}))}, {{"axis", int64_t{0}}});
  Node* target = t.Op("Concat", "target", {n, t.Const("rest", I64s({2, -1}))}, {{"axis", int64_t{0}}});
  Node* r = t.Op("Reshape", "r", {t.Op("Neg", "neg", {x}), target});
  t.Output({r});
  Model m = CompileDynamic(t.Clone());
  auto loaded = LoadModel(m, RunMode::kV2);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  for (int64_t batch : {1, 6}) {
    std::vector<float> in(static_cast<size_t>(batch * 4));
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {batch, 4}, in.data()}}, out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(out[0].desc().dims, (std::vector<int64_t>{batch, 2, 2}));
    const auto v = Floats(out[0]);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(v[i], -in[i]);
  }
}

}  // namespace
}  // namespace ge::test
