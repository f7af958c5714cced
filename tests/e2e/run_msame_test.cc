// ge-run with msame and ais_bench command lines, as their users type them:
// folders of raw .bin inputs (one inference per file), ais_bench's output
// layout (DIR/NAME, STEM_K.EXT in BIN/NPY/TXT, NAME_summary.json), their
// flags accepted or refused with the reason, and one error line for every
// bad input list (docs/ge-run-msame.md).
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "ge/tools/npy.h"
#include "onnx/onnx_pb.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

// y = a + b over f32[2,3]: a model with two inputs.
std::string MsameTwoInputAddOnnx() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("ge-e2e-msame");
  auto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("two_input_add");
  auto value = [](onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
    tt->mutable_shape()->add_dim()->set_dim_value(3);
  };
  value(g->add_input(), "a");
  value(g->add_input(), "b");
  onnx::NodeProto* add = g->add_node();
  add->set_op_type("Add");
  add->set_name("add");
  add->add_input("a");
  add->add_input("b");
  add->add_output("y");
  value(g->add_output(), "y");
  std::string bytes;
  EXPECT_TRUE(m.SerializeToString(&bytes));
  return bytes;
}

std::string FloatBytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

class RunMsameTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }

  // ge-atc tiny_cnn.onnx -> m.om.
  std::string TinyOm() {
    ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("m")});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return Path("m.om");
  }

  // The tiny model's input scaled by 1, 2, 3, ... as raw .bin files in DIR
  // (s0.bin, s1.bin, ...) and as .npy files beside it (DIR_npy/sK.npy).
  void WriteTinyInputs(const std::string& dir, int n) {
    auto x = ReadNpy(kTinyInput);
    ASSERT_TRUE(x.ok()) << x.status().ToString();
    fs::create_directories(Path(dir));
    fs::create_directories(Path(dir + "_npy"));
    for (int k = 0; k < n; ++k) {
      std::vector<float> v(x->bytes.size() / 4);
      std::memcpy(v.data(), x->bytes.data(), x->bytes.size());
      for (float& f : v) f *= static_cast<float>(k + 1);
      WriteFileBytes(dir_ / dir / ("s" + std::to_string(k) + ".bin"), FloatBytes(v));
      ASSERT_TRUE(WriteNpy(Path(dir + "_npy/s" + std::to_string(k) + ".npy"), x->desc, v.data()).ok());
    }
  }

  // The output bytes of a plain `--input FILE.npy --output DIR` run (ge-run's own layout).
  std::string PlainRunOutput(const std::string& om, const std::string& npy, const std::string& out) {
    ToolResult r = Run("ge-run", {"--model", om, "--input", npy, "--output", Path(out)});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    const auto files = FilesEndingIn(Path(out), {".npy"});
    EXPECT_EQ(files.size(), 1u) << r.Describe();
    if (files.size() != 1) return "";
    auto a = ReadNpy(files[0]);
    EXPECT_TRUE(a.ok());
    return a.ok() ? std::string(a->bytes.begin(), a->bytes.end()) : "";
  }
};

// ais_bench's own example line over a folder of three .bin files: one
// inference per file, out/res/sK_0.bin holding what a plain .npy run gives.
TEST_F(RunMsameTest, AisBenchLineOverAFolderOfBinFilesWritesOneOutputPerFile) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 3);
  ToolResult r = Run("ge-run", {"--model", om, "--input", Path("in"), "--output", Path("out"), "--output_dirname", "res",
                                "--outfmt", "BIN", "--batchsize", "1", "--loop", "1", "--device", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("NPU_compute_time (ms): min = "), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("throughput 1000*batchsize.mean(1)/NPU_compute_time.mean("), std::string::npos);
  EXPECT_EQ(FilesEndingIn(Path("out"), {".bin"}).size(), 3u) << r.Describe();
  EXPECT_EQ(FilesEndingIn(Path("out"), {".tmp"}), std::vector<std::string>{});
  for (int k = 0; k < 3; ++k) {
    const std::string s = "s" + std::to_string(k);
    const fs::path bin = dir_ / "out" / "res" / (s + "_0.bin");
    ASSERT_TRUE(fs::exists(bin)) << bin;
    EXPECT_EQ(fs::file_size(bin), 16u) << "f32[1,4] is 16 bytes";
    EXPECT_EQ(ReadFileBytes(bin), PlainRunOutput(om, Path("in_npy/" + s + ".npy"), "plain" + std::to_string(k))) << s;
  }
  EXPECT_NE(ReadFileBytes(dir_ / "out/res/s0_0.bin"), ReadFileBytes(dir_ / "out/res/s1_0.bin")) << "inputs differ";
}

