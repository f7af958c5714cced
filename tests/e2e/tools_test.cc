// End-to-end tests of the four tools as a user runs them: the built binaries,
// their exit codes, stdout and stderr, and the files they leave behind.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "ge/tools/compare.h"
#include "compiler/memory/memory_planner.h"
#include "compiler/tasks/task_builder.h"
#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/model.h"
#include "ge/tools/npy.h"
#include "ge/om.h"
#include "onnx/onnx_pb.h"
#include "tests/common/temp_leftovers.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class ToolsTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run", "ge-lint", "ge-dump"})
      ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }

  // ge-atc tiny_cnn.onnx -> DIR/NAME.om; returns the .om path.
  std::string ConvertTiny(const std::string& output = "tiny_cnn") {
    ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path(output)});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    const std::string om = Path(output) + ".om";
    EXPECT_TRUE(fs::exists(om)) << r.Describe();
    return om;
  }

  // The result of ge-atc must be the error line and no .om (or temporary) anywhere.
  void ExpectAtcFailsCleanly(const ToolResult& r, const std::vector<std::string>& fragments) {
    ExpectOneErrorLine(r, "ge-atc", fragments);
    EXPECT_EQ(FilesEndingIn(dir_, {".om", ".om.tmp", ".tmp"}), std::vector<std::string>{}) << r.Describe();
  }
};

// ------------------------------------------------------------------- --help

TEST_F(ToolsTest, HelpOfEveryToolExitsZeroAndExplains) {
  for (const char* tool : {"ge-atc", "ge-run", "ge-lint", "ge-dump"}) {
    ToolResult r = Run(tool, {"--help"});
    SCOPED_TRACE(r.Describe());
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find(tool), std::string::npos) << "help does not name the tool";
    EXPECT_NE(r.out.find("--model"), std::string::npos);
    EXPECT_NE(r.out.find("--log"), std::string::npos);
    EXPECT_GT(r.out.size(), 300u) << "help too short to explain anything";
    EXPECT_EQ(r.err, "");
  }
  EXPECT_NE(Run("ge-atc", {"--help"}).out.find("--framework"), std::string::npos);
  EXPECT_NE(Run("ge-atc", {"--help"}).out.find("--output"), std::string::npos);
  const std::string run_help = Run("ge-run", {"--help"}).out;
  for (const char* flag : {"--input", "--output", "--compare", "--loop", "--warmup", "--json", "--mode"})
    EXPECT_NE(run_help.find(flag), std::string::npos) << flag;
  EXPECT_NE(Run("ge-dump", {"--help"}).out.find("--out"), std::string::npos);
}

// ------------------------------------------------------- convert, run, check

TEST_F(ToolsTest, AtcThenRunOnTinyCnnComparesPass) {
  ToolResult atc = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny_cnn")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  EXPECT_NE(atc.out.find("tiny_cnn.om"), std::string::npos) << atc.Describe();
  EXPECT_EQ(FilesEndingIn(dir_, {".tmp"}), std::vector<std::string>{});
  ToolResult run = Run("ge-run", {"--model", Path("tiny_cnn.om"), "--input", kTinyInput, "--compare", kTinyGolden});
  SCOPED_TRACE(run.Describe());
  EXPECT_EQ(run.exit_code, 0);
  const auto lines = SplitLines(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "PASS");
  EXPECT_EQ(run.out.find("FAIL"), std::string::npos);
  EXPECT_NE(run.out.find("cosine"), std::string::npos);
}

