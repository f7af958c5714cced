// Test fixtures for one reference model of GE_MODELS_DIR (NAME.onnx or
// NAME.pb, with NAME.input.npy and NAME.output.npy), checked through the
// tools: the op counts ge-dump prints, and the golden comparison of the .om
// ge-atc writes in sink and v2 modes. A test skips, naming the file, when
// one of the model's files is absent. ReferenceModelFixture takes the name
// from its subclass; ReferenceModelParamFixture from the test's parameter.
#pragma once

#include <gtest/gtest.h>

#include "tests/common/tool_runner.h"

namespace ge::test {

// GE_MODELS_DIR/file.
inline std::string ModelsPath(const std::string& file) { return std::string(GE_MODELS_DIR) + "/" + file; }

// Skips the test, naming the file and GE_MODELS_DIR, when `path` is absent.
#define GE_SKIP_IF_ABSENT(path) \
  if (!fs::exists(path)) GTEST_SKIP() << (path) << " is absent (GE_MODELS_DIR=" << GE_MODELS_DIR << ")"

class ReferenceModelFixture : public TempDirTest {
 protected:
  // `ext`: the source model's, ".onnx" or ".pb".
  explicit ReferenceModelFixture(const std::string& name, const std::string& ext = ".onnx")
      : name_(name),
        model_(ModelsPath(name + ext)),
        input_(ModelsPath(name + ".input.npy")),
        golden_(ModelsPath(name + ".output.npy")) {}

  void SetUp() override {
    TempDirTest::SetUp();
    for (const std::string& p : {model_, input_, golden_}) GE_SKIP_IF_ABSENT(p);
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

  const std::string name_;
  const std::string model_;
  const std::string input_;
  const std::string golden_;
};

// The model named by the test's parameter (WithParamInterface comes first,
// so its parameter is there when the fixture is made).
class ReferenceModelParamFixture : public ::testing::WithParamInterface<std::string>, public ReferenceModelFixture {
 protected:
  explicit ReferenceModelParamFixture(const std::string& ext = ".onnx") : ReferenceModelFixture(GetParam(), ext) {}
};

}  // namespace ge::test
