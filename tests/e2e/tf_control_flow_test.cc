// TF control flow through the tools: a tf.while_loop counter whose trip
// count is an input (run with 2 and 5), a dynamic_rnn-style loop with
// TensorArray scatter/read/write/gather, a tf.cond with both branches taken,
// and TF 2's functional StatelessWhile/StatelessIf/PartitionedCall, each
// converted once with ge-atc --framework 3 and run with ge-run (v2: control
// flow runs in v2 only) against numpy goldens from tf_control_flow_golden.py.
// The graphs are those of tests/unit/tf_parser/tf_control_flow_graphs.h.
#include <gtest/gtest.h>

#include "tests/e2e/tf_golden_fixture.h"
#include "tests/unit/tf_parser/tf_control_flow_graphs.h"

namespace ge::test {
namespace {

struct Case {
  std::string name;                 // the inputs are <name>_<input>.npy
  std::vector<std::string> inputs;  // Placeholder order
};

class TfControlFlowE2e : public TfGoldenTest {
 protected:
  TfControlFlowE2e() : TfGoldenTest("tf_control_flow_golden.py") {}

  static std::string File(const std::string& name) {
    std::string f = name;
    std::replace(f.begin(), f.end(), '/', '_');
    std::replace(f.begin(), f.end(), ':', '_');
    return f;
  }

  // Converts `g` once, then runs every case against golden_<case>_<output>.npy.
  void ConvertRunCases(const TfGraph& g, const std::string& model, const std::vector<Case>& cases,
                       const std::vector<std::string>& outputs) {
    WriteFileBytes(Path(model + ".pb"), g.Bytes());
    const std::string py = "/usr/bin/python3 " + ShellQuote(golden_script_) + " " + model + " " +
                           ShellQuote(dir_.string()) + " >" + ShellQuote(Path("golden.log")) + " 2>&1";
    ASSERT_EQ(std::system(py.c_str()), 0) << ReadFileBytes(Path("golden.log"));
    std::string out_nodes;
    for (const auto& o : outputs) out_nodes += (out_nodes.empty() ? "" : ";") + o;
    ToolResult atc = Run("ge-atc", {"--model", Path(model + ".pb"), "--framework", "3", "--output", Path(model),
                                    "--out_nodes", out_nodes});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      std::string in_files, goldens;
      for (const auto& i : c.inputs) in_files += (in_files.empty() ? "" : ",") + Path(c.name + "_" + i + ".npy");
      for (const auto& o : outputs) goldens += (goldens.empty() ? "" : ",") + Path("golden_" + c.name + "_" + File(o) + ".npy");
      for (const char* mode : {"v2", "sink"}) {
        SCOPED_TRACE(mode);
        ToolResult run = Run("ge-run", {"--model", Path(model + ".om"), "--mode", mode, "--input", in_files, "--compare",
                                        goldens});
        EXPECT_EQ(run.exit_code, 0) << run.Describe();
        const auto lines = SplitLines(run.out);
        ASSERT_FALSE(lines.empty()) << run.Describe();
        EXPECT_EQ(lines.back(), "PASS") << run.Describe();
      }
    }
  }

  void SaveN(const std::string& c, int32_t n) { Save(c + "_n", DataType::kInt32, {}, std::vector<int32_t>{n}); }
};

TEST_F(TfControlFlowE2e, WhileLoopCounterRunsTheTripCountGiven) {
  for (int32_t n : {2, 5}) {
    const std::string c = "n" + std::to_string(n);
    SaveN(c, n);
    Save(c + "_x", DataType::kFloat32, {2}, std::vector<float>{0.5f, -1.25f});
  }
  ConvertRunCases(CounterLoop(), "counter", {{"n2", {"n", "x"}}, {"n5", {"n", "x"}}}, {"while/Exit", "while/Exit_1"});
}

TEST_F(TfControlFlowE2e, DynamicRnnWithTensorArraysMatchesNumpy) {
  const std::vector<float> w = Ramp(21, 0.05f, -0.5f, 5, 19), b = {0.1f, -0.1f, 0.05f};
  Save("rnn_W", DataType::kFloat32, {7, 3}, w);
  Save("rnn_b", DataType::kFloat32, {3}, b);
  Save("seq_x", DataType::kFloat32, {2, 4, 4}, Ramp(32, 0.1f, -1.0f, 7, 23));
  ConvertRunCases(DynamicRnn(w, b), "rnn", {{"seq", {"x"}}}, {"outputs", "state"});
}

TEST_F(TfControlFlowE2e, TfCondTakesBothBranches) {
  Save("pos_x", DataType::kFloat32, {3}, std::vector<float>{1.0f, -2.0f, 3.0f});
  Save("pos_z", DataType::kFloat32, {3}, std::vector<float>{5.0f, 5.0f, 5.0f});
  Save("neg_x", DataType::kFloat32, {3}, std::vector<float>{-1.0f, -2.0f, 0.5f});
  Save("neg_z", DataType::kFloat32, {3}, std::vector<float>{1.0f, 2.0f, 3.0f});
  ConvertRunCases(Cond(), "cond", {{"pos", {"x", "z"}}, {"neg", {"x", "z"}}}, {"cond/Merge"});
}

TEST_F(TfControlFlowE2e, FunctionalWhileAndIfMatchNumpy) {
  for (int32_t n : {2, 5}) {
    const std::string c = "n" + std::to_string(n);
    Save(c + "_x", DataType::kFloat32, {2}, std::vector<float>{1.0f, 2.0f});
    SaveN(c, n);
  }
  ConvertRunCases(Functional(), "functional", {{"n2", {"x", "n"}}, {"n5", {"x", "n"}}}, {"y", "s"});
}

}  // namespace
}  // namespace ge::test