// The device comes from the registry: by name, by index 0 (msame's form), or
// the .om's recorded target; anything else is one error line naming --device.
TEST_F(ToolsTest, RunPicksItsDeviceByNameIndexOrTheOmsTarget) {
  const std::string om = ConvertTiny();
  ToolResult json = Run("ge-atc", {"--mode", "1", "--om", om, "--json", Path("tiny.json")});
  ASSERT_EQ(json.exit_code, 0) << json.Describe();
  EXPECT_EQ(nlohmann::json::parse(ReadFileBytes(Path("tiny.json")))["model"]["target"], "cpu");
  for (const std::vector<std::string>& device : {std::vector<std::string>{}, {"--device", "cpu"}, {"--device", "0"}})
    for (const char* mode : {"v2", "sink"}) {
      std::vector<std::string> args = {"--model", om, "--mode", mode, "--input", kTinyInput, "--compare", kTinyGolden, "--json"};
      args.insert(args.end(), device.begin(), device.end());
      ToolResult r = Run("ge-run", args);
      ASSERT_EQ(r.exit_code, 0) << r.Describe();
      EXPECT_EQ(nlohmann::json::parse(r.out)["device"], "cpu") << r.Describe();
    }
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--device", "npu9"}), "ge-run",
                     {"--device", "unknown device 'npu9'", "registered: cpu"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--device", "3"}), "ge-run", {"--device 3", "no such device index"});
}

TEST_F(ToolsTest, ConvertingTheSameModelTwiceGivesByteIdenticalOm) {
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  const std::string a = ConvertTiny("a/tiny");
  const std::string b = ConvertTiny("b/tiny");
  const std::string ba = ReadFileBytes(a), bb = ReadFileBytes(b);
  ASSERT_GT(ba.size(), 64u);
  EXPECT_TRUE(ba == bb) << "two conversions differ (" << ba.size() << " vs " << bb.size() << " bytes)";
}

TEST_F(ToolsTest, Mode1WritesTheOmAsJson) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-atc", {"--mode", "1", "--om", om, "--json", Path("tiny.json")});
  SCOPED_TRACE(r.Describe());
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(fs::exists(Path("tiny.json")));
  EXPECT_EQ(TempFilesLeftFor(Path("tiny.json")), std::vector<std::string>{});
  nlohmann::json j = nlohmann::json::parse(ReadFileBytes(Path("tiny.json")), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "not JSON";
  ASSERT_TRUE(j.contains("header"));
  ASSERT_TRUE(j.contains("sections"));
  ASSERT_TRUE(j.contains("model"));
  EXPECT_EQ(j["header"]["version"], "1.0");
  EXPECT_EQ(j["header"]["file_size"].get<uint64_t>(), fs::file_size(om));
  EXPECT_EQ(j["sections"].size(), 2u);
  EXPECT_EQ(j["model"]["name"], "tiny_cnn");
  EXPECT_EQ(j["model"]["framework"], "onnx");
  EXPECT_TRUE(j["model"]["graph"]["nodes"].is_array());
  EXPECT_GT(j["model"]["graph"]["nodes"].size(), 3u);
}

TEST_F(ToolsTest, RunOutputWritesOneNpyPerOutputThatMatchesTheGolden) {
  const std::string om = ConvertTiny();
  const std::string out_dir = Path("outs/nested");  // created if missing
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--output", out_dir});
  SCOPED_TRACE(r.Describe());
  ASSERT_EQ(r.exit_code, 0);
  const auto files = FilesEndingIn(out_dir, {".npy"});
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(FilesEndingIn(out_dir, {".tmp"}), std::vector<std::string>{});
  auto got = ReadNpy(files[0]);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto golden = ReadNpy(kTinyGolden);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  EXPECT_EQ(got->desc.dims, golden->desc.dims);
  EXPECT_EQ(got->desc.dtype, golden->desc.dtype);
  CompareResult c = CompareTensors(got->desc, got->bytes.data(), *golden);
  EXPECT_TRUE(c.pass) << c.reason;
}

TEST_F(ToolsTest, RunJsonPrintsParseableJsonWithLatencyAndCompare) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--compare", kTinyGolden, "--json"});
  SCOPED_TRACE(r.Describe());
  ASSERT_EQ(r.exit_code, 0);
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "stdout is not (only) JSON";
  ASSERT_TRUE(j.contains("latency_ms"));
  for (const char* k : {"p50", "p90", "p99"}) {
    ASSERT_TRUE(j["latency_ms"].contains(k)) << k;
    EXPECT_TRUE(j["latency_ms"][k].is_number()) << k;
    EXPECT_GE(j["latency_ms"][k].get<double>(), 0.0) << k;
  }
  EXPECT_EQ(j["compare"], "PASS");
  ASSERT_TRUE(j["outputs"].is_array());
  ASSERT_EQ(j["outputs"].size(), 1u);
  EXPECT_EQ(j["outputs"][0]["pass"], true);
}

