// ge-atc --precision_mode / --keep_dtype / --modify_mixlist end to end: a
// bf16 model runs against the float32 golden (ge-run --min_cosine), and bad
// values or files give one error line naming the flag or the file.
#include <nlohmann/json.hpp>

#include "hal/device.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

bool CpuHasBf16() {
  auto d = hal::GetDevice("");
  return d.ok() && (*d)->capabilities().bf16;
}

class AtcPrecision : public TempDirTest {
 protected:
  ToolResult Convert(std::vector<std::string> extra, const std::string& out = "m") {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  nlohmann::json RunJson(const std::string& om, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--model", Path(om), "--input", kTinyInput, "--compare", kTinyGolden, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    ToolResult r = Run("ge-run", args);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.Describe();
    return j;
  }
};

TEST_F(AtcPrecision, MixedBf16MatchesTheFloat32GoldenByCosineInBothModes) {
  if (!CpuHasBf16()) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX)";
  ToolResult r = Convert({"--precision_mode", "allow_mix_precision"}, "bf16");
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ToolResult info = Run("ge-atc", {"--mode", "6", "--om", Path("bf16.om")});
  EXPECT_NE(info.out.find("option precision_mode: allow_mix_precision"), std::string::npos) << info.Describe();
  for (const char* mode : {"v2", "sink"}) {
    nlohmann::json j = RunJson("bf16.om", {"--mode", mode, "--min_cosine", "0.999"});
    ASSERT_TRUE(j.contains("outputs")) << j.dump();
    EXPECT_EQ(j["compare"], "PASS") << j.dump();
    const double cosine = j["outputs"][0]["cosine"];
    EXPECT_GE(cosine, 0.999) << mode;
    EXPECT_LT(cosine, 1.0) << mode << ": bf16 rounds, so it cannot equal the float32 result";
    EXPECT_GT(j["outputs"][0]["max_abs_diff"].get<double>(), 0.0) << mode;
  }
  // The default criterion still judges elements; with it the same run fails
  // or passes on its own terms, and --min_cosine above the cosine fails.
  nlohmann::json strict = RunJson("bf16.om", {"--min_cosine", "1"});
  EXPECT_EQ(strict["compare"], "FAIL") << strict.dump();
}

TEST_F(AtcPrecision, RefusedWhereTheCpuHasNoBf16) {
  if (CpuHasBf16()) GTEST_SKIP() << "this CPU has native bf16: the refusal is for CPUs without it";
  ToolResult r = Convert({"--precision_mode", "allow_mix_precision"});
  ExpectOneErrorLine(r, "ge-atc", {"allow_mix_precision", "bfloat16"});
  EXPECT_FALSE(fs::exists(Path("m.om")));
}

TEST_F(AtcPrecision, Float32ModesCompileAsBefore) {
  for (const char* mode : {"force_fp32", "must_keep_origin_dtype", "allow_fp32_to_bf16"}) {
    ToolResult r = Convert({"--precision_mode", mode}, mode);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << mode << "\n" << r.Describe();
    nlohmann::json j = RunJson(std::string(mode) + ".om");
    EXPECT_EQ(j["compare"], "PASS") << j.dump();
  }
}

TEST_F(AtcPrecision, BadValuesAndFilesAreOneErrorLine) {
  ExpectOneErrorLine(Convert({"--precision_mode", "half_please"}), "ge-atc", {"--precision_mode", "half_please"});
  ExpectOneErrorLine(Convert({"--precision_mode", "force_fp32", "--precision_mode_v2", "fp32"}), "ge-atc",
                     {"--precision_mode_v2", "exclusive"});
  WriteFileBytes(Path("keep.txt"), "OpName::conv1\nconv2\n");
  ExpectOneErrorLine(Convert({"--precision_mode", "allow_mix_precision", "--keep_dtype", Path("keep.txt")}), "ge-atc",
                     {"--keep_dtype", "keep.txt:2", "conv2"});
  WriteFileBytes(Path("mix.json"), R"({"allow_mix_precision": {"white-list": {"to-add": "Conv"}}})");
  ExpectOneErrorLine(Convert({"--precision_mode", "allow_mix_precision", "--modify_mixlist", Path("mix.json")}),
                     "ge-atc", {"--modify_mixlist", "mix.json", "white-list.to-add"});
  ExpectOneErrorLine(Convert({"--precision_mode", "allow_mix_precision", "--modify_mixlist", Path("absent.json")}),
                     "ge-atc", {"absent.json"});
  EXPECT_FALSE(fs::exists(Path("m.om")));
}

