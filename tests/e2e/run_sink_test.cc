// ge-run --mode sink end to end: every model converted with ge-atc passes
// --compare in sink mode with outputs bitwise equal to --mode v2; the sink
// flags (--timeout_ms, --run_loop, --async, --profile, --json) and their
// errors. Reference models of GE_MODELS_DIR are skipped when absent.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ge/model.h"
#include "ge/om.h"
#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

struct SinkCase {
  std::string name;
  std::string source;  // .onnx / .pb
  std::string input, golden;
};

std::vector<SinkCase> Cases() {
  const fs::path models = GE_MODELS_DIR;
  const fs::path ex = fs::path(GE_SOURCE_DIR) / "examples";
  std::vector<SinkCase> c = {{"tiny_cnn", (ex / "tiny_cnn.onnx").string(), (ex / "tiny_cnn.input.npy").string(),
                              (ex / "tiny_cnn.output.npy").string()}};
  for (const char* n : {"add_chain_1000", "small_cnn", "resnet18", "mobilenet_v2", "squeezenet1_1", "bert_encoder"})
    c.push_back({n, (models / (std::string(n) + ".onnx")).string(), (models / (std::string(n) + ".input.npy")).string(),
                 (models / (std::string(n) + ".output.npy")).string()});
  for (const char* n : {"tf_cnn", "tf_mlp"})
    c.push_back({n, (models / (std::string(n) + ".pb")).string(), (models / (std::string(n) + ".input.npy")).string(),
                 (models / (std::string(n) + ".output.npy")).string()});
  return c;
}

class RunSinkModels : public TempDirTest, public ::testing::WithParamInterface<SinkCase> {};

TEST_P(RunSinkModels, SinkPassesCompareAndEqualsV2Bitwise) {
  const SinkCase& c = GetParam();
  for (const std::string& p : {c.source, c.input, c.golden}) GE_SKIP_IF_ABSENT(p);
  const bool tf = c.source.size() > 3 && c.source.substr(c.source.size() - 3) == ".pb";
  ToolResult atc = Run("ge-atc", {"--model", c.source, "--framework", tf ? "3" : "5", "--output", Path(c.name)});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  const std::string om = Path(c.name + ".om");
  ToolResult v2 = Run("ge-run", {"--model", om, "--mode", "v2", "--input", c.input, "--output", Path("v2")});
  ASSERT_EQ(v2.exit_code, 0) << v2.Describe();
  ToolResult sink = Run("ge-run", {"--model", om, "--mode", "sink", "--input", c.input, "--compare", c.golden,
                                   "--output", Path("sink")});
  ASSERT_EQ(sink.exit_code, 0) << sink.Describe();
  const auto lines = SplitLines(sink.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "PASS") << sink.Describe();
  const auto files = FilesEndingIn(Path("v2"), {".npy"});
  ASSERT_FALSE(files.empty());
  for (const std::string& f : files) {
    const fs::path other = fs::path(Path("sink")) / fs::path(f).filename();
    ASSERT_TRUE(fs::exists(other)) << other;
    EXPECT_TRUE(ReadFileBytes(f) == ReadFileBytes(other)) << fs::path(f).filename() << ": sink and v2 outputs differ";
  }
  // The worker-thread path (a timeout) and the asynchronous path give the same bytes.
  ToolResult timed = Run("ge-run", {"--model", om, "--mode", "sink", "--input", c.input, "--timeout_ms", "600000",
                                    "--async", "--output", Path("timed")});
  ASSERT_EQ(timed.exit_code, 0) << timed.Describe();
  for (const std::string& f : files)
    EXPECT_TRUE(ReadFileBytes(f) == ReadFileBytes(fs::path(Path("timed")) / fs::path(f).filename())) << f;
}

INSTANTIATE_TEST_SUITE_P(Models, RunSinkModels, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<SinkCase>& i) { return i.param.name; });

class RunSinkFlags : public TempDirTest {
 protected:
  std::string TinyOm() {
    const fs::path ex = fs::path(GE_SOURCE_DIR) / "examples" / "tiny_cnn.onnx";
    ToolResult atc = Run("ge-atc", {"--model", ex.string(), "--framework", "5", "--output", Path("tiny")});
    EXPECT_EQ(atc.exit_code, 0) << atc.Describe();
    return Path("tiny.om");
  }
};

