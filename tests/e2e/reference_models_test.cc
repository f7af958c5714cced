// The reference models of /work/shared/models (README.md there): each one
// converted with ge-atc and run with ge-run against the output the source
// framework computed. The criterion is ge-run's own --compare (max|y-ref| <=
// 1e-3*max|ref| + 1e-5 and cosine >= 0.99999), the one ONNX Runtime meets.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

class ReferenceModelTest : public ReferenceModelParamFixture {};

TEST_P(ReferenceModelTest, ConvertsRunsAndMatchesTheGolden) {
  const std::string& name = name_;
  ASSERT_TRUE(fs::exists(ToolPath("ge-atc")) && fs::exists(ToolPath("ge-run"))) << "tools not built";

  const auto t0 = std::chrono::steady_clock::now();
  ToolResult atc = Run("ge-atc", {"--model", model_, "--framework", "5", "--output", Path(name)});
  const double convert_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(atc.exit_code, 0) << "ge-atc failed on " << name << "\n" << atc.Describe();
  ASSERT_TRUE(fs::exists(Path(name + ".om"))) << atc.Describe();

  ToolResult run = Run("ge-run", {"--model", Path(name + ".om"), "--input", input_, "--compare", golden_});
  EXPECT_EQ(run.exit_code, 0) << "ge-run on " << name << "\n" << run.Describe();
  const auto lines = SplitLines(run.out);
  EXPECT_FALSE(lines.empty()) << run.Describe();
  if (!lines.empty()) {
    EXPECT_EQ(lines.back(), "PASS") << run.Describe();
  }
  EXPECT_EQ(run.out.find("FAIL"), std::string::npos) << run.Describe();
  RecordProperty("convert_seconds", std::to_string(convert_s));
}

INSTANTIATE_TEST_SUITE_P(Models, ReferenceModelTest,
                         ::testing::Values("small_cnn", "resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace ge::test
