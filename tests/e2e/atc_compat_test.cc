// ge-atc run with atc command lines as Ascend's samples write them: the
// spellings, --soc_version targets, flags accepted with a warning or refused
// with their reason, --mode 6, and the compatibility doc listing every flag.
#include <map>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/common/temp_leftovers.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class AtcCompat : public TempDirTest {
 protected:
  ToolResult Convert(std::vector<std::string> extra, const std::string& out = "m") {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  void ExpectMatchesGolden(const std::string& om) {
    ToolResult r = Run("ge-run", {"--model", Path(om), "--input", kTinyInput, "--compare", kTinyGolden});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
  }
  std::vector<std::string> Warnings(const ToolResult& r) {
    std::vector<std::string> w;
    for (const auto& l : SplitLines(r.err))
      if (l.rfind("ge-atc: warning: ", 0) == 0) w.push_back(l);
    return w;
  }
  std::string ModelInfo(const std::string& om) {
    ToolResult r = Run("ge-atc", {"--mode", "6", "--om", Path(om)});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return r.out;
  }
};

TEST_F(AtcCompat, ASampleLineRunsUnchanged) {
  // The shape of the conversion lines in Ascend's ModelZoo READMEs.
  ToolResult r = Run("ge-atc", {"--framework=5", "--model=" + kTinyOnnx, "--output=" + Path("sample"),
                                "--input_format=NCHW", "--input_shape=input:1,3,16,16", "--soc_version=Ascend310P3",
                                "--log=error", "--precision_mode=allow_fp32_to_fp16",
                                "--optypelist_for_implmode=Sigmoid", "--op_select_implmode=high_performance",
                                "--enable_small_channel=1", "--fusion_switch_file=" + Path("absent_is_an_error.json")});
  // The fusion switch file must exist: the one real error of the line.
  ExpectOneErrorLine(r, "ge-atc", {"--fusion_switch_file", "absent_is_an_error.json"});
  WriteFileBytes(Path("switch.json"), R"({"Switch": {"GraphFusion": {"ALL": "on"}}})");
  r = Run("ge-atc", {"--framework=5", "--model=" + kTinyOnnx, "--output=" + Path("sample"), "--input_format=NCHW",
                     "--input_shape=input:1,3,16,16", "--soc_version=Ascend310P3", "--log=error",
                     "--precision_mode=allow_fp32_to_fp16", "--optypelist_for_implmode=Sigmoid",
                     "--op_select_implmode=high_performance", "--enable_small_channel=1",
                     "--fusion_switch_file=" + Path("switch.json")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const auto w = Warnings(r);
  // One line per flag that cannot mean what it says here. allow_fp32_to_fp16
  // keeps float32 where an op supports it: every CPU kernel does, no warning.
  ASSERT_EQ(w.size(), 3u) << r.Describe();
  for (const char* flag : {"--soc_version Ascend310P3", "--op_select_implmode high_performance",
                           "--enable_small_channel 1"})
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [&](const std::string& l) { return l.find(flag) != std::string::npos; }))
        << flag << "\n" << r.Describe();
  ExpectMatchesGolden("sample.om");
  const std::string info = ModelInfo("sample.om");
  EXPECT_NE(info.find("option input_format: NCHW"), std::string::npos) << info;
  EXPECT_NE(info.find("option soc_version: cpu"), std::string::npos) << info;  // native: cpu_avx2 or cpu_avx512 here
  // Native target: the conv weights are packed for this CPU, and --mode 6 says for which.
  EXPECT_NE(info.find("packed weights: "), std::string::npos) << info;
  EXPECT_NE(info.find(", for dnnl"), std::string::npos) << info;
}

TEST_F(AtcCompat, AtcSpellingsAreAccepted) {
  // atc takes -flag and --flag-name as well as --flag_name.
  ToolResult r = Run("ge-atc", {"-model", kTinyOnnx, "-framework", "5", "-output", Path("dash"), "--soc-version=cpu",
                                "--disable-reuse-memory", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::string info = ModelInfo("dash.om");
  EXPECT_NE(info.find("option soc_version: cpu\n"), std::string::npos) << info;
  EXPECT_NE(info.find("option buffer_optimize: off"), std::string::npos) << info;
  // Plain layouts are not this CPU's: nothing is packed ahead, the kernels pack at load.
  EXPECT_EQ(info.find("packed weights"), std::string::npos) << info;
  ExpectMatchesGolden("dash.om");
}

TEST_F(AtcCompat, TheTargetDecidesLayoutsAndEveryTargetRunsHere) {
  std::map<std::string, std::set<std::string>> formats;
  for (const char* target : {"cpu", "cpu_avx2", "cpu_avx512", "native"}) {
    const std::string om = std::string("t_") + target;
    ToolResult r = Convert({"--soc_version", target}, om);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    ExpectMatchesGolden(om + ".om");
    ToolResult j = Run("ge-atc", {"--mode", "1", "--om", Path(om + ".om"), "--json", Path(om + ".json")});
    ASSERT_EQ(j.exit_code, 0) << j.Describe();
    const std::string text = ReadFileBytes(Path(om + ".json"));
    static const std::regex format(R"re("format":\s*(\d+))re");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), format); it != std::sregex_iterator(); ++it)
      formats[target].insert((*it)[1]);
  }
  EXPECT_TRUE(formats["cpu"].empty()) << "plain layouts only";
  EXPECT_FALSE(formats["cpu_avx512"].empty()) << "channels-last activations";
  EXPECT_NE(formats["cpu_avx512"], formats["cpu_avx2"]);
}

