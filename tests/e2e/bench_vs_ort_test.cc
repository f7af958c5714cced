// scripts/bench_vs_ort.sh end to end on the bundled tiny model with a few
// runs: it writes report.md, report.json and report.svg, and the JSON parses
// with a row per engine. Skips with a message when node or onnxruntime-node
// (in ORT_DIR, default ~/.cache/ge-ort; the test never installs it) is absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class BenchVsOrt : public TempDirTest {
 protected:
  // Runs `command` with bash in the work dir; stdout and stderr into files.
  ToolResult Shell(const std::string& command, int timeout_s = 600) {
    ToolResult r;
    r.command = command;
    const std::string out = (capture_ / "out").string(), err = (capture_ / "err").string();
    const std::string full = "cd " + ShellQuote(dir_.string()) + " && timeout -k 5 " + std::to_string(timeout_s) +
                             " bash -c " + ShellQuote(command) + " >" + ShellQuote(out) + " 2>" + ShellQuote(err) +
                             " </dev/null";
    const int status = std::system(full.c_str());
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.timed_out = r.exit_code == 124 || r.exit_code == 137;
    r.out = ReadFileBytes(out);
    r.err = ReadFileBytes(err);
    return r;
  }
  static std::string OrtDir() {
    const char* d = std::getenv("ORT_DIR");
    const char* home = std::getenv("HOME");
    return d ? d : std::string(home ? home : "/root") + "/.cache/ge-ort";
  }
  // Empty when onnxruntime-node loads, else why not.
  std::string OrtMissing() {
    if (Shell("command -v node").exit_code != 0) return "node is not installed";
    ToolResult r = Shell("cd " + ShellQuote(OrtDir()) + " && node -e \"require('onnxruntime-node')\"");
    return r.exit_code == 0 ? "" : "onnxruntime-node does not load from " + OrtDir() + " (scripts/bench_vs_ort.sh installs it)";
  }
  std::string Script() const { return ShellQuote(std::string(GE_SOURCE_DIR) + "/scripts/bench_vs_ort.sh"); }
  // The environment of a small run over the tiny model alone.
  std::string Env() {
    fs::create_directories(Path("models"));
    fs::create_directories(Path("bench"));
    for (const auto& [from, to] : {std::pair<std::string, std::string>{kTinyOnnx, "tiny_cnn.onnx"},
                                   {kTinyInput, "tiny_cnn.input.npy"}, {kTinyGolden, "tiny_cnn.output.npy"}})
      fs::copy_file(from, Path("models/" + to), fs::copy_options::overwrite_existing);
    return "BUILD_DIR=" + ShellQuote(GE_BINARY_DIR) + " MODELS_DIR=" + ShellQuote(Path("models")) +
           " BENCH_DIR=" + ShellQuote(Path("bench")) + " ORT_DIR=" + ShellQuote(OrtDir()) +
           " ROUNDS=2 RUNS=3 WARMUP=1 ROOF_RUNS=2 THREADS=1 ";
  }
};