TEST_F(AtcPrecision, KeepDtypeAndMixListFilesAreAccepted) {
  if (!CpuHasBf16()) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX)";
  WriteFileBytes(Path("keep.txt"), "# keep the classifier in float32\nOpType::Gemm\n");
  WriteFileBytes(Path("mix.json"), R"({"allow_mix_precision": {"gray-list": {"to-remove": ["MaxPool"]}}})");
  ToolResult r = Convert({"--precision_mode", "allow_mix_precision", "--keep_dtype", Path("keep.txt"),
                          "--modify_mixlist", Path("mix.json")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  nlohmann::json j = RunJson("m.om", {"--min_cosine", "0.999"});
  EXPECT_EQ(j["compare"], "PASS") << j.dump();
}

// ge-dump precision: the search's --keep_dtype file, given to ge-atc, makes a
// model that meets the cosine it was searched for. A target just short of 1
// forces the search to keep ops in float32.
TEST_F(AtcPrecision, DumpPrecisionWritesAKeepDtypeFileThatMeetsItsTarget) {
  if (!CpuHasBf16()) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX)";
  const std::vector<std::string> base = {"precision", "--model", kTinyOnnx, "--input", kTinyInput,
                                         "--golden", kTinyGolden, "--min_cosine", "0.9999999"};
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--write", Path("keep.txt")});
  ToolResult r = Run("ge-dump", args);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("every op in bf16: cosine"), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("met"), std::string::npos) << r.Describe();
  EXPECT_NE(r.err.find("alone"), std::string::npos) << "progress of the per-op runs\n" << r.Describe();
  const std::string keep = ReadFileBytes(Path("keep.txt"));
  EXPECT_NE(keep.find("OpName::"), std::string::npos) << keep;
  ASSERT_EQ(Convert({"--precision_mode", "allow_mix_precision", "--keep_dtype", Path("keep.txt")}, "kept").exit_code, 0);
  nlohmann::json j = RunJson("kept.om", {"--min_cosine", "0.9999999"});
  EXPECT_EQ(j["compare"], "PASS") << j.dump();

  args = base;
  args.push_back("--json");
  ToolResult rj = Run("ge-dump", args);
  ASSERT_EQ(rj.exit_code, 0) << rj.Describe();
  auto out = nlohmann::json::parse(rj.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << rj.Describe();
  EXPECT_TRUE(out["met"].get<bool>());
  EXPECT_GT(out["kept"].get<int>(), 0);
  EXPECT_FALSE(out["candidates"].empty());
}

TEST_F(AtcPrecision, DumpPrecisionBadInputIsOneErrorLine) {
  ExpectOneErrorLine(Run("ge-dump", {"precision", "--model", kTinyOnnx, "--input", kTinyInput, "--min_cosine", "2"}),
                     "ge-dump", {"--min_cosine"});
  ExpectOneErrorLine(Run("ge-dump", {"precision", "--model", kTinyOnnx, "--input", Path("missing.npy")}), "ge-dump",
                     {"--input", "missing.npy"});
  ASSERT_EQ(Convert({}, "f32").exit_code, 0);
  ExpectOneErrorLine(Run("ge-dump", {"precision", "--model", Path("f32.om"), "--input", kTinyInput}), "ge-dump",
                     {"f32.om", "compiled already"});
  if (!CpuHasBf16())
    ExpectOneErrorLine(Run("ge-dump", {"precision", "--model", kTinyOnnx, "--input", kTinyInput}), "ge-dump",
                       {"allow_mix_precision", "bfloat16"});
}

}  // namespace
}  // namespace ge::test