// DIR/NAME_summary.json with ais_bench's keys; the timed runs are one per
// inference and loop, throughput = 1000 * batchsize / mean ms.
TEST_F(RunMsameTest, SummaryJsonHasAisBenchKeys) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 2);
  ToolResult r = Run("ge-run", {"--model", om, "--input", Path("in"), "--output", Path("out"), "--output_dirname",
                                "res", "--batchsize", "8", "--loop", "3", "--display_all_summary", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  for (const char* line : {"H2D_latency (ms): ", "D2H_latency (ms): ", "NPU_compute_time (ms): "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  const fs::path summary = dir_ / "out" / "res_summary.json";
  ASSERT_TRUE(fs::exists(summary)) << r.Describe();
  const nlohmann::json j = nlohmann::json::parse(ReadFileBytes(summary), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  for (const char* key : {"NPU_compute_time", "H2D_latency", "D2H_latency"})
    for (const char* stat : {"min", "max", "mean", "median", "percentile(99%)", "count"})
      EXPECT_TRUE(j[key].contains(stat)) << key << "." << stat;
  EXPECT_EQ(j["NPU_compute_time"]["count"], 6) << "2 inferences x --loop 3";
  EXPECT_EQ(j["npu_compute_time_list"].size(), 6u);
  EXPECT_EQ(j["H2D_latency"]["count"], 2);
  EXPECT_EQ(j["D2H_latency"]["count"], 0) << "not measured";
  const double mean = j["NPU_compute_time"]["mean"];
  ASSERT_GT(mean, 0);
  EXPECT_NEAR(j["throughput"].get<double>(), 8 * 1000.0 / mean, 1e-6 * j["throughput"].get<double>());
  ASSERT_EQ(j["filesinfo"].size(), 2u);
  EXPECT_EQ(fs::path(j["filesinfo"]["1"]["infiles"][0].get<std::string>()).filename(), "s1.bin");
  EXPECT_EQ(fs::path(j["filesinfo"]["1"]["outfiles"][0].get<std::string>()).filename(), "s1_0.bin");
  EXPECT_TRUE(j["args"].is_array());
  EXPECT_TRUE(j.contains("pid"));
}

// NPY and TXT hold the same values as BIN.
TEST_F(RunMsameTest, NpyAndTxtFormatsHoldTheSameValues) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 1);
  for (const char* fmt : {"BIN", "NPY", "TXT"}) {
    ToolResult r = Run("ge-run", {"--model", om, "--input", Path("in"), "--output", Path("out"), "--output_dirname",
                                  fmt, "--outfmt", fmt});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }
  const std::string bin = ReadFileBytes(dir_ / "out/BIN/s0_0.bin");
  ASSERT_EQ(bin.size(), 16u);
  auto npy = ReadNpy((dir_ / "out/NPY/s0_0.npy").string());
  ASSERT_TRUE(npy.ok()) << npy.status().ToString();
  EXPECT_EQ(npy->desc.dims, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(std::string(npy->bytes.begin(), npy->bytes.end()), bin);
  const auto lines = SplitLines(ReadFileBytes(dir_ / "out/TXT/s0_0.txt"));
  ASSERT_EQ(lines.size(), 1u) << "one row of the last dimension per line";
  std::istringstream in(lines[0]);
  float want[4];
  std::memcpy(want, bin.data(), 16);
  for (float w : want) {
    float v = 0;
    ASSERT_TRUE(in >> v);
    EXPECT_EQ(v, w);
  }
}

// Without --output_dirname an ais_bench-only flag makes a timestamped folder;
// without any, ge-run writes into --output as before.
TEST_F(RunMsameTest, TimestampedFolderOnlyInAisBenchForm) {
  const std::string om = TinyOm();
  ToolResult r = Run("ge-run", {"--model", om, "--output", Path("out"), "--outfmt", "BIN", "--pure_data_type", "zero"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  std::vector<std::string> dirs;
  for (const auto& e : fs::directory_iterator(Path("out")))
    if (e.is_directory()) dirs.push_back(e.path().filename().string());
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_TRUE(std::regex_match(dirs[0], std::regex(R"(\d{4}_\d\d_\d\d-\d\d_\d\d_\d\d)"))) << dirs[0];
  EXPECT_TRUE(fs::exists(dir_ / "out" / (dirs[0] + "_summary.json")));
  EXPECT_TRUE(fs::exists(dir_ / "out" / dirs[0] / "pure_infer_data_0.bin"));
  ToolResult plain = Run("ge-run", {"--model", om, "--input", kTinyInput, "--output", Path("plain")});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  EXPECT_TRUE(fs::exists(dir_ / "plain" / "output.npy"));
  EXPECT_EQ(FilesEndingIn(Path("plain"), {".json"}), std::vector<std::string>{});
}

// Two inputs from two folders, paired by sorted file name.
TEST_F(RunMsameTest, TwoInputsFromTwoFolders) {
  WriteFileBytes(dir_ / "add.onnx", MsameTwoInputAddOnnx());
  ToolResult atc = Run("ge-atc", {"--model", Path("add.onnx"), "--framework", "5", "--output", Path("add")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  fs::create_directories(Path("a"));
  fs::create_directories(Path("b"));
  WriteFileBytes(dir_ / "a/1.bin", FloatBytes({1, 2, 3, 4, 5, 6}));
  WriteFileBytes(dir_ / "a/2.bin", FloatBytes({10, 20, 30, 40, 50, 60}));
  WriteFileBytes(dir_ / "b/x.bin", FloatBytes({0.5, 0.5, 0.5, 0.5, 0.5, 0.5}));
  WriteFileBytes(dir_ / "b/y.bin", FloatBytes({1, 1, 1, 1, 1, 1}));
  ToolResult r = Run("ge-run", {"--model", Path("add.om"), "--input", Path("a") + "," + Path("b"), "--output",
                                Path("out"), "--output_dirname", "res", "--outfmt", "BIN"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadFileBytes(dir_ / "out/res/1_0.bin"), FloatBytes({1.5, 2.5, 3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(ReadFileBytes(dir_ / "out/res/2_0.bin"), FloatBytes({11, 21, 31, 41, 51, 61}));
}

// msame's line (--outfmt TXT, --debug true, --outputSize) and the msame /
// ais_bench flags that are no-ops at their defaults run unchanged.
TEST_F(RunMsameTest, MsameLineAndNoOpFlagsRun) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 1);
  ToolResult r = Run("ge-run", {"--model", om, "--input", Path("in/s0.bin"), "--output", Path("out"), "--outfmt", "TXT",
                                "--loop", "2", "--debug", "true", "--device", "0", "--outputSize", "16", "--dump",
                                "false", "--profiler", "0", "--dymBatch", "0", "--run_mode", "array", "--warmup_count",
                                "1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("[debug] inference 0: inputs "), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("s0.bin"), std::string::npos);
  EXPECT_NE(r.out.find("f32[1,4]"), std::string::npos);
  EXPECT_EQ(FilesEndingIn(Path("out"), {"s0_0.txt"}).size(), 1u) << r.Describe();
  ToolResult bare = Run("ge-run", {"--model", om, "--debug", "--loop", "1"});
  EXPECT_EQ(bare.exit_code, 0) << bare.Describe();
}

// The one folder ge-run made inside `dir` (msame's and ais_bench's timestamped result folders).
std::string OnlySubdir(const fs::path& dir) {
  std::vector<std::string> dirs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) dirs.push_back(e.path().filename().string());
  EXPECT_EQ(dirs.size(), 1u) << dir;
  return dirs.empty() ? "" : dirs[0];
}

std::vector<float> TxtFloats(const std::string& text) {
  std::vector<float> v;
  std::istringstream in(text);
  for (float f; in >> f;) v.push_back(f);
  return v;
}

// Run under the name `msame` (the link installed beside ge-run), msame's own
// line writes msame's layout: out/YYYYMMDD_HHMMSS/<model>_output_K.txt, and
// ends with msame's timing lines.
TEST_F(RunMsameTest, RunAsMsameWritesMsamesLayout) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 2);
  ASSERT_TRUE(fs::exists(ToolPath("msame"))) << "the msame link is not built";
  ToolResult r = Run("msame", {"--model", om, "--input", Path("in/s1.bin"), "--output", Path("out"), "--outfmt", "TXT",
                               "--loop", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("Inference average time: "), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("Inference average time without first time: "), std::string::npos) << r.Describe();
  const std::string ts = OnlySubdir(Path("out"));
  EXPECT_TRUE(std::regex_match(ts, std::regex(R"(\d{8}_\d{6})"))) << ts;
  const fs::path txt = dir_ / "out" / ts / "m_output_0.txt";
  ASSERT_TRUE(fs::exists(txt)) << r.Describe();
  const std::string plain = PlainRunOutput(om, Path("in_npy/s1.npy"), "plain1");
  std::vector<float> want(plain.size() / 4);
  std::memcpy(want.data(), plain.data(), plain.size());
  EXPECT_EQ(TxtFloats(ReadFileBytes(txt)), want);
  EXPECT_EQ(FilesEndingIn(Path("out"), {".json"}), std::vector<std::string>{}) << "msame writes no summary";
}

// msame over a folder names each inference's outputs after its input file;
// without --input it runs on zeros, as msame does.
TEST_F(RunMsameTest, MsameFolderAndZeroInputs) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 2);
  ToolResult r = Run("msame", {"--model", om, "--input", Path("in"), "--output", Path("out")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("Inference average time : "), std::string::npos) << r.Describe();
  const std::string ts = OnlySubdir(Path("out"));
  for (int k = 0; k < 2; ++k) {
    const std::string s = "s" + std::to_string(k);
    EXPECT_EQ(ReadFileBytes(dir_ / "out" / ts / (s + "_output_0.bin")),
              PlainRunOutput(om, Path("in_npy/" + s + ".npy"), "plain" + std::to_string(k)));
  }
  ToolResult zero = Run("msame", {"--model", om, "--output", Path("zero")});
  ASSERT_EQ(zero.exit_code, 0) << zero.Describe();
  ToolResult ais = Run("ge-run", {"--model", om, "--output", Path("ais"), "--output_dirname", "res",
                                  "--pure_data_type", "zero"});
  ASSERT_EQ(ais.exit_code, 0) << ais.Describe();
  EXPECT_EQ(ReadFileBytes(dir_ / "zero" / OnlySubdir(Path("zero")) / "m_output_0.bin"),
            ReadFileBytes(dir_ / "ais/res/pure_infer_data_0.bin"));
}

// --output_layout picks a layout under any name; ge-run's own honours --outfmt.
TEST_F(RunMsameTest, OutputLayoutFlag) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 1);
  ToolResult r = Run("ge-run", {"--model", om, "--input", Path("in/s0.bin"), "--output", Path("out"), "--output_layout",
                                "msame"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::string plain = PlainRunOutput(om, Path("in_npy/s0.npy"), "plain");
  EXPECT_EQ(ReadFileBytes(dir_ / "out" / OnlySubdir(Path("out")) / "m_output_0.bin"), plain);
  ToolResult ge = Run("ge-run", {"--model", om, "--input", Path("in_npy/s0.npy"), "--output", Path("ge"),
                                 "--output_layout", "ge", "--outfmt", "BIN"});
  ASSERT_EQ(ge.exit_code, 0) << ge.Describe();
  EXPECT_EQ(ReadFileBytes(dir_ / "ge/output.bin"), plain);
  EXPECT_EQ(FilesEndingIn(Path("ge"), {".json"}), std::vector<std::string>{});
}

// Every bad input, output or foreign flag: one error line naming it, exit 1.
TEST_F(RunMsameTest, ErrorsAreOneLine) {
  const std::string om = TinyOm();
  WriteTinyInputs("in", 2);
  WriteFileBytes(dir_ / "short.bin", std::string(100, '\0'));
  fs::create_directories(Path("one"));
  WriteFileBytes(dir_ / "one/a.bin", std::string(3072, '\0'));
  fs::create_directories(Path("empty"));
  WriteFileBytes(dir_ / "add.onnx", MsameTwoInputAddOnnx());
  ASSERT_EQ(Run("ge-atc", {"--model", Path("add.onnx"), "--framework", "5", "--output", Path("add")}).exit_code, 0);
  struct Case {
    std::string om;
    std::vector<std::string> args;
    std::vector<std::string> parts;
  };
  const std::string add = Path("add.om");
  for (const Case& c : std::vector<Case>{
           {om, {"--input", Path("short.bin")}, {"short.bin", "100 bytes", "expected 3072 bytes", "--input"}},
           {add, {"--input", Path("in") + "," + Path("one")}, {"one", "holds 1 files", "holds 2", "--input"}},
           {om, {"--input", Path("empty")}, {"empty", "no files"}},
           {om, {"--input", Path("missing.bin")}, {"missing.bin", "no such file"}},
           {om, {"--input", Path("in"), "--compare", kTinyGolden}, {"--compare", "one input set"}},
           {om, {"--outputSize", "32"}, {"--outputSize", "16 bytes"}},
           {om, {"--outputSize", "16,16"}, {"--outputSize", "1 outputs"}},
           {om, {"--output_dirname", "res"}, {"--output_dirname", "needs --output"}},
           {om, {"--output", Path("out"), "--outfmt", "CSV"}, {"--outfmt", "CSV"}},
           {om, {"--dymHW", "224,224"}, {"--dymHW", "no gears"}},
           {om, {"--dump", "true"}, {"--dump", "ge-dump"}},
           {om, {"--debug", "maybe"}, {"--debug maybe"}},
           {om, {"--pure_data_type", "ones"}, {"--pure_data_type"}},
           {om, {"--output_layout", "trtexec"}, {"--output_layout trtexec", "ge, msame or ais_bench"}},
           {om, {"--output", Path("out"), "--output_layout", "msame", "--output_dirname", "res"},
            {"--output_dirname is ais_bench's", "YYYYMMDD_HHMMSS"}},
       }) {
    std::vector<std::string> args = {"--model", c.om};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ExpectOneErrorLine(Run("ge-run", args), "ge-run", c.parts);
  }
}

TEST_F(RunMsameTest, HelpExplainsTheMsameAndAisBenchFlags) {
  ToolResult r = Run("ge-run", {"--help"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* flag : {"--output_dirname", "--outfmt", "--outputSize", "--warmup_count", "--batchsize",
                           "--pure_data_type", "--debug", "--display_all_summary", "--dymBatch", "--run_mode", "ais_bench",
                           "msame"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

}  // namespace
}  // namespace ge::test
