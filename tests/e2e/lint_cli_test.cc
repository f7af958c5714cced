// ge-lint as a user runs it: the input kinds (.ge, .onnx, .om), the three
// formats, --output, --fail_on and the exit codes (0 clean, 1 findings,
// 2 usage or unreadable model); and ge-atc --lint printing findings as
// warnings while still writing the .om.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/temp_leftovers.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

const std::string kCases = std::string(GE_SOURCE_DIR) + "/tests/lint/";
const std::string kUnordered = kCases + "assign_unordered_read.ge";
const std::string kOrdered = kCases + "assign_ordered_read.ge";

class LintCliTest : public TempDirTest {};

TEST_F(LintCliTest, AFindingIsOneTextLineAndExitsOne) {
  ToolResult r = Run("ge-lint", {kUnordered, "--fail_on", "warning"});
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  const auto lines = SplitLines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.Describe();
  EXPECT_EQ(lines[0].rfind(kUnordered + ": warning W18888 [assign_unordered_read] assign,reader", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], kUnordered + ": 0 errors, 1 warning, 0 notes");
  // The default --fail_on error lets a warning pass.
  r = Run("ge-lint", {"--model", kUnordered});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("W18888"), std::string::npos);
  // --fail_on note: anything fails.
  EXPECT_EQ(Run("ge-lint", {kUnordered, "--fail_on", "note"}).exit_code, 1);
}

TEST_F(LintCliTest, CleanInputsExitZero) {
  ToolResult r = Run("ge-lint", {kOrdered, "--fail_on", "note"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(r.out, kOrdered + ": 0 errors, 0 warnings, 0 notes\n");
  r = Run("ge-lint", {kTinyOnnx, "--fail_on", "warning"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  ToolResult atc = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  r = Run("ge-lint", {"--model", Path("tiny.om"), "--fail_on", "note"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
}

TEST_F(LintCliTest, JsonAndSarifReports) {
  ToolResult r = Run("ge-lint", {kUnordered, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tool"], "ge-lint");
  EXPECT_EQ(j["file"], kUnordered);
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["code"], "W18888");
  EXPECT_EQ(j["counts"]["warning"], 1);

  r = Run("ge-lint", {kUnordered, "--format", "sarif", "--output", Path("out.sarif")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(TempFilesLeftFor(Path("out.sarif")), std::vector<std::string>{});
  auto s = nlohmann::json::parse(ReadFileBytes(Path("out.sarif")));
  EXPECT_EQ(s["version"], "2.1.0");
  const auto& result = s["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "W18888");
  EXPECT_EQ(result["level"], "warning");
  EXPECT_EQ(s["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"].get<size_t>()]["id"], "W18888");
  EXPECT_EQ(result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "assign_unordered_read/assign");
}

TEST_F(LintCliTest, UsageAndInputErrorsExitTwoWithOneLine) {
  auto expect2 = [&](const ToolResult& r, const std::vector<std::string>& fragments) {
    ExpectOneErrorLine(r, "ge-lint", fragments);
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
  };
  expect2(Run("ge-lint", {kUnordered, "--bogus"}), {"--bogus"});
  expect2(Run("ge-lint", {kUnordered, "--format", "xml"}), {"--format"});
  expect2(Run("ge-lint", {kUnordered, "--fail_on", "fatal"}), {"--fail_on"});
  expect2(Run("ge-lint", {}), {"--model"});
  expect2(Run("ge-lint", {Path("absent.ge")}), {"absent.ge"});
  WriteFileBytes(Path("broken.ge"), "graph g {\n  %x = Data() -> (f32[2]\n}\n");
  expect2(Run("ge-lint", {Path("broken.ge")}), {"broken.ge:2"});
  WriteFileBytes(Path("notes.onnx"), "not a model\n");
  expect2(Run("ge-lint", {Path("notes.onnx")}), {"notes.onnx"});
  fs::create_directories(Path("dir"));
  expect2(Run("ge-lint", {kUnordered, "--output", Path("dir")}), {"--output"});
}

TEST_F(LintCliTest, AStructurallyBrokenGeIsE18001) {
  WriteFileBytes(Path("two_outputs.ge"),
                 "graph g {\n  %x = Data[index=0]() -> (f32[2])\n  %o1 = NetOutput(%x:0) -> ()\n  %o2 = NetOutput(%x:0) -> ()\n}\n");
  ToolResult r = Run("ge-lint", {Path("two_outputs.ge")});
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  EXPECT_NE(r.out.find(": error E18001 [g] -: "), std::string::npos) << r.Describe();
}

TEST_F(LintCliTest, AtcLintPrintsWarningsAndStillWritesTheOm) {
  // As written, this graph has an unordered collective write and read; the
  // compiled graph has the copy hccl_memcpy inserts, so it is clean. Two
  // unordered Assigns stay unordered after compiling: a warning.
  ToolResult r = Run("ge-atc", {"--model", kCases + "two_unordered_writers.ge", "--output", Path("w")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("w.om")));
  EXPECT_NE(r.err.find("ge-atc: warning: " + kCases + "two_unordered_writers.ge: warning W18888"), std::string::npos)
      << r.Describe();
  r = Run("ge-atc", {"--model", kCases + "two_unordered_writers.ge", "--output", Path("w2"), "--lint", "off"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(r.err.find("W18888"), std::string::npos) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("w2.om")));
  ExpectOneErrorLine(Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("t"), "--lint", "maybe"}),
                     "ge-atc", {"--lint"});
}

// What ge-dump prints is a .ge the tools read back: the compiled IR of the
// tiny CNN (fused convs, layouts, IO) parses and lints clean, and ge-dump
// compiles a .ge too.
TEST_F(LintCliTest, GeDumpOutputIsAGeFile) {
  ToolResult dump = Run("ge-dump", {"--model", kTinyOnnx});
  ASSERT_EQ(dump.exit_code, 0) << dump.Describe();
  WriteFileBytes(Path("tiny.ge"), dump.out);
  ToolResult r = Run("ge-lint", {Path("tiny.ge"), "--fail_on", "note"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(r.out, Path("tiny.ge") + ": 0 errors, 0 warnings, 0 notes\n");
  ToolResult again = Run("ge-dump", {"--model", kCases + "conv_relu_chain.ge"});
  ASSERT_EQ(again.exit_code, 0) << again.Describe();
  EXPECT_EQ(again.out.rfind("graph conv_relu_chain {", 0), 0u) << again.out;
}

}  // namespace
}  // namespace ge::test