TEST_F(ToolsTest, LoopAndWarmupPrintLatencyPercentiles) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--loop", "5", "--warmup", "1"});
  SCOPED_TRACE(r.Describe());
  ASSERT_EQ(r.exit_code, 0);
  for (const char* k : {"p50", "p90", "p99"}) EXPECT_NE(r.out.find(k), std::string::npos) << k;
  EXPECT_NE(r.out.find("5 runs"), std::string::npos);

  ToolResult j = Run("ge-run", {"--model", om, "--input", kTinyInput, "--loop", "5", "--warmup", "1", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.Describe();
  auto js = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_FALSE(js.is_discarded()) << j.Describe();
  EXPECT_EQ(js["latency_ms"]["runs"], 5);
  EXPECT_EQ(js["latency_ms"]["warmup"], 1);
  EXPECT_LE(js["latency_ms"]["p50"].get<double>(), js["latency_ms"]["p90"].get<double>());
  EXPECT_LE(js["latency_ms"]["p90"].get<double>(), js["latency_ms"]["p99"].get<double>());
  EXPECT_FALSE(js.contains("compare")) << "no --compare, so no verdict";
}

TEST_F(ToolsTest, RunWithRandomInputWorks) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-run", {"--model", om, "--input", "random", "--seed", "3"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  ToolResult d = Run("ge-run", {"--model", om});
  EXPECT_EQ(d.exit_code, 0) << d.Describe();
}

TEST_F(ToolsTest, CompareAgainstAWrongGoldenFails) {
  const std::string om = ConvertTiny();
  auto golden = ReadNpy(kTinyGolden);
  ASSERT_TRUE(golden.ok()) << golden.status().ToString();
  ASSERT_EQ(golden->desc.dtype, DataType::kFloat32);
  NpyArray wrong = *golden;
  float* v = reinterpret_cast<float*>(wrong.bytes.data());
  v[0] += 0.5f;  // softmax outputs are <= 1: far outside the tolerance
  ASSERT_TRUE(WriteNpy(Path("wrong.npy"), wrong.desc, wrong.bytes.data()).ok());
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--compare", Path("wrong.npy")});
  SCOPED_TRACE(r.Describe());
  EXPECT_FALSE(r.signaled);
  EXPECT_EQ(r.exit_code, 1);
  const auto lines = SplitLines(r.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "FAIL");
  EXPECT_EQ(r.out.find("PASS"), std::string::npos);

  ToolResult j = Run("ge-run", {"--model", om, "--input", kTinyInput, "--compare", Path("wrong.npy"), "--json"});
  EXPECT_EQ(j.exit_code, 1) << j.Describe();
  auto js = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_FALSE(js.is_discarded()) << j.Describe();
  EXPECT_EQ(js["compare"], "FAIL");
  EXPECT_EQ(js["outputs"][0]["pass"], false);
}

TEST_F(ToolsTest, CompareAgainstAGoldenOfAnotherShapeFails) {
  const std::string om = ConvertTiny();
  auto golden = ReadNpy(kTinyGolden);
  ASSERT_TRUE(golden.ok());
  TensorDesc flat(golden->desc.dtype, {golden->desc.NumElements()});  // same values, [4] instead of [1,4]
  ASSERT_TRUE(WriteNpy(Path("flat.npy"), flat, golden->bytes.data()).ok());
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--compare", Path("flat.npy")});
  SCOPED_TRACE(r.Describe());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAIL"), std::string::npos);
}

// ------------------------------------------------------------ bad input: atc

TEST_F(ToolsTest, AtcMissingModelFile) {
  ToolResult r = Run("ge-atc", {"--model", Path("absent.onnx"), "--framework", "5", "--output", Path("m")});
  ExpectAtcFailsCleanly(r, {"absent.onnx"});
}

TEST_F(ToolsTest, AtcTextFileRenamedOnnx) {
  WriteFileBytes(Path("notes.onnx"), "These are my notes, not a model.\nline two\n");
  ToolResult r = Run("ge-atc", {"--model", Path("notes.onnx"), "--framework", "5", "--output", Path("m")});
  ExpectAtcFailsCleanly(r, {"notes.onnx"});
}

