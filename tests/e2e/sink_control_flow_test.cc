// Static control flow through the tools: ONNX loops and branches written by
// loop_models.py (python3-onnx, numpy goldens) convert with plain ge-atc
// into a static plan, run in sink and v2 mode against the goldens, equal
// the v2 converters' build (--control_flow v2), and ge-atc --mode 1 shows
// the linked task list with its labels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class SinkControlFlowTools : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    const int rc = RunScript("loop_models.py", {dir_.string(), "16"}, "golden.log");
    if (rc == 77) GTEST_SKIP() << ReadFileBytes(Path("golden.log"));
    ASSERT_EQ(rc, 0) << ReadFileBytes(Path("golden.log"));
  }

  ToolResult Convert(const std::string& name, const std::string& control_flow) {
    return Run("ge-atc", {"--model", Path(name + ".onnx"), "--framework", "5", "--output", Path(name + "." + control_flow),
                          "--control_flow", control_flow});
  }

  std::string Inputs(const std::string& c, int count) const {
    std::string s;
    for (int k = 0; k < count; ++k) s += (k ? "," : "") + Path(c + ".in" + std::to_string(k) + ".npy");
    return s;
  }

  // Every case passes its golden in both modes of the linked build and in
  // v2 with the converters.
  void Check(const std::string& name, const std::vector<std::string>& cases, int inputs) {
    SCOPED_TRACE(name);
    ToolResult sink = Convert(name, "sink");
    ASSERT_EQ(sink.exit_code, 0) << sink.Describe();
    EXPECT_NE(sink.out.find("control flow:"), std::string::npos) << sink.out;
    EXPECT_NE(sink.out.find("labels at load"), std::string::npos) << sink.out;
    ToolResult v2 = Convert(name, "v2");
    ASSERT_EQ(v2.exit_code, 0) << v2.Describe();
    EXPECT_EQ(v2.out.find("control flow:"), std::string::npos) << v2.out;
    for (const std::string& c : cases)
      for (auto [build, mode] : {std::pair{"sink", "sink"}, {"sink", "v2"}, {"v2", "v2"}}) {
        SCOPED_TRACE(c + " " + build + " build, " + mode + " mode");
        ToolResult r = Run("ge-run", {"--model", Path(name + "." + build + ".om"), "--mode", mode, "--input",
                                      Inputs(name + "." + c, inputs), "--compare", Path(name + "." + c + ".out0.npy")});
        EXPECT_EQ(r.exit_code, 0) << r.Describe();
        const auto lines = SplitLines(r.out);
        ASSERT_FALSE(lines.empty()) << r.Describe();
        EXPECT_EQ(lines.back(), "PASS") << r.Describe();
      }
  }
};

TEST_F(SinkControlFlowTools, AnMlpLoopMatchesNumpyForZeroOneAndSixteenIterations) {
  Check("mlp_loop", {"m0", "m1", "m16"}, 2);
}

TEST_F(SinkControlFlowTools, AWhileLoopThenABranchOnItsResultLinkBoth) { Check("while_if", {"small", "big"}, 1); }

TEST_F(SinkControlFlowTools, ModeOneShowsTheLinkedLabelTasks) {
  ASSERT_EQ(Convert("add_loop", "sink").exit_code, 0);
  ToolResult r = Run("ge-atc", {"--mode", "1", "--om", Path("add_loop.sink.om"), "--json", Path("add_loop.json")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const auto j = nlohmann::json::parse(ReadFileBytes(Path("add_loop.json")));
  ASSERT_TRUE(j.contains("linked_tasks")) << j.dump().substr(0, 400);
  const auto& lt = j["linked_tasks"];
  EXPECT_EQ(lt["labels"], 3);
  std::string kinds;
  for (const auto& t : lt["tasks"]) kinds += t["kind"].get<std::string>() == "kernel" ? t["op"].get<std::string>() + " "
                                                                                       : t["kind"].get<std::string>() + " ";
  EXPECT_NE(kinds.find("LoopInit label_set LoopCondIndex label_switch label_set Add"), std::string::npos) << kinds;
  EXPECT_NE(kinds.find("LoopIncrement label_goto label_set"), std::string::npos) << kinds;
  // The stored model keeps the Loop as one task and its body's own plan.
  ASSERT_TRUE(j["model"].contains("partitions"));
  EXPECT_EQ(j["model"]["partitions"][0]["subgraph"], "body");
}

TEST_F(SinkControlFlowTools, ALongLoopRunsWholeInOneSinkInference) {
  ASSERT_EQ(Convert("add_loop", "sink").exit_code, 0);
  ToolResult r = Run("ge-run", {"--model", Path("add_loop.sink.om"), "--mode", "sink", "--input", Inputs("add_loop.m256", 2),
                                "--compare", Path("add_loop.m256.out0.npy"), "--profile", Path("trace.json")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(SplitLines(r.out).back(), "PASS") << r.Describe();
  // The trace names the label tasks the HAL model ran.
  const std::string trace = ReadFileBytes(Path("trace.json"));
  EXPECT_NE(trace.find("label switch"), std::string::npos) << trace.substr(0, 400);
  EXPECT_NE(trace.find("/body/"), std::string::npos) << trace.substr(0, 400);
}

// Malformed control flow (malformed_control_flow.py): refused with one error
// line naming the model, never a crash and no .om left behind, whichever
// way control flow is compiled.
TEST_F(SinkControlFlowTools, MalformedSubgraphsAreOneLineErrors) {
  ASSERT_EQ(RunScript("malformed_control_flow.py", {Path("bad")}, "bad.log"), 0) << ReadFileBytes(Path("bad.log"));
  for (const char* name : {"loop_missing_output", "loop_wrong_arity", "if_output_count", "if_output_dtype",
                           "loop_body_unknown_op", "if_no_else"})
    for (const char* cf : {"sink", "v2"}) {
      SCOPED_TRACE(std::string(name) + " " + cf);
      const std::string model = Path("bad/" + std::string(name) + ".onnx");
      ToolResult r = Run("ge-atc", {"--model", model, "--framework", "5", "--output", Path("bad/out"), "--control_flow", cf});
      EXPECT_EQ(r.exit_code, 1) << r.Describe();
      const auto lines = SplitLines(r.err);
      ASSERT_FALSE(lines.empty()) << r.Describe();
      EXPECT_EQ(lines.back().rfind("ge-atc: error: " + model + ": ", 0), 0u) << r.Describe();
      EXPECT_FALSE(fs::exists(Path("bad/out.om")));
    }
}

}  // namespace
}  // namespace ge::test
