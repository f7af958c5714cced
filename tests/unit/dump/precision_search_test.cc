// ge-dump precision's search on a tiny MatMul chain: it keeps the fewest ops
// of its ranking in float32 that meet the target, measures the answer, and
// its --keep_dtype file gives that answer back through ge-atc's reader.
#include "ge/tools/precision_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ge/runtime.h"
#include "hal/device.h"
#include "tests/common/refusal.h"

namespace ge::tools::test {
namespace {

bool DeviceHasBf16() {
  auto d = hal::GetDevice("");
  return d.ok() && (*d)->capabilities().bf16;
}

std::vector<float> Pseudo(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) - 0.5f;
  }
  return v;
}

// x f32[8,32] -> (MatMul -> Relu) x3 -> MatMul -> out: four bf16-capable ops
// whose rounding reaches the output through different numbers of layers.
std::unique_ptr<Graph> MatMulChain() {
  auto g = std::make_unique<Graph>("matmul_chain");
  Node* x = g->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = TensorDesc(DataType::kFloat32, {8, 32});
  Node* prev = x;
  for (int i = 0; i < 4; ++i) {
    const int64_t out = i == 3 ? 8 : 32;
    Node* w = g->AddNode(op::kConst, "w" + std::to_string(i), 0, 1);
    w->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {32, out}, Pseudo(32 * out, 7 + i)));
    w->output_desc(0) = TensorDesc(DataType::kFloat32, {32, out});
    Node* mm = g->AddNode("MatMul", "mm" + std::to_string(i), 2, 1);
    EXPECT_TRUE(g->AddEdge(prev, 0, mm, 0).ok());
    EXPECT_TRUE(g->AddEdge(w, 0, mm, 1).ok());
    prev = mm;
    if (i < 3) {
      Node* relu = g->AddNode("Relu", "relu" + std::to_string(i), 1, 1);
      EXPECT_TRUE(g->AddEdge(prev, 0, relu, 0).ok());
      prev = relu;
    }
  }
  Node* out = g->AddNode(op::kNetOutput, "out", 1, 0);
  EXPECT_TRUE(g->AddEdge(prev, 0, out, 0).ok());
  return g;
}

class PrecisionSearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!DeviceHasBf16()) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX): nothing to search";
    source_ = MatMulChain();
    compile_ = [this](const CompileOptions& o) { return Compile(source_->Clone(), o); };
    NpyArray in;
    in.desc = TensorDesc(DataType::kFloat32, {8, 32});
    const std::vector<float> v = Pseudo(8 * 32, 1);
    in.bytes.resize(v.size() * sizeof(float));
    std::memcpy(in.bytes.data(), v.data(), in.bytes.size());
    data_.inputs.push_back(std::move(in));
    mixed_.precision.mode = CompileOptions::Precision::kMixBf16;
  }

  std::unique_ptr<Graph> source_;
  CompileFn compile_;
  BisectData data_;  // no golden: the float32 compile is the reference
  CompileOptions mixed_;
};

TEST_F(PrecisionSearchTest, AReachableTargetKeepsNothingAndMeasuresOnlyTheMixedModel) {
  std::vector<std::string> phases;
  auto r = SearchKeepDtype(compile_, mixed_, data_, 0.5, [&](const PrecisionSearchStep& s) { phases.push_back(s.phase); });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->met);
  EXPECT_EQ(r->kept, 0u);
  ASSERT_EQ(r->candidates.size(), 4u);  // the four MatMuls
  EXPECT_LT(r->all_bf16_cosine, 1.0);   // it did round
  EXPECT_GT(r->all_bf16_cosine, 0.99);
  EXPECT_EQ(phases, (std::vector<std::string>{"reference", "all bf16"}));
}

TEST_F(PrecisionSearchTest, KeepsARankedPrefixThatMeetsTheTargetAndTheFileGivesItBack) {
  auto first = SearchKeepDtype(compile_, mixed_, data_, 0.0);
  ASSERT_TRUE(first.ok()) << first.status().message();
  // Halfway from every op in bf16 to float32: some ops must be kept.
  const double target = 1 - (1 - first->all_bf16_cosine) / 2;
  size_t prunes = 0;
  auto r = SearchKeepDtype(compile_, mixed_, data_, target, [&](const PrecisionSearchStep& s) { prunes += s.phase == "prune"; });
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(r->met);
  EXPECT_GE(r->final_cosine, target);
  EXPECT_GT(r->kept, 0u);
  EXPECT_LE(r->kept, r->prefix);
  EXPECT_LE(r->prefix, r->candidates.size());
  EXPECT_EQ(prunes, r->prefix) << "each op of the prefix is tried back in bf16 once";
  // Ranked by lost cosine per FLOP; the kept ones are of the ranking's prefix.
  size_t kept = 0;
  for (size_t i = 0; i < r->candidates.size(); ++i) {
    const PrecisionCandidate& c = r->candidates[i];
    if (c.keep_fp32) {
      EXPECT_LT(i, r->prefix) << c.name;
    }
    kept += c.keep_fp32;
    EXPECT_LE(c.alone_cosine, 1.0);
    EXPECT_GT(c.flops, 0);
    if (i > 0) {
      const PrecisionCandidate& p = r->candidates[i - 1];
      EXPECT_GE((1 - p.alone_cosine) / p.flops, (1 - c.alone_cosine) / c.flops) << c.name;
    }
  }
  EXPECT_EQ(kept, r->kept);
  EXPECT_GT(r->kept_flop_share, 0.0);
  EXPECT_LE(r->kept_flop_share, 1.0);

  // The file, read back as ge-atc reads --keep_dtype, compiles to the same answer.
  const std::string path = ::testing::TempDir() + "/keep_dtype_search.txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  const std::string text = KeepDtypeFile(*r, mixed_.precision, "matmul_chain");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  CompileOptions again = mixed_;
  ASSERT_TRUE(ReadKeepDtype(path, &again.precision).ok());
  EXPECT_EQ(again.precision.keep_nodes.size(), r->kept);
  for (const PrecisionCandidate& c : r->candidates)
    EXPECT_EQ(again.precision.keep_nodes.count(c.name), c.keep_fp32 ? 1u : 0u) << c.name;
  auto check = SearchKeepDtype(compile_, again, data_, target);
  ASSERT_TRUE(check.ok());
  EXPECT_DOUBLE_EQ(check->all_bf16_cosine, r->final_cosine);
  EXPECT_TRUE(check->met);
  EXPECT_EQ(check->kept, 0u);

  const std::string json = PrecisionSearchJson(*r, "matmul_chain");
  EXPECT_NE(json.find("\"kept\": " + std::to_string(r->kept)), std::string::npos) << json;
}

TEST_F(PrecisionSearchTest, AFloat32ModeIsRefused) {
  auto r = SearchKeepDtype(compile_, CompileOptions{}, data_, 0.999);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "allow_mix_precision"));
}

TEST_F(PrecisionSearchTest, AGoldenOfAnotherShapeIsAnError) {
  NpyArray g;
  g.desc = TensorDesc(DataType::kFloat32, {8, 9});
  g.bytes.assign(8 * 9 * sizeof(float), 0);
  data_.goldens.push_back(std::move(g));
  auto r = SearchKeepDtype(compile_, mixed_, data_, 0.999);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "--golden"));
}

}  // namespace
}  // namespace ge::tools::test