TEST_F(ToolsTest, AtcEmptyAndTruncatedOnnx) {
  WriteFileBytes(Path("empty.onnx"), "");
  ExpectAtcFailsCleanly(Run("ge-atc", {"--model", Path("empty.onnx"), "--framework", "5", "--output", Path("m")}),
                        {"empty.onnx"});
  const std::string full = ReadFileBytes(kTinyOnnx);
  WriteFileBytes(Path("cut.onnx"), full.substr(0, full.size() / 2));
  ExpectAtcFailsCleanly(Run("ge-atc", {"--model", Path("cut.onnx"), "--framework", "5", "--output", Path("m")}),
                        {"cut.onnx"});
}

// --framework 3 is TensorFlow (tests/e2e/tf_models_test.cc); an ONNX file given as one is no GraphDef.
TEST_F(ToolsTest, AtcFramework3RejectsAnOnnxFile) {
  ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "3", "--output", Path("m")});
  ExpectAtcFailsCleanly(r, {"tiny_cnn.onnx", "not a TensorFlow GraphDef"});
}

TEST_F(ToolsTest, AtcFramework7IsRejected) {
  ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "7", "--output", Path("m")});
  ExpectAtcFailsCleanly(r, {"--framework", "7"});
}

TEST_F(ToolsTest, AtcWithoutRequiredFlags) {
  ExpectAtcFailsCleanly(Run("ge-atc", {"--framework", "5", "--output", Path("m")}), {"--model"});
  ExpectAtcFailsCleanly(Run("ge-atc", {"--model", kTinyOnnx, "--output", Path("m")}), {"--framework"});
  ExpectAtcFailsCleanly(Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5"}), {"--output"});
}

TEST_F(ToolsTest, BadFlagOfEveryTool) {
  ExpectAtcFailsCleanly(Run("ge-atc", {"--bogus", "--model", kTinyOnnx, "--framework", "5", "--output", Path("m")}),
                        {"--bogus"});
  const std::string om = ConvertTiny();
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--bogus"}), "ge-run", {"--bogus"});
  ExpectOneErrorLine(Run("ge-lint", {"--model", kTinyOnnx, "--bogus"}), "ge-lint", {"--bogus"});
  ExpectOneErrorLine(Run("ge-dump", {"--model", kTinyOnnx, "--bogus"}), "ge-dump", {"--bogus"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--log", "loud"}), "ge-run", {"--log"});
}

TEST_F(ToolsTest, AtcBadInputShape) {
  for (const std::string& shape : {std::string("input:1,x,16,16"), std::string("input"), std::string("input:1,3,-5,16"),
                                   std::string(":1,3")}) {
    SCOPED_TRACE(shape);
    ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("m"), "--input_shape", shape});
    ExpectAtcFailsCleanly(r, {"--input_shape"});
  }
}

TEST_F(ToolsTest, AtcInputShapeNamingNoInputIsAnError) {
  // A typo in --input_shape must not be ignored silently.
  ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("m"), "--input_shape",
                                "inptu:1,3,16,16"});
  ExpectAtcFailsCleanly(r, {"inptu"});
}

TEST_F(ToolsTest, AtcIntoAMissingDirectoryLeavesNothing) {
  ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("no/such/dir/m")});
  ExpectAtcFailsCleanly(r, {"no/such/dir/m"});
  EXPECT_FALSE(fs::exists(Path("no")));
}

TEST_F(ToolsTest, AtcMode1OfACorruptOmWritesNoJson) {
  const std::string om = ConvertTiny();
  std::string bytes = ReadFileBytes(om);
  bytes[bytes.size() / 2] ^= 0x04;
  WriteFileBytes(Path("bad.om"), bytes);
  ToolResult r = Run("ge-atc", {"--mode", "1", "--om", Path("bad.om"), "--json", Path("bad.json")});
  ExpectOneErrorLine(r, "ge-atc", {"bad.om"});
  EXPECT_FALSE(fs::exists(Path("bad.json")));
  EXPECT_EQ(TempFilesLeftFor(Path("bad.json")), std::vector<std::string>{});
  ExpectOneErrorLine(Run("ge-atc", {"--mode", "1", "--om", om}), "ge-atc", {"--json"});
  ExpectOneErrorLine(Run("ge-atc", {"--mode", "2", "--om", om, "--json", Path("x.json")}), "ge-atc", {"--mode"});
}

