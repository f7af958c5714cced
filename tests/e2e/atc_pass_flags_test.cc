// ge-atc --disable_pass / --fusion_switch_file / --buffer_optimize from the
// command line: bad values are one error line and no .om; good ones convert
// and the result still matches the golden output.
#include <string>

#include "tests/common/tool_runner.h"
#include "ge/compiler.h"

namespace ge::test {
namespace {

class AtcPassFlags : public TempDirTest {
 protected:
  ToolResult Convert(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path("m")};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  void ExpectFailsCleanly(const ToolResult& r, const std::vector<std::string>& fragments) {
    ExpectOneErrorLine(r, "ge-atc", fragments);
    EXPECT_FALSE(fs::exists(Path("m.om"))) << r.Describe();
  }
};

TEST_F(AtcPassFlags, UnknownPassNameIsOneErrorLine) {
  ExpectFailsCleanly(Convert({"--disable_pass", "no_such_pass"}), {"--disable_pass", "no_such_pass"});
}

TEST_F(AtcPassFlags, RequiredPassCannotBeSwitchedOff) {
  ExpectFailsCleanly(Convert({"--disable_pass", "infer_shapes"}), {"--disable_pass", "infer_shapes", "required"});
}

TEST_F(AtcPassFlags, MissingFusionSwitchFileIsOneErrorLine) {
  ExpectFailsCleanly(Convert({"--fusion_switch_file", Path("absent.json")}), {"--fusion_switch_file", "absent.json"});
}

TEST_F(AtcPassFlags, BadBufferOptimizeValueIsOneErrorLine) {
  ExpectFailsCleanly(Convert({"--buffer_optimize", "maybe"}), {"--buffer_optimize"});
}

TEST_F(AtcPassFlags, EverySwitchablePassOffAtOnceStillMatchesTheGolden) {
  std::string off;
  for (const PassInfo& p : ListPasses())
    if (!p.required) off += (off.empty() ? "" : ",") + p.name;
  std::vector<std::string> extra = {"--buffer_optimize", "off"};
  if (!off.empty()) extra.insert(extra.end(), {"--disable_pass", off});
  ToolResult c = Convert(extra);
  ASSERT_EQ(c.exit_code, 0) << c.Describe();
  ToolResult r = Run("ge-run", {"--model", Path("m.om"), "--input", kTinyInput, "--compare", kTinyGolden});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
}

}  // namespace
}  // namespace ge::test
