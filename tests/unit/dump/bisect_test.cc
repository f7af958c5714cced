// bisect on a tiny graph: a deliberately broken pass registered through
// CompileOptions::extra_passes is named; a harmless one is not.
#include "ge/tools/bisect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ge/runtime.h"
#include "tests/common/refusal.h"
#include "tests/unit/dump/dump_test_graphs.h"

namespace ge::tools::test {
namespace {

NpyArray Array(const TensorDesc& desc, const std::vector<float>& v) {
  NpyArray a;
  a.desc = desc;
  a.bytes.resize(v.size() * sizeof(float));
  std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
  return a;
}

class BisectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = SubReluGraph();
    compile_ = [this](const CompileOptions& o) { return Compile(source_->Clone(), o); };
    // x - c with c = 1..6 and x = 10..15: relu(9) everywhere, but c - x < 0 (relu: 0).
    data_.inputs.push_back(Array(TensorDesc(DataType::kFloat32, {2, 3}), {10, 11, 12, 13, 14, 15}));
    data_.goldens.push_back(Array(TensorDesc(DataType::kFloat32, {2, 3}), {9, 9, 9, 9, 9, 9}));
  }

  ExtraPass Broken(const std::string& kind, const std::string& after) {
    auto p = MakeBrokenPass(kind, after);
    EXPECT_TRUE(p.ok()) << p.status().message();
    return std::move(p).value();
  }
  // A switchable pass that changes nothing.
  static ExtraPass Harmless(const std::string& name, const std::string& after) {
    return ExtraPass{after, name, [](Graph&) { return Status::Ok(); }};
  }

  std::unique_ptr<Graph> source_;
  CompileFn compile_;
  BisectData data_;
};

TEST_F(BisectTest, TheGoldenMatchesTheUnbrokenModel) {
  auto step = CompileRunCompare(compile_, CompileOptions{}, data_);
  ASSERT_TRUE(step.ok()) << step.status().message();
  EXPECT_TRUE(step->match) << step->detail;
}

TEST_F(BisectTest, NamesTheBrokenPassAmongHarmlessOnes) {
  const std::vector<std::string> pipeline = PassNames();
  ASSERT_FALSE(pipeline.empty());
  CompileOptions o;
  // Harmless passes before and after the broken one, so the search has to
  // tell them apart (the real pipeline's switchable passes join in).
  o.extra_passes.push_back(Harmless("harmless_a", pipeline.front()));
  o.extra_passes.push_back(Harmless("harmless_b", "harmless_a"));
  o.extra_passes.push_back(Broken("swap_sub", "harmless_b"));
  o.extra_passes.push_back(Harmless("harmless_c", "broken_swap_sub"));
  o.extra_passes.push_back(Harmless("harmless_d", pipeline.back()));
  std::vector<BisectStep> seen;
  auto r = Bisect(compile_, o, data_, [&](const BisectStep& s) { seen.push_back(s); });
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kFound);
  EXPECT_EQ(r->culprit, "broken_swap_sub");
  EXPECT_EQ(seen.size(), r->steps.size()) << "progress is reported for every step";
  // Binary search: about log2(n) + 2 steps, not n.
  EXPECT_LE(r->steps.size(), 3u + static_cast<size_t>(std::ceil(std::log2(r->candidates.size() + 1))));
  EXPECT_FALSE(r->steps.front().match);  // everything on first
  auto pos = [&](const std::string& n) { return std::find(r->candidates.begin(), r->candidates.end(), n) - r->candidates.begin(); };
  EXPECT_LT(pos("harmless_a"), pos("harmless_b"));
  EXPECT_LT(pos("harmless_b"), pos("broken_swap_sub"));
  EXPECT_LT(pos("broken_swap_sub"), pos("harmless_c"));
  EXPECT_EQ(r->candidates.back(), "harmless_d");
}

TEST_F(BisectTest, NegatedConstantIsFoundToo) {
  CompileOptions o;
  o.extra_passes.push_back(Broken("negate_const", PassNames().back()));
  auto r = Bisect(compile_, o, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kFound);
  EXPECT_EQ(r->culprit, "broken_negate_const");
}