// An ONNX model (built here with the onnx protos) with two ops the op
// registry lacks: the error lists both, by node name and op type.
std::string TwoUnsupportedOpsModel(const std::string& second_op) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("ge-e2e-test");
  auto* opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(15);  // Bernoulli's first
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("two_unsupported");
  auto add_value = [](onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) {
      if (d >= 0) shape->add_dim()->set_dim_value(d);
      else shape->add_dim()->set_dim_param("N");
    }
  };
  add_value(g->add_input(), "x", {3, 3});
  onnx::NodeProto* relu = g->add_node();  // a supported node first, so the problems are not at the very start
  relu->set_op_type("Relu");
  relu->set_name("relu_ok");
  relu->add_input("x");
  relu->add_output("r");
  onnx::NodeProto* first = g->add_node();  // ops ge does not support
  first->set_op_type("RandomNormalLike");
  first->set_name("random_node");
  first->add_input("r");
  first->add_output("d");
  onnx::NodeProto* second = g->add_node();
  second->set_op_type(second_op);
  second->set_name("second_node");
  second->add_input("r");
  second->add_output("s");
  add_value(g->add_output(), "d", {3, 3});
  add_value(g->add_output(), "s", second_op == "Bernoulli" ? std::vector<int64_t>{-1, 3} : std::vector<int64_t>{3, 3});
  std::string bytes;
  EXPECT_TRUE(m.SerializeToString(&bytes));
  return bytes;
}

TEST_F(ToolsTest, AtcListsEveryUnsupportedNode) {
  for (const std::string& second : {std::string("Bernoulli"), std::string("RandomUniformLike")}) {
    SCOPED_TRACE(second);
    WriteFileBytes(Path("two.onnx"), TwoUnsupportedOpsModel(second));
    ToolResult r = Run("ge-atc", {"--model", Path("two.onnx"), "--framework", "5", "--output", Path("two")});
    ExpectAtcFailsCleanly(r, {"random_node", "RandomNormalLike", "second_node", second});
  }
}

// ------------------------------------------------------------ bad input: run

TEST_F(ToolsTest, RunMissingModelFile) {
  ExpectOneErrorLine(Run("ge-run", {"--model", Path("absent.om")}), "ge-run", {"absent.om"});
  ExpectOneErrorLine(Run("ge-run", {}), "ge-run", {"--model"});
}

TEST_F(ToolsTest, RunTruncatedOm) {
  const std::string om = ConvertTiny();
  const std::string bytes = ReadFileBytes(om);
  for (size_t len : {size_t{0}, size_t{10}, size_t{64}, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE(len);
    WriteFileBytes(Path("cut.om"), bytes.substr(0, len));
    ExpectOneErrorLine(Run("ge-run", {"--model", Path("cut.om"), "--input", kTinyInput}), "ge-run", {"cut.om"});
  }
}

TEST_F(ToolsTest, RunBitFlippedOm) {
  const std::string om = ConvertTiny();
  const std::string bytes = ReadFileBytes(om);
  for (size_t pos : {size_t{3}, size_t{20}, size_t{70}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE(pos);
    std::string bad = bytes;
    bad[pos] = static_cast<char>(bad[pos] ^ (1 << (pos % 8)));
    WriteFileBytes(Path("flip.om"), bad);
    ExpectOneErrorLine(Run("ge-run", {"--model", Path("flip.om"), "--input", kTinyInput}), "ge-run", {"flip.om"});
  }
}

TEST_F(ToolsTest, RunGivenAnOnnxInsteadOfAnOm) {
  ExpectOneErrorLine(Run("ge-run", {"--model", kTinyOnnx}), "ge-run", {"tiny_cnn.onnx"});
}

TEST_F(ToolsTest, RunInputOfTheWrongShapeOrType) {
  const std::string om = ConvertTiny();
  auto in = ReadNpy(kTinyInput);
  ASSERT_TRUE(in.ok());
  // Wrong shape: one more column.
  TensorDesc wider = in->desc;
  wider.dims.back() += 1;
  std::vector<uint8_t> zeros(static_cast<size_t>(wider.Bytes()), 0);
  ASSERT_TRUE(WriteNpy(Path("wide.npy"), wider, zeros.data()).ok());
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", Path("wide.npy")}), "ge-run", {"wide.npy"});
  // Wrong dtype, same shape.
  TensorDesc f64(DataType::kFloat64, in->desc.dims);
  std::vector<uint8_t> dz(static_cast<size_t>(f64.Bytes()), 0);
  ASSERT_TRUE(WriteNpy(Path("f64.npy"), f64, dz.data()).ok());
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", Path("f64.npy")}), "ge-run", {"f64.npy"});
  // Not a .npy at all, and missing.
  WriteFileBytes(Path("text.npy"), "1 2 3\n");
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", Path("text.npy")}), "ge-run", {"text.npy"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", Path("gone.npy")}), "ge-run", {"gone.npy"});
  // Too many files.
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", kTinyInput + "," + kTinyInput}), "ge-run", {"--input"});
}

