// ge-run --dump DIR and ge-dump compare A B: layer-by-layer comparison of
// two runs of tiny_cnn (docs/ge-dump.md, docs/ge-run-msame.md).
#include "common/tool_runner.h"

namespace ge::test {
namespace {

class OpDumpTest : public TempDirTest {
 protected:
  // ge-atc tiny_cnn.onnx [--soc_version SOC] -> DIR/NAME.om.
  std::string OpDumpConvert(const std::string& name, const std::string& soc = "") {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path(name)};
    if (!soc.empty()) args.insert(args.end(), {"--soc_version", soc});
    ToolResult r = Run("ge-atc", args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return Path(name) + ".om";
  }

  // ge-run with the bundled input and --dump DIR, plus `extra`.
  void OpDumpRun(const std::string& om, const std::string& dir, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--model", om, "--input", kTinyInput, "--dump", Path(dir)};
    args.insert(args.end(), extra.begin(), extra.end());
    ToolResult r = Run("ge-run", args);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find("dump: "), std::string::npos) << r.Describe();
    EXPECT_TRUE(fs::exists(dir_ / dir / "dump.json")) << r.Describe();
  }

  ToolResult OpDumpCompare(const std::string& a, const std::string& b, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"compare", Path(a), Path(b)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-dump", args);
  }

  static void ExpectNoDivergentOp(const ToolResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find("no divergent op"), std::string::npos) << r.Describe();
  }

  // Dumps `om_a` into a/ and `om_b` into b/ (ge-run flags `extra_*`), then compares a with b.
  ToolResult OpDumpBoth(const std::string& om_a, const std::vector<std::string>& extra_a, const std::string& om_b,
                        const std::vector<std::string>& extra_b) {
    OpDumpRun(om_a, "a", extra_a);
    OpDumpRun(om_b, "b", extra_b);
    return OpDumpCompare("a", "b");
  }
};

TEST_F(OpDumpTest, DumpHoldsEveryOpInExecutionOrder) {
  const std::string om = OpDumpConvert("tiny");
  OpDumpRun(om, "a");
  const std::string json = ReadFileBytes(dir_ / "a/dump.json");
  // tiny_cnn: conv1 -> pool1 -> conv2 -> ... -> softmax.
  const size_t conv1 = json.find("\"node\": \"conv1\""), conv2 = json.find("\"node\": \"conv2\""),
               softmax = json.find("\"node\": \"softmax\"");
  ASSERT_NE(conv1, std::string::npos) << json;
  ASSERT_NE(conv2, std::string::npos) << json;
  ASSERT_NE(softmax, std::string::npos) << json;
  EXPECT_LT(conv1, conv2);
  EXPECT_LT(conv2, softmax);
  EXPECT_FALSE(FilesEndingIn(dir_ / "a", {".npy"}).empty());
  EXPECT_EQ(FilesEndingIn(dir_, {".tmp"}), std::vector<std::string>{});
}

TEST_F(OpDumpTest, PerturbedOpIsTheFirstDivergentOp) {
  const std::string om = OpDumpConvert("tiny");
  ToolResult r = OpDumpBoth(om, {}, om, {"--test_perturb_op", "conv2"});
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  EXPECT_NE(r.out.find("first divergent op: conv2 (Conv) output 0"), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("pool1 are within the thresholds"), std::string::npos) << r.Describe();
  ToolResult j = OpDumpCompare("a", "b", {"--json"});
  EXPECT_EQ(j.exit_code, 1) << j.Describe();
  const size_t first = j.out.find("\"first_divergent\": {");
  ASSERT_NE(first, std::string::npos) << j.Describe();
  EXPECT_NE(j.out.find("\"node\": \"conv2\"", first), std::string::npos) << j.Describe();
  // A looser threshold lets the perturbation pass.
  ExpectNoDivergentOp(OpDumpCompare("a", "b", {"--rtol", "0.5", "--cosine", "0.9"}));
}

TEST_F(OpDumpTest, V2AndSinkDumpsCompareEqual) {
  const std::string om = OpDumpConvert("tiny");
  ToolResult r = OpDumpBoth(om, {}, om, {"--mode", "sink"});
  ExpectNoDivergentOp(r);
  EXPECT_EQ(r.out.find("only in"), std::string::npos) << r.Describe();
}

// cpu keeps plain layouts; cpu_avx2 blocks the conv chain's channels (and
// adds a TransData): the dumps are converted back to NCHW and match.
TEST_F(OpDumpTest, PlainAndBlockedLayoutsCompareEqual) {
  ToolResult r = OpDumpBoth(OpDumpConvert("plain", "cpu"), {}, OpDumpConvert("blocked", "cpu_avx2"), {});
  ExpectNoDivergentOp(r);
  EXPECT_NE(r.out.find("conv2:0"), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("only in B"), std::string::npos) << "the layouts should differ\n" << r.Describe();
}

TEST_F(OpDumpTest, ErrorsAreOneLine) {
  const std::string om = OpDumpConvert("tiny");
  WriteFileBytes(dir_ / "file", "x");
  struct OpDumpCase {
    std::vector<std::string> args;
    std::vector<std::string> parts;
  };
  for (const OpDumpCase& c : std::vector<OpDumpCase>{
           {{"--mode", "sink", "--run_loop", "4", "--dump", Path("d")}, {"--dump", "--run_loop"}},
           {{"--test_perturb_op", "conv2"}, {"--test_perturb_op", "--dump"}},
           {{"--dump", Path("d"), "--test_perturb_op", "nosuch"}, {"--dump", "nosuch"}},
           {{"--dump", Path("file") + "/d"}, {"--dump", "file"}},
       }) {
    std::vector<std::string> args = {"--model", om};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ExpectOneErrorLine(Run("ge-run", args), "ge-run", c.parts);
  }
  EXPECT_FALSE(fs::exists(dir_ / "d/dump.json"));
  fs::create_directories(dir_ / "empty");
  ExpectOneErrorLine(OpDumpCompare("empty", "empty"), "ge-dump", {"empty", "dump.json"});
  ExpectOneErrorLine(Run("ge-dump", {"compare", Path("empty")}), "ge-dump", {"B"});
}

TEST_F(OpDumpTest, HelpShowsDumpAndHidesThePerturbation) {
  ToolResult run = Run("ge-run", {"--help"});
  EXPECT_NE(run.out.find("--dump"), std::string::npos);
  EXPECT_EQ(run.out.find("--test_perturb_op"), std::string::npos);
  ToolResult dump = Run("ge-dump", {"compare", "--help"});
  for (const char* flag : {"--cosine", "--rtol", "--atol", "--json", "first divergent"})
    EXPECT_NE(dump.out.find(flag), std::string::npos) << flag;
}

}  // namespace
}  // namespace ge::test
