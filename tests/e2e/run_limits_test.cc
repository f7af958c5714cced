// ge-run's limits on a v2 run (docs/hardening.md): ONNX models that never end
// on their own (runaway_models.py) stop at --timeout_ms, --max_loop_iterations
// or --max_memory with one error line naming the node and the limit, in
// bounded time, and run to the end when their input lets them.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class V2LimitsTools : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    const int rc = RunScript("runaway_models.py", {dir_.string()}, "models.log");
    if (rc == 77) GTEST_SKIP() << ReadFileBytes(Path("models.log"));
    ASSERT_EQ(rc, 0) << ReadFileBytes(Path("models.log"));
  }

  // NAME.onnx to NAME.om with the v2 converters for its control flow.
  void Convert(const std::string& name) {
    ToolResult r = Run("ge-atc", {"--model", Path(name + ".onnx"), "--framework", "5", "--output", Path(name),
                                  "--control_flow", "v2"});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }

  // ge-run on NAME.om with `inputs` (files in the work dir) and `flags`,
  // and how long it took.
  ToolResult RunModel(const std::string& name, const std::vector<std::string>& inputs,
                      std::vector<std::string> flags, double* seconds = nullptr) {
    std::string list;
    for (const std::string& i : inputs) list += (list.empty() ? "" : ",") + Path(i);
    flags.insert(flags.begin(), {"--model", Path(name + ".om"), "--input", list});
    const auto t0 = std::chrono::steady_clock::now();
    ToolResult r = Run("ge-run", flags, 120);
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
};

TEST_F(V2LimitsTools, TimeoutStopsAWhileTrueLoopInBothExecutors) {
  Convert("while_true");
  for (const char* executor : {"sequential", "topological"}) {
    SCOPED_TRACE(executor);
    double seconds = 0;
    ToolResult r = RunModel("while_true", {"cond.true.npy", "v4.npy"},
                            {"--timeout_ms", "200", "--executor", executor}, &seconds);
    ExpectOneErrorLine(r, "ge-run", {"node loop1 (Loop)", "timeout after 200 ms"});
    EXPECT_LT(seconds, 30.0);
    ToolResult ok = RunModel("while_true", {"cond.false.npy", "v4.npy"}, {"--timeout_ms", "200", "--executor", executor});
    EXPECT_EQ(ok.exit_code, 0) << ok.Describe();
  }
}

TEST_F(V2LimitsTools, MaxLoopIterationsStopsAnEndlessLoop) {
  Convert("while_true");
  ToolResult r = RunModel("while_true", {"cond.true.npy", "v4.npy"}, {"--max_loop_iterations", "1000"});
  ExpectOneErrorLine(r, "ge-run", {"node loop1 (Loop)", "iteration 1000 passes the limit of 1000 iterations",
                                   "--max_loop_iterations"});
  ToolResult sink = RunModel("while_true", {"cond.true.npy", "v4.npy"}, {"--mode", "sink", "--max_loop_iterations", "9"});
  ExpectOneErrorLine(sink, "ge-run", {"--max_loop_iterations needs --mode v2"});
}

TEST_F(V2LimitsTools, MaxMemoryStopsALoopThatConcatenatesAGrowingTensor) {
  Convert("grow_loop");
  double seconds = 0;
  ToolResult r = RunModel("grow_loop", {"cond.true.npy", "v1k.npy"}, {"--max_memory", "64M"}, &seconds);
  ExpectOneErrorLine(r, "ge-run", {"node loop1 (Loop): iteration 13: node v_out (Concat) output 0",
                                   "passes the memory limit of 64.0 MiB (--max_memory)"});
  EXPECT_LT(seconds, 30.0);
}

TEST_F(V2LimitsTools, AScanOfABillionSlicesStopsAtTheIterationLimitOrTheTimeout) {
  Convert("huge_scan");
  ToolResult counted = RunModel("huge_scan", {"acc1.npy", "xs_1e9.npy"}, {"--max_loop_iterations", "1000"});
  ExpectOneErrorLine(counted, "ge-run", {"node scan1 (Scan)", "1000000000 iterations pass the limit of 1000"});
  double seconds = 0;
  ToolResult timed = RunModel("huge_scan", {"acc1.npy", "xs_1e9.npy"}, {"--timeout_ms", "200"}, &seconds);
  ExpectOneErrorLine(timed, "ge-run", {"node scan1 (Scan)", "timeout after 200 ms"});
  EXPECT_LT(seconds, 30.0);
  ToolResult ok = RunModel("huge_scan", {"acc1.npy", "xs_4.npy"}, {"--timeout_ms", "200"});
  EXPECT_EQ(ok.exit_code, 0) << ok.Describe();
}

}  // namespace
}  // namespace ge::test
