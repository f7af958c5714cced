// ATC's gears: the flags resolved into per-gear input dims, the graph
// compiled once per gear under a GearCase node, the .om keeping one copy of
// the shared weights, and both runtimes picking the gear by the input dims.
#include "ge/om.h"
#include "tests/common/refusal.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

using Dims = std::vector<int64_t>;

// y = Relu(x * w + b) over f32[?,4] (w, b constants of 4).
std::unique_ptr<Graph> BatchGraph(Dims x_dims = {-1, 4}) {
  TinyGraph t;
  Node* x = t.Data("x", F32(x_dims));
  Node* w = t.Const("w", F32s({4}, {1, -2, 3, -4}));
  Node* b = t.Const("b", F32s({4}, {0.5f, 0.5f, -0.5f, -0.5f}));
  t.Output({t.Op("Relu", "y", {t.Op("Add", "a", {t.Op("Mul", "m", {x, w}), b})})});
  return t.Clone();
}

GearOptions Batches(std::vector<int64_t> sizes) {
  GearOptions g;
  g.kind = GearOptions::Kind::kBatch;
  for (int64_t s : sizes) g.values.push_back({s});
  return g;
}

Result<Model> CompileWith(std::unique_ptr<Graph> g, GearOptions gears) {
  CompileOptions co;
  co.model_name = "gears";
  co.verify_each_pass = true;
  co.gears = std::move(gears);
  return Compile(std::move(g), co);
}

TEST(ResolveGears, BatchFillsDimZeroOfEveryDynamicInput) {
  TinyGraph t;
  t.Data("a", F32({-1, 3}));
  t.Data("b", F32({2, 2}));
  t.Data("c", F32({-1}));
  auto dims = ResolveGears(t.g(), Batches({1, 8}));
  ASSERT_TRUE(dims.ok()) << dims.status().ToString();
  ASSERT_EQ(dims->size(), 2u);
  EXPECT_EQ((*dims)[1], (std::vector<Dims>{{8, 3}, {2, 2}, {8}}));
}

TEST(ResolveGears, ImageSizeAndDimsFollowTheirOrder) {
  TinyGraph t;
  t.Data("img", F32({1, 3, -1, -1}));
  GearOptions hw;
  hw.kind = GearOptions::Kind::kImageSize;
  hw.values = {{224, 320}};
  auto a = ResolveGears(t.g(), hw);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ((*a)[0][0], (Dims{1, 3, 224, 320}));

  TinyGraph u;
  u.Data("ids", F32({-1, -1}));
  u.Data("mask", F32({-1, 7}));
  GearOptions d;
  d.kind = GearOptions::Kind::kDims;
  d.values = {{2, 40, 3}};
  d.order = {"mask", "ids"};  // --input_shape named mask first
  auto b = ResolveGears(u.g(), d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ((*b)[0], (std::vector<Dims>{{40, 3}, {2, 7}}));
}

TEST(ResolveGears, ErrorsNameTheFlagAndTheInput) {
  TinyGraph t;
  t.Data("x", F32({4, -1}));
  auto batch = ResolveGears(t.g(), Batches({2}));
  ASSERT_TRUE(Refused(batch, StatusCode::kInvalidArgument,
                      "--dynamic_batch_size: input x [4,-1]: only the first (batch) dim may be -1"));

  TinyGraph s;
  s.Data("x", F32({2, 4}));
  auto none = ResolveGears(s.g(), Batches({2}));
  ASSERT_TRUE(Refused(none, StatusCode::kInvalidArgument, "no input has a -1 dim"));

  TinyGraph u;
  u.Data("x", F32({-1, 4}));
  EXPECT_NE(ResolveGears(u.g(), Batches({2, 2})).status().message().find("given twice"), std::string::npos);
  EXPECT_NE(ResolveGears(u.g(), Batches({0})).status().message().find("not a dim size"), std::string::npos);
  GearOptions d;
  d.kind = GearOptions::Kind::kDims;
  d.values = {{1, 2}};
  EXPECT_NE(ResolveGears(u.g(), d).status().message().find("each gear gives 1"), std::string::npos);
}

TEST(Gears, OneStaticPlanPerGearUnderAGearCase) {
  auto m = CompileWith(BatchGraph(), Batches({1, 2, 4}));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_TRUE(m->dynamic);
  const Node* gear_case = FindGearCase(*m);
  ASSERT_NE(gear_case, nullptr);
  EXPECT_EQ(gear_case->subgraphs().size(), 3u);
  const std::vector<size_t> gears = GearPartitions(*m, gear_case->name());
  ASSERT_EQ(gears.size(), 3u);
  for (size_t i = 0; i < gears.size(); ++i) {
    const SubgraphPlan& p = m->partitions[gears[i]];
    EXPECT_EQ(p.subgraph, "gear" + std::to_string(i));
    EXPECT_EQ(p.inputs[0].desc.dims, (Dims{int64_t{1} << i, 4}));
    EXPECT_FALSE(p.memory.empty());
  }
  EXPECT_EQ(m->inputs[0].desc.dims, (Dims{-1, 4}));
  EXPECT_EQ(m->outputs[0].desc.dims, (Dims{-1, 4}));
}

TEST(Gears, TheOmKeepsOneCopyOfTheSharedWeights) {
  auto one = CompileWith(BatchGraph(), Batches({1}));
  auto three = CompileWith(BatchGraph(), Batches({1, 2, 4}));
  ASSERT_TRUE(one.ok() && three.ok());
  auto a = SerializeOm(*one), b = SerializeOm(*three);
  ASSERT_TRUE(a.ok() && b.ok());
  auto pa = ParseOm(a->data(), a->size(), "one"), pb = ParseOm(b->data(), b->size(), "three");
  ASSERT_TRUE(pa.ok()) << pa.status().ToString();
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_GT(pa->weights_size, 0u);
  EXPECT_EQ(pa->weights_size, pb->weights_size);
  // The decoded gears are whole models again.
  EXPECT_EQ(GearPartitions(pb->model, "gear_case").size(), 3u);
}

void ExpectRuns(LoadedModel& m, int64_t batch) {
  std::vector<float> x(static_cast<size_t>(batch * 4));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 5) - 2.f;
  std::vector<Tensor> out;
  Status s = m.ExecuteShaped({{DataType::kFloat32, {batch, 4}, x.data()}}, out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].desc().dims, (Dims{batch, 4}));
  const float w[4] = {1, -2, 3, -4}, b[4] = {0.5f, 0.5f, -0.5f, -0.5f};
  for (size_t i = 0; i < x.size(); ++i) EXPECT_FLOAT_EQ(out[0].as<float>()[i], std::max(x[i] * w[i % 4] + b[i % 4], 0.f));
}

