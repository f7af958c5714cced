// A test fixture for one reference model of GE_MODELS_DIR (NAME.onnx with
// NAME.input.npy and NAME.output.npy), checked through the tools: the op
// counts ge-dump prints, and the golden comparison of the .om ge-atc writes
// in sink and v2 modes. Skipped when the model's files are absent. The
// fusion passes' end-to-end tests use it.
#pragma once

#include <gtest/gtest.h>

#include "tests/common/tool_runner.h"

namespace ge::test {

class ReferenceModelTest : public TempDirTest {
 protected:
  explicit ReferenceModelTest(const std::string& name)
      : model_(std::string(GE_MODELS_DIR) + "/" + name + ".onnx"),
        input_(std::string(GE_MODELS_DIR) + "/" + name + ".input.npy"),
        golden_(std::string(GE_MODELS_DIR) + "/" + name + ".output.npy") {}

  void SetUp() override {
    TempDirTest::SetUp();
    for (const std::string& p : {model_, input_, golden_})
      if (!fs::exists(p)) GTEST_SKIP() << p << " is absent (GE_MODELS_DIR=" << GE_MODELS_DIR << ")";
  }

  // The "op counts: ..." line ge-dump prints on stderr for the model, with
  // `extra` flags, ending in a space (so " Conv=26 " matches whole counts).
  std::string DumpOpCounts(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--model", model_};
    args.insert(args.end(), extra.begin(), extra.end());
    ToolResult r = Run("ge-dump", args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    for (const std::string& l : SplitLines(r.err))
      if (l.rfind("op counts:", 0) == 0) return l + " ";
    ADD_FAILURE() << "no op counts line\n" << r.Describe();
    return "";
  }

  // ge-atc compiles the model (all passes on) to OM.om in the work dir;
  // ge-run --compare against the golden passes in sink and v2 modes.
  void ExpectGoldenInSinkAndV2(const std::string& om) {
    ToolResult atc = Run("ge-atc", {"--model", model_, "--framework", "5", "--output", Path(om)});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    for (const char* mode : {"sink", "v2"}) {
      ToolResult r =
          Run("ge-run", {"--model", Path(om + ".om"), "--mode", mode, "--input", input_, "--compare", golden_});
      ASSERT_EQ(r.exit_code, 0) << r.Describe();
      const auto lines = SplitLines(r.out);
      ASSERT_FALSE(lines.empty()) << r.Describe();
      EXPECT_EQ(lines.back(), "PASS") << mode << "\n" << r.Describe();
    }
  }

  const std::string model_;
  const std::string input_;
  const std::string golden_;
};

}  // namespace ge::test