TEST_F(BisectTest, EverythingMatchesInOneStep) {
  CompileOptions o;
  o.extra_passes.push_back(Harmless("harmless_a", ""));
  auto r = Bisect(compile_, o, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kAllMatch);
  EXPECT_EQ(r->steps.size(), 1u);
  EXPECT_TRUE(r->culprit.empty());
}

TEST_F(BisectTest, AWrongGoldenFailsEvenWithEveryPassOff) {
  data_.goldens[0] = Array(TensorDesc(DataType::kFloat32, {2, 3}), {1, 1, 1, 1, 1, 1});
  CompileOptions o;
  o.extra_passes.push_back(Harmless("harmless_a", ""));
  auto r = Bisect(compile_, o, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kBaselineFails);
  EXPECT_TRUE(r->culprit.empty());
}

TEST_F(BisectTest, UserDisabledPassesStayOffAndAreNoCandidates) {
  CompileOptions o;
  o.extra_passes.push_back(Broken("swap_sub", ""));
  o.disabled_passes.push_back("broken_swap_sub");
  auto r = Bisect(compile_, o, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kAllMatch);
  EXPECT_EQ(std::count(r->candidates.begin(), r->candidates.end(), "broken_swap_sub"), 0);
}

TEST_F(BisectTest, InputsThatDoNotFitTheModelAreAnError) {
  data_.inputs[0] = Array(TensorDesc(DataType::kFloat32, {6}), {10, 11, 12, 13, 14, 15});
  auto r = Bisect(compile_, CompileOptions{}, data_);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "--input"));
  data_.inputs[0] = Array(TensorDesc(DataType::kFloat32, {2, 3}), {10, 11, 12, 13, 14, 15});
  data_.goldens.push_back(data_.goldens[0]);
  r = Bisect(compile_, CompileOptions{}, data_);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "--golden"));
}

TEST_F(BisectTest, AnExtraPassAfterAnUnknownPassIsAnError) {
  CompileOptions o;
  o.extra_passes.push_back(Harmless("h", "no_such_pass"));
  EXPECT_TRUE(
      Refused(SwitchablePasses(o), StatusCode::kInvalidArgument, "no pass named 'no_such_pass' to insert 'h' after"));
  EXPECT_TRUE(Refused(MakeBrokenPass("melt", ""), StatusCode::kInvalidArgument,
                      "unknown broken pass kind 'melt' (negate_const, swap_sub)"));
}

// Every pass off still mismatches, but the model matches with buffer reuse
// off: the memory plan is to blame.
TEST_F(BisectTest, AFaultOnlyBufferReuseShowsIsBlamedOnMemoryPlanning) {
  const CompileFn reuse_breaks = [this](const CompileOptions& o) -> Result<Model> {
    if (o.buffer_reuse) return Internal("test: this memory plan is broken");
    return Compile(source_->Clone(), o);
  };
  auto r = Bisect(reuse_breaks, CompileOptions{}, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kFound);
  EXPECT_EQ(r->culprit, "memory_planning");
  ASSERT_FALSE(r->steps.empty());
  EXPECT_EQ(r->steps.back().variant, "buffer reuse off");
  EXPECT_TRUE(r->steps.back().match);
}

TEST_F(BisectTest, AFaultOnlyOneStreamRepairsIsBlamedOnStreamAssignment) {
  const CompileFn streams_break = [this](const CompileOptions& o) -> Result<Model> {
    if (o.stream_num > 1) return Internal("test: these streams are broken");
    return Compile(source_->Clone(), o);
  };
  CompileOptions base;
  base.stream_num = 2;
  auto r = Bisect(streams_break, base, data_);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outcome, BisectResult::Outcome::kFound);
  EXPECT_EQ(r->culprit, "stream_assignment");
  // A fault no planning choice repairs is still the baseline's.
  const CompileFn always_breaks = [](const CompileOptions&) -> Result<Model> { return Internal("test: broken"); };
  auto none = Bisect(always_breaks, base, data_);
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_EQ(none->outcome, BisectResult::Outcome::kBaselineFails);
}

}  // namespace
}  // namespace ge::tools::test