TEST(Gears, BothRuntimesPickTheGearByTheInputDims) {
  auto m = CompileWith(BatchGraph(), Batches({1, 2, 4}));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  for (RunMode mode : {RunMode::kV2, RunMode::kSink}) {
    auto loaded = LoadModel(*m, mode);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_TRUE((*loaded)->dynamic());
    for (int64_t batch : {2, 4, 1, 2}) ExpectRuns(**loaded, batch);
    std::vector<float> x(12);
    std::vector<Tensor> out;
    Status s = (*loaded)->ExecuteShaped({{DataType::kFloat32, {3, 4}, x.data()}}, out);
    ASSERT_TRUE(
        Refused(s, StatusCode::kInvalidArgument, "input dims [3,4] match none of its gears ([1,4]; [2,4]; [4,4])"));
  }
}

TEST(Gears, TheGearsShareOneWeightsSegmentAtRunTime) {
  auto m = CompileWith(BatchGraph(), Batches({1, 2, 4}));
  ASSERT_TRUE(m.ok());
  auto loaded = LoadModel(*m, RunMode::kSink);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  size_t own = 0, weights = 0;
  for (size_t i : GearPartitions(*m, "gear_case")) {
    auto gear = PartitionModel(*m, i);
    ASSERT_TRUE(gear.ok());
    auto alone = LoadSinkModel(*gear);
    ASSERT_TRUE(alone.ok()) << alone.status().ToString();
    own += (*alone)->instance_bytes();
    weights = (*alone)->device_bytes() - (*alone)->instance_bytes();
  }
  EXPECT_GT(weights, 0u);
  EXPECT_EQ((*loaded)->device_bytes(), own + weights);
  // v2 holds the same gears, plus the memory of its values once it ran.
  auto v2 = LoadModel(*m, RunMode::kV2);
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_EQ((*v2)->device_bytes(), own + weights);
  ExpectRuns(**v2, 4);
  EXPECT_GT((*v2)->device_bytes(), own + weights);
  EXPECT_LT((*v2)->device_bytes(), own + 2 * weights + 1024);
}

TEST(Gears, SinkLoadOfAGearModelSaysToUseLoadModel) {
  auto m = CompileWith(BatchGraph(), Batches({1, 2}));
  ASSERT_TRUE(m.ok());
  auto s = LoadSinkModel(*m);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "has gears"));
}

TEST(Gears, AGearThatLeavesAShapeUnknownIsRefused) {
  GearOptions hw;  // x [-1,4]: image-size gears need two -1 dims
  hw.kind = GearOptions::Kind::kImageSize;
  hw.values = {{2, 4}};
  auto m = CompileWith(BatchGraph(), hw);
  ASSERT_TRUE(Refused(m, StatusCode::kInvalidArgument, "needs exactly two -1 dims"));
}

}  // namespace
}  // namespace ge::test