TEST_F(BenchVsOrt, WritesTheReportFilesAndJson) {
  if (std::string why = OrtMissing(); !why.empty()) GTEST_SKIP() << why;
  ToolResult r = Shell(Env() + Script() + " --out " + ShellQuote(Path("out")));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  for (const char* f : {"report.md", "report.json", "report.svg"}) ASSERT_TRUE(fs::exists(Path(std::string("out/") + f))) << f;
  EXPECT_NE(r.out.find("tiny_cnn"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(ReadFileBytes(Path("out/report.json")), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["models"].size(), 1u) << j.dump(2);
  const auto& m = j["models"][0];
  EXPECT_EQ(m["model"], "tiny_cnn");
  EXPECT_GT(m["flops"].get<int64_t>(), 0);
  for (const char* e : {"sink", "v2", "ort"}) {
    EXPECT_EQ(m[e]["runs"], 6) << e << ": ROUNDS x RUNS timed runs";
    EXPECT_GT(m[e]["p50_ms"].get<double>(), 0) << e;
    EXPECT_GT(m[e]["peak_rss_mb"].get<double>(), 0) << e;
    EXPECT_LE(m[e]["peak_rss_mb_min"].get<double>(), m[e]["peak_rss_mb"].get<double>()) << e;
    EXPECT_GE(m[e]["peak_rss_mb_max"].get<double>(), m[e]["peak_rss_mb"].get<double>()) << e;
    EXPECT_GT(m[e]["load_ms"].get<double>(), 0) << e;
    EXPECT_EQ(m[e]["golden"], "PASS") << e;
  }
  EXPECT_GT(m["ratio_sink"].get<double>(), 0);
  EXPECT_GT(j["meta"]["roof"]["gflops_per_s"].get<double>(), 0);
  EXPECT_EQ(j["summary"]["errors"], 0);
  const std::string svg = ReadFileBytes(Path("out/report.svg"));
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("tiny_cnn"), std::string::npos);
  EXPECT_NE(ReadFileBytes(Path("out/report.md")).find("| tiny_cnn |"), std::string::npos);

  // --json: the same report on stdout.
  ToolResult js = Shell(Env() + "ROUNDS=1 RUNS=1 ROOF_RUNS=0 " + Script() + " --json --out " + ShellQuote(Path("out2")) + " tiny_cnn");
  ASSERT_EQ(js.exit_code, 0) << js.Describe();
  auto j2 = nlohmann::json::parse(js.out, nullptr, false);
  ASSERT_FALSE(j2.is_discarded()) << js.out;
  EXPECT_EQ(j2["models"][0]["model"], "tiny_cnn");
}

TEST_F(BenchVsOrt, AWrongOutputExitsOne) {
  if (std::string why = OrtMissing(); !why.empty()) GTEST_SKIP() << why;
  const std::string env = Env();
  // A golden of the right shape with other values.
  fs::copy_file(kTinyInput, Path("models/tiny_cnn.output.npy"), fs::copy_options::overwrite_existing);
  ToolResult r = Shell(env + "ROUNDS=1 RUNS=1 ROOF_RUNS=0 " + Script() + " --out " + ShellQuote(Path("out")));
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("out/report.json")));
}

// Needs neither node nor onnxruntime: the preflight refuses first.
TEST_F(BenchVsOrt, AMissingToolExitsTwoAndHelpExplains) {
  ToolResult r = Shell("BUILD_DIR=" + ShellQuote(Path("nowhere")) + " " + Script());
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
  ToolResult help = Shell(Script() + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.Describe();
  for (const char* s : {"report.svg", "ROUNDS", "THREADS", "ge-conv-roof", "Exit:"})
    EXPECT_NE(help.out.find(s), std::string::npos) << s;
}

// scripts/bench_bf16.sh on the tiny model: the precision search, three
// builds and a table row (no onnxruntime needed). On a CPU without native
// bf16 it says so and exits 0.
TEST_F(BenchVsOrt, Bf16ScriptSearchesBuildsAndPrintsARow) {
  const std::string script = ShellQuote(std::string(GE_SOURCE_DIR) + "/scripts/bench_bf16.sh");
  ToolResult r = Shell(Env() + "MODELS=tiny_cnn OUT_DIR=" + ShellQuote(Path("out")) + " " + script);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  if (r.out.find("no native bf16") != std::string::npos) GTEST_SKIP() << r.out;
  EXPECT_NE(r.out.find("| tiny_cnn | "), std::string::npos) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("out/bf16/tiny_cnn.keep.txt")));
  EXPECT_TRUE(fs::exists(Path("out/bf16/tiny_cnn_keep.om")));
  ToolResult bad = Shell(Env() + script + " --bogus");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("unknown argument --bogus"), std::string::npos) << bad.Describe();
}

}  // namespace
}  // namespace ge::test
