// ge-run --profile and --profile_table in both modes (sink and v2): the
// per-op table with each op's achieved GFLOP/s, the Chrome trace, and what
// every report carries: load time, peak RSS, the model's FLOPs, GFLOP/s and
// the latency samples.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class RunProfile : public TempDirTest, public ::testing::WithParamInterface<std::string> {
 protected:
  std::string TinyOm() {
    ToolResult atc = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
    EXPECT_EQ(atc.exit_code, 0) << atc.Describe();
    return Path("tiny.om");
  }
};

TEST_P(RunProfile, TableSplitsTheKernelTimeAndGivesGflops) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--mode", GetParam(), "--loop", "10", "--profile_table", "--json",
                                "--input", kTinyInput, "--compare", kTinyGolden});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["compare"], "PASS") << "profiling changes no result";
  const auto& t = j["profile_table"];
  EXPECT_EQ(t["runs"], 10);
  EXPECT_GT(t["kernel_ms"].get<double>(), 0);
  double share = 0;
  for (const auto& task : t["tasks"]) share += task["share"].get<double>();
  EXPECT_NEAR(share, 1.0, 1e-9);
  bool conv = false;
  for (const auto& op : t["ops"])
    if (op["op"] == "Conv") {
      conv = true;
      EXPECT_GT(op["flops"].get<int64_t>(), 0) << op.dump();
      EXPECT_GT(op["gflops_per_s"].get<double>(), 0) << op.dump();
    }
  EXPECT_TRUE(conv) << t.dump();
  // The table's FLOPs are the model's (every tiny_cnn node has static shapes).
  EXPECT_EQ(t["flops"], j["flops"]) << t.dump();

  ToolResult text = Run("ge-run", {"--model", om, "--mode", GetParam(), "--loop", "3", "--profile_table"});
  ASSERT_EQ(text.exit_code, 0) << text.Describe();
  EXPECT_NE(text.out.find("profile: kernel time per inference, mean of 3 run(s)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GFLOP/s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("op type"), std::string::npos) << text.out;
}

TEST_P(RunProfile, ChromeTraceHasOneSlicePerKernelPerRun) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--mode", GetParam(), "--loop", "4", "--profile", Path("trace.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["profile"], Path("trace.json"));
  auto trace = nlohmann::json::parse(ReadFileBytes(Path("trace.json")), nullptr, false);
  ASSERT_FALSE(trace.is_discarded());
  int slices = 0;
  for (const auto& e : trace["traceEvents"]) slices += e["ph"] == "X";
  EXPECT_GT(slices, 0);
  EXPECT_EQ(slices % 4, 0) << "every profiled run has the same kernels";
}

// Without profiling every report still says what the run cost.
TEST_P(RunProfile, ReportGivesLoadTimePeakRssFlopsAndSamples) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--mode", GetParam(), "--loop", "5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_GT(j["load_ms"].get<double>(), 0);
  EXPECT_GT(j["peak_rss_mb"].get<double>(), 1.0);
  EXPECT_GT(j["flops"].get<int64_t>(), 0);
  EXPECT_GT(j["gflops_per_s"].get<double>(), 0);
  EXPECT_EQ(j["latency_ms"]["samples"].size(), 5u);
  EXPECT_FALSE(j.contains("profile_table")) << "no table unless asked";
  ToolResult text = Run("ge-run", {"--model", om, "--mode", GetParam()});
  ASSERT_EQ(text.exit_code, 0) << text.Describe();
  EXPECT_NE(text.out.find("loaded in"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("peak RSS"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GFLOP per inference"), std::string::npos) << text.out;
}

INSTANTIATE_TEST_SUITE_P(Modes, RunProfile, ::testing::Values("sink", "v2"));

}  // namespace
}  // namespace ge::test