TEST_F(ToolsTest, RunBadCompareAndLoopFlags) {
  const std::string om = ConvertTiny();
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", kTinyInput, "--compare", Path("gone.npy")}), "ge-run",
                     {"gone.npy"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--compare", kTinyGolden + "," + kTinyGolden}), "ge-run",
                     {"--compare"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--loop", "0"}), "ge-run", {"--loop"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--warmup", "-1"}), "ge-run", {"--warmup"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--mode", "v3"}), "ge-run", {"--mode"});
}

TEST_F(ToolsTest, RunModeSinkRunsTheModel) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-run", {"--model", om, "--input", kTinyInput, "--mode", "sink"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
}

// A .om whose IO description is smaller than what its graph produces (a
// crafted or mis-written file, every checksum valid): ge-run sizes its
// buffers by the description, so the runtime must not copy the graph's
// 256 KiB output into a 4-byte buffer. Loading must refuse the file.
TEST_F(ToolsTest, RunRefusesAnOmWhoseIoDescriptionsDisagreeWithItsGraph) {
  Model m;
  m.name = "liar";
  m.producer = "ge-e2e-test";
  m.graph = std::make_unique<Graph>("liar");
  Node* x = m.graph->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 65536});
  Node* relu = m.graph->AddNode("Relu", "relu", 1, 1);
  relu->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 65536});
  Node* out = m.graph->AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(m.graph->AddEdge(x, 0, relu, 0).ok());
  ASSERT_TRUE(m.graph->AddEdge(relu, 0, out, 0).ok());
  DescribeModelIo(m);
  // Planned as the compiler plans: the runtime only loads plans.
  auto plan = memory::PlanMemory(*m.graph, memory::PlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  m.memory = *plan;
  auto tasks = tasks::BuildTasks(*m.graph, m.memory);
  ASSERT_TRUE(tasks.ok()) << tasks.status().ToString();
  m.streams = *tasks;
  ASSERT_TRUE(WriteOmFile(m, Path("honest.om")).ok());
  m.outputs[0].desc = TensorDesc(DataType::kFloat32, {1, 1});
  ASSERT_TRUE(WriteOmFile(m, Path("liar_out.om")).ok());
  DescribeModelIo(m);
  m.inputs[0].desc = TensorDesc(DataType::kFloat32, {1, 1});
  ASSERT_TRUE(WriteOmFile(m, Path("liar_in.om")).ok());
  // Both runtimes size user buffers by the descriptions, so both refuse.
  for (const std::string mode : {"v2", "sink"}) {
    ToolResult honest = Run("ge-run", {"--model", Path("honest.om"), "--mode", mode});
    ASSERT_EQ(honest.exit_code, 0) << "the honest model should run: " << honest.Describe();
    ExpectOneErrorLine(Run("ge-run", {"--model", Path("liar_out.om"), "--mode", mode}), "ge-run", {"liar_out.om"});
    ExpectOneErrorLine(Run("ge-run", {"--model", Path("liar_in.om"), "--mode", mode}), "ge-run", {"liar_in.om"});
  }
}

