// LSTM, GRU and RNN through the tools: small ONNX models with initializer
// weights written by rnn_golden.py (python3-onnx, numpy goldens by the ONNX
// formulas), converted with ge-atc --framework 5 and run with ge-run in v2
// and sink modes against the goldens. The cases cover what the ONNX backend
// tests do not: both directions, reverse, layout 1 with two directions,
// peepholes, all three LSTM outputs and sequence_lens shorter than the
// sequence (given per run).
#include <gtest/gtest.h>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class RnnModelsTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    const int rc = RunScript("rnn_golden.py", {dir_.string()}, "golden.log");
    if (rc == 77) GTEST_SKIP() << ReadFileBytes(Path("golden.log"));
    ASSERT_EQ(rc, 0) << ReadFileBytes(Path("golden.log"));
  }

  // CASE.in<k>.npy / CASE.out<k>.npy, comma-separated, for k < count.
  std::string Files(const std::string& name, const char* kind, int count) const {
    std::string s;
    for (int k = 0; k < count; ++k) s += (k ? "," : "") + Path(name + "." + kind + std::to_string(k) + ".npy");
    return s;
  }

  void ConvertRunCompare(const std::string& name, int inputs, int outputs) {
    SCOPED_TRACE(name);
    ToolResult atc = Run("ge-atc", {"--model", Path(name + ".onnx"), "--framework", "5", "--output", Path(name)});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    for (const char* mode : {"v2", "sink"}) {
      SCOPED_TRACE(mode);
      ToolResult run = Run("ge-run", {"--model", Path(name + ".om"), "--mode", mode, "--input",
                                      Files(name, "in", inputs), "--compare", Files(name, "out", outputs)});
      EXPECT_EQ(run.exit_code, 0) << run.Describe();
      const auto lines = SplitLines(run.out);
      ASSERT_FALSE(lines.empty()) << run.Describe();
      EXPECT_EQ(lines.back(), "PASS") << run.Describe();
    }
  }
};

TEST_F(RnnModelsTest, LstmBothDirectionsPeepholesAllOutputs) { ConvertRunCompare("lstm_bidirectional", 3, 3); }
TEST_F(RnnModelsTest, LstmShorterSequences) { ConvertRunCompare("lstm_lens", 2, 3); }
TEST_F(RnnModelsTest, GruReverseBatchFirstLinearBeforeReset) { ConvertRunCompare("gru_reverse_batch_first", 2, 2); }
TEST_F(RnnModelsTest, GruShorterSequences) { ConvertRunCompare("gru_lens", 2, 2); }
TEST_F(RnnModelsTest, RnnReluBothDirectionsBatchFirst) { ConvertRunCompare("rnn_relu_batch_first", 2, 2); }

}  // namespace
}  // namespace ge::test
