// attention_fusion end to end on bert_encoder (4 layers of
// nn.MultiheadAttention): ge-dump shows one FusedAttention per layer and no
// Softmax left (none with --disable_pass), and the .om ge-atc writes still
// passes --compare against the golden in sink and v2 modes. Skipped when
// GE_MODELS_DIR lacks the model.
#include <gtest/gtest.h>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class AttentionFusionE2e : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const std::string& p : {model_, input_, golden_})
      if (!fs::exists(p)) GTEST_SKIP() << p << " is absent (GE_MODELS_DIR=" << GE_MODELS_DIR << ")";
  }
  // The "op counts: ..." line ge-dump prints on stderr.
  std::string OpCounts(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--model", model_};
    args.insert(args.end(), extra.begin(), extra.end());
    ToolResult r = Run("ge-dump", args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    for (const std::string& l : SplitLines(r.err))
      if (l.rfind("op counts:", 0) == 0) return l + " ";
    ADD_FAILURE() << "no op counts line\n" << r.Describe();
    return "";
  }

  const std::string model_ = std::string(GE_MODELS_DIR) + "/bert_encoder.onnx";
  const std::string input_ = std::string(GE_MODELS_DIR) + "/bert_encoder.input.npy";
  const std::string golden_ = std::string(GE_MODELS_DIR) + "/bert_encoder.output.npy";
};

TEST_F(AttentionFusionE2e, DumpShowsOneFusedAttentionPerLayerUnlessDisabled) {
  const std::string on = OpCounts({});
  EXPECT_NE(on.find(" FusedAttention=4 "), std::string::npos) << on;
  EXPECT_EQ(on.find(" Softmax="), std::string::npos) << on;
  EXPECT_EQ(on.find(" MatMul="), std::string::npos) << on;
  const std::string off = OpCounts({"--disable_pass", "attention_fusion"});
  EXPECT_EQ(off.find("FusedAttention"), std::string::npos) << off;
  EXPECT_NE(off.find(" Softmax=4 "), std::string::npos) << off;
}

TEST_F(AttentionFusionE2e, FusedModelMatchesTheGoldenInSinkAndV2) {
  ToolResult atc = Run("ge-atc", {"--model", model_, "--framework", "5", "--output", Path("bert")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  for (const char* mode : {"sink", "v2"}) {
    ToolResult r = Run("ge-run", {"--model", Path("bert.om"), "--mode", mode, "--input", input_, "--compare", golden_});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const auto lines = SplitLines(r.out);
    ASSERT_FALSE(lines.empty()) << r.Describe();
    EXPECT_EQ(lines.back(), "PASS") << mode << "\n" << r.Describe();
  }
}

}  // namespace
}  // namespace ge::test