TEST_F(RunSinkFlags, RunLoopProfileAndJsonReportTheirFigures) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--mode", "sink", "--run_loop", "64", "--loop", "5", "--profile",
                                Path("trace.json"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["mode"], "sink");
  EXPECT_EQ(j["run_loop"]["inferences"], 64);
  EXPECT_GT(j["run_loop"]["throughput_per_s"].get<double>(), 0);
  EXPECT_GT(j["tasks"].get<int>(), 0);
  EXPECT_EQ(j["profile"], Path("trace.json"));
  auto trace = nlohmann::json::parse(ReadFileBytes(Path("trace.json")), nullptr, false);
  ASSERT_FALSE(trace.is_discarded());
  int slices = 0;
  for (const auto& e : trace["traceEvents"]) slices += e["ph"] == "X";
  EXPECT_EQ(slices, 5 * j["tasks"].get<int>()) << "one slice per task per profiled run";

  ToolResult text = Run("ge-run", {"--model", om, "--mode", "sink", "--run_loop", "16"});
  ASSERT_EQ(text.exit_code, 0) << text.Describe();
  EXPECT_NE(text.out.find("run loop: 16 inferences"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("throughput"), std::string::npos) << text.out;
}

// --profile_table: the kernel time per task and per op type, summed over
// the timed runs; the shares add up to the whole, the text names the ops.
TEST_F(RunSinkFlags, ProfileTableSplitsTheKernelTimeByTaskAndOp) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--mode", "sink", "--loop", "10", "--profile_table", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  const auto& t = j["profile_table"];
  EXPECT_EQ(t["runs"], 10);
  EXPECT_GT(t["kernel_ms"].get<double>(), 0);
  double share = 0, ms = 0;
  for (const auto& task : t["tasks"]) {
    share += task["share"].get<double>();
    ms += task["ms"].get<double>();
  }
  EXPECT_NEAR(share, 1.0, 1e-9);
  EXPECT_NEAR(ms, t["kernel_ms"].get<double>(), 1e-9);
  EXPECT_EQ(t["tasks"].size(), static_cast<size_t>(j["tasks"].get<int>()));  // tiny_cnn: kernels only, one stream
  bool conv = false;
  for (const auto& op : t["ops"]) conv |= op["op"] == "Conv";
  EXPECT_TRUE(conv) << t.dump();
  ToolResult text = Run("ge-run", {"--model", om, "--mode", "sink", "--loop", "3", "--profile_table"});
  ASSERT_EQ(text.exit_code, 0) << text.Describe();
  EXPECT_NE(text.out.find("profile: kernel time per inference, mean of 3 run(s)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("op type"), std::string::npos) << text.out;
}

TEST_F(RunSinkFlags, SinkOnlyFlagsWithV2AreOneLineErrors) {
  const std::string om = TinyOm();
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{{"--run_loop", "4"}, {"--async"}}) {
    std::vector<std::string> args = {"--model", om};
    args.insert(args.end(), extra.begin(), extra.end());
    ToolResult r = Run("ge-run", args);
    ExpectOneErrorLine(r, "ge-run", {extra[0], "--mode sink"});
  }
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--mode", "sink", "--run_loop", "0"}), "ge-run", {"--run_loop"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--mode", "sink", "--timeout_ms", "-3"}), "ge-run", {"--timeout_ms"});
  // --timeout_ms is both modes' (run_limits_test.cc: a dynamic model in v2).
  ToolResult v2 = Run("ge-run", {"--model", om, "--timeout_ms", "600000"});
  EXPECT_EQ(v2.exit_code, 0) << v2.Describe();
}

// A real model under a timeout it cannot meet (resnet18 takes several ms):
// the inference fails with the timeout error every time. (The host's wait
// once read the clock only every 64 yields and let whole runs finish.)
TEST_F(RunSinkFlags, TimeoutFailsTheInferenceOnARealModel) {
  const std::string onnx = ModelsPath("resnet18.onnx");
  GE_SKIP_IF_ABSENT(onnx);
  const std::string out = Path("r18");
  ASSERT_EQ(Run("ge-atc", {"--model", onnx, "--framework", "5", "--output", out}).exit_code, 0);
  for (int i = 0; i < 3; ++i)
    for (const char* mode : {"sink", "v2"}) {
      ToolResult r = Run("ge-run", {"--model", out + ".om", "--mode", mode, "--timeout_ms", "1", "--input", "random"});
      ExpectOneErrorLine(r, "ge-run", {"did not finish within 1 ms"});
    }
}

}  // namespace
}  // namespace ge::test