TEST_F(AtcCompat, RefusedFlagsNameTheFlagAndTheReason) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--insert_op_conf", "aipp.cfg"}, {"aipp.cfg", "cannot open the AIPP configuration"}},
      {{"--dynamic_batch_size", "1,2,4"}, {"--dynamic_batch_size", "no input has a -1 dim", "--input_shape"}},
      {{"--input_shape_range", "input:[1~4],3,16,16"}, {"--input_shape_range", "ranges"}},
      {{"--weight", "m.caffemodel"}, {"--weight", "Caffe"}},
      {{"--input_format", "NHWC"}, {"--input_format NHWC", "ONNX", "NCHW"}},
      {{"--soc_version", "x86"}, {"--soc_version x86", "cpu_avx2"}},
      {{"--output_type", "FP64"}, {"--output_type FP64", "FP32, FP16, UINT8, INT8"}},
      {{"--op_select_implmode", "fastest"}, {"--op_select_implmode"}},
      {{"--no_such_atc_flag", "1"}, {"--no_such_atc_flag"}},
  };
  for (const auto& [args, fragments] : cases) {
    ToolResult r = Convert(args);
    ExpectOneErrorLine(r, "ge-atc", fragments);
    EXPECT_FALSE(fs::exists(Path("m.om"))) << r.Describe();
  }
}

TEST_F(AtcCompat, CheckReportIsThePrecheckReport) {
  ToolResult r = Run("ge-atc", {"--mode", "3", "--model", kTinyOnnx, "--framework", "5", "--check_report",
                                Path("check_result.json"), "--soc_version", "Ascend910B"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("check_result.json"))) << r.Describe();
}

TEST_F(AtcCompat, ModeSixNeedsAnOmAndNamesABadOne) {
  ExpectOneErrorLine(Run("ge-atc", {"--mode", "6"}), "ge-atc", {"--mode 6", "--om"});
  WriteFileBytes(Path("junk.om"), "not a model");
  ExpectOneErrorLine(Run("ge-atc", {"--mode", "6", "--om", Path("junk.om")}), "ge-atc", {"junk.om"});
}

TEST_F(AtcCompat, ListOpsPrintsTheRegistryWithKernelsAsTextAndJson) {
  ToolResult r = Run("ge-atc", {"--list_ops", "--json", Path("ops.json")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find(" op types ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  Conv "), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(ReadFileBytes(Path("ops.json")));
  std::map<std::string, nlohmann::json> ops;
  for (const auto& e : j.at("ops")) ops[e.at("type").get<std::string>()] = e;
  ASSERT_TRUE(ops.count("Conv") && ops.count("Add") && ops.count("Data") && ops.count("NonZero")) << j.dump();
  EXPECT_TRUE(ops["Conv"].at("kernel").get<bool>());
  EXPECT_FALSE(ops["Data"].at("kernel").get<bool>());  // structural: no kernel runs it
  EXPECT_TRUE(ops["NonZero"].at("computed_shape").get<bool>());
  EXPECT_EQ(ops["Add"].at("inputs"), nlohmann::json::array({2, 2}));
  // The JSON goes through a temporary file: nothing is left beside it.
  EXPECT_EQ(TempFilesLeftFor(Path("ops.json")), std::vector<std::string>{});
  ExpectOneErrorLine(Run("ge-atc", {"--list_ops", "--json", Path("no/such/dir/ops.json")}), "ge-atc", {"ops.json"});
}

TEST_F(AtcCompat, EveryFlagIsInTheCompatibilityDoc) {
  ToolResult help = Run("ge-atc", {"--help"});
  ASSERT_EQ(help.exit_code, 0) << help.Describe();
  const std::string doc = ReadFileBytes(std::string(GE_SOURCE_DIR) + "/docs/compatibility.md");
  // The options themselves: a help line that starts with one.
  static const std::regex flag(R"re(^\s+(?:-h,)?(--[a-z][a-z0-9_]+))re");
  std::set<std::string> flags;
  for (const std::string& line : SplitLines(help.out))
    if (std::smatch m; std::regex_search(line, m, flag)) flags.insert(m[1]);
  EXPECT_GT(flags.size(), 60u) << help.out;
  for (const std::string& f : flags) EXPECT_NE(doc.find("`" + f + "`"), std::string::npos) << f << " is not in docs/compatibility.md";
}

}  // namespace
}  // namespace ge::test
