// The memory planner on the reference models: the feature-map peak is within
// 5% of the lower bound, and the outputs still match the golden with buffer
// reuse on and off (reuse makes aliasing real: a planning bug shows here).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/common/json_int.h"
#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

class MemoryPlanTest : public ReferenceModelParamFixture {};

// proto3 JSON writes int64 as a string and leaves zeros out.
TEST_P(MemoryPlanTest, PeakNearTheLowerBoundAndOutputsMatchWithReuseOnAndOff) {
  const std::string& name = name_;
  int64_t peak[2] = {0, 0}, bound[2] = {0, 0}, no_reuse[2] = {0, 0};
  for (int reuse = 1; reuse >= 0; --reuse) {
    const std::string out = Path(name + (reuse ? "_on" : "_off"));
    ToolResult atc = Run(
        "ge-atc", {"--model", model_, "--framework", "5", "--output", out, "--buffer_optimize", reuse ? "on" : "off"});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    EXPECT_NE(atc.out.find("memory: feature map "), std::string::npos) << atc.Describe();
    ToolResult js = Run("ge-atc", {"--mode", "1", "--om", out + ".om", "--json", out + ".json"});
    ASSERT_EQ(js.exit_code, 0) << js.Describe();
    std::ifstream f(out + ".json");
    const nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
    ASSERT_FALSE(j.is_discarded());
    const nlohmann::json& mem = j["model"]["memory"];
    ASSERT_TRUE(mem.is_object()) << "no memory plan in " << out << ".json";
    EXPECT_EQ(mem.value("reuse", false), reuse == 1);
    peak[reuse] = JsonInt(mem, "feature_map_size");
    // Both per plan: reuse off also turns in-place sharing off, which
    // changes the symbols and so the bound.
    bound[reuse] = JsonInt(mem, "lower_bound");
    no_reuse[reuse] = JsonInt(mem, "no_reuse_size");
    EXPECT_FALSE(j["model"]["streams"].empty());

    ToolResult run = Run("ge-run", {"--model", out + ".om", "--input", input_, "--compare", golden_});
    EXPECT_EQ(run.exit_code, 0) << "reuse " << (reuse ? "on" : "off") << "\n" << run.Describe();
    const auto lines = SplitLines(run.out);
    ASSERT_FALSE(lines.empty()) << run.Describe();
    EXPECT_EQ(lines.back(), "PASS") << run.Describe();
  }
  ASSERT_GT(bound[1], 0);
  EXPECT_LE(static_cast<double>(peak[1]), 1.05 * static_cast<double>(bound[1]))
      << name << ": peak " << peak[1] << " bound " << bound[1];
  EXPECT_GE(peak[1], bound[1]);  // nothing can beat the bound
  EXPECT_EQ(peak[0], no_reuse[0]) << "reuse off is every buffer in its own range";
  std::printf("%s: peak %lld, lower bound %lld, no reuse %lld, ratio %.4f\n", name.c_str(), static_cast<long long>(peak[1]),
              static_cast<long long>(bound[1]), static_cast<long long>(no_reuse[1]),
              static_cast<double>(peak[1]) / static_cast<double>(bound[1]));
  RecordProperty("peak", std::to_string(peak[1]));
  RecordProperty("lower_bound", std::to_string(bound[1]));
  RecordProperty("no_reuse", std::to_string(no_reuse[1]));
}

INSTANTIATE_TEST_SUITE_P(Models, MemoryPlanTest, ::testing::Values("resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace ge::test