// A directory where a file is expected is a bad input like any other.
TEST_F(ToolsTest, ADirectoryGivenAsAFileIsAnErrorNotACrash) {
  fs::create_directories(Path("dir.om"));
  fs::create_directories(Path("dir.onnx"));
  fs::create_directories(Path("dir.npy"));
  const std::string om = ConvertTiny();
  ExpectOneErrorLine(Run("ge-run", {"--model", Path("dir.om")}), "ge-run", {"dir.om"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", Path("dir.npy")}), "ge-run", {"dir.npy"});
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--compare", Path("dir.npy")}), "ge-run", {"dir.npy"});
  ExpectOneErrorLine(Run("ge-lint", {"--model", Path("dir.om")}), "ge-lint", {"dir.om"});
  ExpectOneErrorLine(Run("ge-dump", {"--model", Path("dir.om")}), "ge-dump", {"dir.om"});
  ExpectOneErrorLine(Run("ge-atc", {"--mode", "1", "--om", Path("dir.om"), "--json", Path("x.json")}), "ge-atc",
                     {"dir.om"});
  ExpectOneErrorLine(Run("ge-atc", {"--model", Path("dir.onnx"), "--framework", "5", "--output", Path("m")}), "ge-atc",
                     {"dir.onnx"});
  EXPECT_FALSE(fs::exists(Path("m.om")));
  EXPECT_FALSE(fs::exists(Path("x.json")));
}

TEST_F(ToolsTest, RunOutputIntoAFileFails) {
  const std::string om = ConvertTiny();
  WriteFileBytes(Path("afile"), "x");
  ExpectOneErrorLine(Run("ge-run", {"--model", om, "--input", kTinyInput, "--output", Path("afile")}), "ge-run",
                     {"afile"});
}

// ---------------------------------------------------------------- lint, dump

TEST_F(ToolsTest, LintAndDumpOnTinyCnn) {
  ToolResult lint = Run("ge-lint", {"--model", kTinyOnnx});
  EXPECT_EQ(lint.exit_code, 0) << lint.Describe();
  EXPECT_NE(lint.out.find("0 errors, 0 warnings, 0 notes"), std::string::npos) << lint.Describe();
  ToolResult dump = Run("ge-dump", {"--model", kTinyOnnx});
  SCOPED_TRACE(dump.Describe());
  EXPECT_EQ(dump.exit_code, 0);
  EXPECT_EQ(dump.out.rfind("graph ", 0), 0u) << "stdout is not the graph text";
  for (const char* op : {"Data", "Conv", "Gemm", "Softmax", "NetOutput"}) EXPECT_NE(dump.out.find(op), std::string::npos) << op;
  // Both also read a .om.
  const std::string om = ConvertTiny();
  EXPECT_EQ(Run("ge-lint", {"--model", om}).exit_code, 0);
  ToolResult dump_om = Run("ge-dump", {"--model", om});
  EXPECT_EQ(dump_om.exit_code, 0) << dump_om.Describe();
  EXPECT_EQ(dump_om.out, dump.out) << "the IR stored in the .om differs from the compiled IR";
}

// An .om edited behind its checksums (the last task dropped, then every CRC
// recomputed by writing it again) decodes but means something else: every
// tool that loads it refuses it with one line naming the model check.
TEST_F(ToolsTest, AnEditedOmIsRefusedByTheModelCheck) {
  const std::string om = ConvertTiny();
  auto loaded = ReadOmFile(om);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  Model& m = loaded->model;
  m.streams[0].tasks.pop_back();
  const std::string bad = Path("edited.om");
  ASSERT_TRUE(WriteOmFile(m, bad).ok());
  for (const char* mode : {"v2", "sink"})
    ExpectOneErrorLine(Run("ge-run", {"--model", bad, "--mode", mode, "--input", kTinyInput}), "ge-run",
                       {"edited.om", "model check", "has no task"});
  // ge-lint reports it as a finding (E18002, exit 1), not as an unreadable model.
  ToolResult lint = Run("ge-lint", {"--model", bad});
  EXPECT_EQ(lint.exit_code, 1) << lint.Describe();
  EXPECT_NE(lint.out.find("edited.om: error E18002"), std::string::npos) << lint.Describe();
  EXPECT_NE(lint.out.find("has no task"), std::string::npos) << lint.Describe();
}

std::vector<std::string> DumpFiles(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The text dumps (each has a JSON twin, checked in dump_test.cc).
std::vector<std::string> TextDumpFiles(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& n : DumpFiles(dir))
    if (n.size() > 4 && n.substr(n.size() - 4) == ".txt") names.push_back(n);
  return names;
}

TEST_F(ToolsTest, DumpOutWritesOneFilePerPass) {
  ToolResult r = Run("ge-dump", {"--model", kTinyOnnx, "--out", Path("dumps")});
  SCOPED_TRACE(r.Describe());
  ASSERT_EQ(r.exit_code, 0);
  const std::vector<std::string> names = TextDumpFiles(Path("dumps"));
  // 00_parsed.txt, then 01_<first pass>.txt, 02_..., numbered without gaps.
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "00_parsed.txt");
  std::set<std::string> passes;
  std::set<std::string> stages;
  for (const PassInfo& p : ListPasses())
    if (p.planning) stages.insert(p.name);
  std::string last_graph;
  for (size_t i = 0; i < names.size(); ++i) {
    char prefix[24];
    std::snprintf(prefix, sizeof(prefix), "%02zu_", i);
    EXPECT_EQ(names[i].rfind(prefix, 0), 0u) << names[i] << " should start with " << prefix;
    ASSERT_GT(names[i].size(), 7u);
    EXPECT_EQ(names[i].substr(names[i].size() - 4), ".txt") << names[i];
    const std::string pass = names[i].substr(3, names[i].size() - 7);
    passes.insert(pass);
    const std::string text = ReadFileBytes(dir_ / "dumps" / names[i]);
    if (stages.count(pass)) {  // a planning stage: what it decided, one line
      EXPECT_EQ(text.rfind(pass + ": ", 0), 0u) << names[i];
      continue;
    }
    last_graph = names[i];
    EXPECT_EQ(text.rfind("graph ", 0), 0u) << names[i];
    EXPECT_NE(text.find("NetOutput"), std::string::npos) << names[i];
  }
  EXPECT_EQ(passes.size(), names.size()) << "a pass was dumped twice";
  EXPECT_NE(r.out.find("wrote " + std::to_string(names.size()) + " pass dumps"), std::string::npos);
  // The last graph dump is the compiled IR that ge-dump prints without --out.
  ToolResult plain = Run("ge-dump", {"--model", kTinyOnnx});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  EXPECT_EQ(ReadFileBytes(dir_ / "dumps" / last_graph), plain.out);
}

// The dumps are named after the compiler's own pass list (ge::PassNames()).
TEST_F(ToolsTest, DumpOutFilesAreNamedAfterPassNames) {
  ToolResult r = Run("ge-dump", {"--model", kTinyOnnx, "--out", Path("dumps")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  std::vector<std::string> want = {"00_parsed.json", "00_parsed.txt"};
  const std::vector<std::string> passes = PassNames();
  ASSERT_FALSE(passes.empty());
  for (size_t i = 0; i < passes.size(); ++i) {
    char prefix[24];
    std::snprintf(prefix, sizeof(prefix), "%02zu_", i + 1);
    want.push_back(prefix + passes[i] + ".json");
    want.push_back(prefix + passes[i] + ".txt");
  }
  size_t i = passes.size() + 1;
  for (const PassInfo& p : ListPasses()) {
    if (!p.planning) continue;
    char prefix[24];
    std::snprintf(prefix, sizeof(prefix), "%02zu_", i++);
    want.push_back(prefix + p.name + ".txt");  // the planning stages write what they decided
  }
  EXPECT_EQ(DumpFiles(Path("dumps")), want);
}

TEST_F(ToolsTest, LintAndDumpReportBadModelsInOneLine) {
  WriteFileBytes(Path("notes.onnx"), "not a model\n");
  ExpectOneErrorLine(Run("ge-lint", {"--model", Path("notes.onnx")}), "ge-lint", {"notes.onnx"});
  ExpectOneErrorLine(Run("ge-dump", {"--model", Path("notes.onnx")}), "ge-dump", {"notes.onnx"});
  ExpectOneErrorLine(Run("ge-lint", {"--model", Path("absent.om")}), "ge-lint", {"absent.om"});
  WriteFileBytes(Path("afile"), "x");
  ExpectOneErrorLine(Run("ge-dump", {"--model", kTinyOnnx, "--out", Path("afile")}), "ge-dump", {"afile"});
}

}  // namespace
}  // namespace ge::test
