// Dynamic shapes from the command line: an ONNX model with a symbolic batch
// converts with plain ge-atc and one .om runs every batch in v2 mode; sink
// mode and shapeless inputs get one clear error; --input_shape makes it
// static again, or bounds a dim with a range; ATC's gears compile fixed
// batches that run in both modes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "ge/tools/npy.h"
#include "onnx/onnx_pb.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

constexpr int kIn = 8, kOut = 4;

float Weight(int i, int j) { return std::sin(static_cast<float>(i * kOut + j)) * 0.5f; }

// y = Relu(x @ W + b), x f32[batch, 8] with "batch" symbolic; then
// z = Reshape(y, [batch * 2, 2]) through Shape -> Gather -> Mul -> Concat.
std::string DynamicOnnx() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("dyn");
  auto io = [](onnx::ValueInfoProto* v, const char* name, std::vector<std::string> dims) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    for (const auto& d : dims) {
      auto* dim = t->mutable_shape()->add_dim();
      if (d[0] >= '0' && d[0] <= '9') dim->set_dim_value(std::stoll(d));
      else dim->set_dim_param(d);
    }
  };
  io(g->add_input(), "x", {"batch", std::to_string(kIn)});
  io(g->add_output(), "y", {"batch", std::to_string(kOut)});
  io(g->add_output(), "z", {"rows", "2"});
  auto* w = g->add_initializer();
  w->set_name("W");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(kIn);
  w->add_dims(kOut);
  for (int i = 0; i < kIn; ++i)
    for (int j = 0; j < kOut; ++j) w->add_float_data(Weight(i, j));
  auto* b = g->add_initializer();
  b->set_name("b");
  b->set_data_type(onnx::TensorProto::FLOAT);
  b->add_dims(kOut);
  for (int j = 0; j < kOut; ++j) b->add_float_data(0.25f * static_cast<float>(j) - 0.5f);
  auto ints = [&](const char* name, std::vector<int64_t> v) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(v.size()));
    for (int64_t x : v) t->add_int64_data(x);
  };
  ints("zero", {0});
  ints("two", {2});
  auto node = [&](const char* type, std::vector<std::string> in, std::vector<std::string> out) {
    auto* n = g->add_node();
    n->set_op_type(type);
    n->set_name(out[0]);
    for (auto& s : in) n->add_input(s);
    for (auto& s : out) n->add_output(s);
    return n;
  };
  node("MatMul", {"x", "W"}, {"m"});
  node("Add", {"m", "b"}, {"a"});
  node("Relu", {"a"}, {"y"});
  node("Shape", {"y"}, {"s"});
  auto* gather = node("Gather", {"s", "zero"}, {"n"});
  auto* axis = gather->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(0);
  node("Mul", {"n", "two"}, {"rows"});
  auto* concat = node("Concat", {"rows", "two"}, {"target"});
  auto* cat_axis = concat->add_attribute();
  cat_axis->set_name("axis");
  cat_axis->set_type(onnx::AttributeProto::INT);
  cat_axis->set_i(0);
  node("Reshape", {"y", "target"}, {"z"});
  return m.SerializeAsString();
}

class DynamicShapesTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    WriteFileBytes(Path("dyn.onnx"), DynamicOnnx());
    atc_ = Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("dyn")});
    ASSERT_EQ(atc_.exit_code, 0) << atc_.Describe();
  }

  // x for `batch` rows, and its golden y and z as .npy files.
  void WriteCase(int batch) {
    std::vector<float> x(static_cast<size_t>(batch * kIn)), y(static_cast<size_t>(batch * kOut));
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::cos(static_cast<float>(i) * 0.7f + static_cast<float>(batch));
    for (int r = 0; r < batch; ++r)
      for (int j = 0; j < kOut; ++j) {
        float acc = 0.25f * static_cast<float>(j) - 0.5f;
        for (int i = 0; i < kIn; ++i) acc += x[static_cast<size_t>(r * kIn + i)] * Weight(i, j);
        y[static_cast<size_t>(r * kOut + j)] = std::max(acc, 0.f);
      }
    const std::string k = std::to_string(batch);
    ASSERT_TRUE(WriteNpy(Path("x" + k + ".npy"), TensorDesc(DataType::kFloat32, {batch, kIn}), x.data()).ok());
    ASSERT_TRUE(WriteNpy(Path("y" + k + ".npy"), TensorDesc(DataType::kFloat32, {batch, kOut}), y.data()).ok());
    ASSERT_TRUE(WriteNpy(Path("z" + k + ".npy"), TensorDesc(DataType::kFloat32, {batch * 2, 2}), y.data()).ok());
  }
  std::vector<std::string> RunCase(int batch, std::vector<std::string> extra = {}, const std::string& om = "dyn.om") {
    const std::string k = std::to_string(batch);
    std::vector<std::string> args = {"--model", Path(om), "--input", Path("x" + k + ".npy"), "--compare",
                                     Path("y" + k + ".npy") + "," + Path("z" + k + ".npy")};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  ToolResult atc_;
};

TEST_F(DynamicShapesTest, PlainAtcGivesOneOmThatRunsEveryBatch) {
  EXPECT_NE(atc_.out.find("dynamic model"), std::string::npos) << atc_.Describe();
  for (int batch : {1, 3, 16}) {
    WriteCase(batch);
    ToolResult r = Run("ge-run", RunCase(batch, {"--json"}));
    SCOPED_TRACE(r.Describe());
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("\"compare\": \"PASS\""), std::string::npos);
    EXPECT_NE(r.out.find("f32[" + std::to_string(batch) + ",4]"), std::string::npos);
    EXPECT_NE(r.out.find("f32[" + std::to_string(batch * 2) + ",2]"), std::string::npos);
  }
}

TEST_F(DynamicShapesTest, GeDumpPrintsTheSymbolicDims) {
  ToolResult r = Run("ge-dump", {"--model", Path("dyn.om")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[batch,8]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("f32[batch,4]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("f32[2*batch,2]"), std::string::npos) << r.out;  // the 2 is found by evaluation too
}

TEST_F(DynamicShapesTest, TheTopologicalExecutorMatchesToo) {
  WriteCase(5);
  ToolResult r = Run("ge-run", RunCase(5, {"--executor", "topological", "--loop", "20"}));
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
}

TEST_F(DynamicShapesTest, OutputsAreWrittenWithTheirActualShapes) {
  WriteCase(2);
  ToolResult r = Run("ge-run", RunCase(2, {"--output", Path("out")}));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto z = ReadNpy(Path("out/z.npy"));
  ASSERT_TRUE(z.ok()) << z.status().ToString();
  EXPECT_EQ(z->desc.dims, (std::vector<int64_t>{4, 2}));
}

TEST_F(DynamicShapesTest, JsonReportsTheShapesOfEveryInference) {
  WriteCase(2);
  WriteCase(5);
  std::filesystem::create_directories(Path("in"));
  std::filesystem::copy_file(Path("x2.npy"), Path("in/a.npy"));
  std::filesystem::copy_file(Path("x5.npy"), Path("in/b.npy"));
  ToolResult r = Run("ge-run", {"--model", Path("dyn.om"), "--input", Path("in"), "--output", Path("out"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const size_t shapes = r.out.find("\"shapes\"");
  ASSERT_NE(shapes, std::string::npos) << r.out;
  const size_t two = r.out.find("f32[2,8]", shapes), five = r.out.find("f32[5,8]", shapes);
  EXPECT_NE(two, std::string::npos) << r.out;
  EXPECT_NE(five, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("f32[10,2]", shapes), std::string::npos) << r.out;
}

// Its kernels are chosen per call: v2 does not profile it (yet), and its
// FLOPs are unknown at compile time, so the report gives none.
TEST_F(DynamicShapesTest, ProfilingIsRefusedAndFlopsAreUnknown) {
  WriteCase(3);
  ExpectOneErrorLine(Run("ge-run", RunCase(3, {"--profile_table"})), "ge-run", {"profiling a dynamic model", "dyn"});
  ToolResult r = Run("ge-run", RunCase(3, {"--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["flops"].is_null()) << j.dump();
  EXPECT_TRUE(j["gflops_per_s"].is_null()) << j.dump();
  EXPECT_GT(j["peak_rss_mb"].get<double>(), 0);
}

TEST_F(DynamicShapesTest, SinkModeNamesTheDynamicInput) {
  WriteCase(1);
  ToolResult r = Run("ge-run", RunCase(1, {"--mode", "sink"}));
  ExpectOneErrorLine(r, "ge-run", {"x f32[?,8]", "v2"});
}

TEST_F(DynamicShapesTest, GeneratedInputsNeedDims) {
  ToolResult r = Run("ge-run", {"--model", Path("dyn.om")});
  ExpectOneErrorLine(r, "ge-run", {"input x", "--dymShape"});
  r = Run("ge-run", {"--model", Path("dyn.om"), "--dymShape", "x:6,8", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[6,4]"), std::string::npos) << r.Describe();
  r = Run("ge-run", {"--model", Path("dyn.om"), "--dymShape", "x:6,9"});
  ExpectOneErrorLine(r, "ge-run", {"--dymShape", "f32[?,8]"});
}

TEST_F(DynamicShapesTest, AWrongInputShapeNamesTheFile) {
  std::vector<float> x(3 * 5);
  ASSERT_TRUE(WriteNpy(Path("bad.npy"), TensorDesc(DataType::kFloat32, {3, 5}), x.data()).ok());
  ToolResult r = Run("ge-run", {"--model", Path("dyn.om"), "--input", Path("bad.npy")});
  ExpectOneErrorLine(r, "ge-run", {"bad.npy", "f32[3,5]"});
}

TEST_F(DynamicShapesTest, InputShapeMakesItStaticForSinkMode) {
  ToolResult a = Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("fixed"),
                                "--input_shape", "x:3,8"});
  ASSERT_EQ(a.exit_code, 0) << a.Describe();
  EXPECT_EQ(a.out.find("dynamic model"), std::string::npos) << a.Describe();
  WriteCase(3);
  for (const char* mode : {"v2", "sink"}) {
    ToolResult r = Run("ge-run", {"--model", Path("fixed.om"), "--mode", mode, "--input", Path("x3.npy"), "--compare",
                                  Path("y3.npy") + "," + Path("z3.npy")});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
  }
}

TEST_F(DynamicShapesTest, BatchGearsRunInSinkAndV2) {
  ToolResult a = Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("gears"),
                                "--dynamic_batch_size", "1,2,4"});
  ASSERT_EQ(a.exit_code, 0) << a.Describe();
  EXPECT_NE(a.out.find("gear model: 3 gear(s) (batch)"), std::string::npos) << a.Describe();
  for (int batch : {1, 2, 4}) {
    WriteCase(batch);
    for (const char* mode : {"v2", "sink"}) {
      ToolResult r = Run("ge-run", RunCase(batch, {"--mode", mode}, "gears.om"));
      EXPECT_EQ(r.exit_code, 0) << r.Describe();
      EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
    }
  }
  // --dymBatch picks the gear for generated inputs; a batch with no gear is refused.
  ToolResult r = Run("ge-run", {"--model", Path("gears.om"), "--mode", "sink", "--dymBatch", "2", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[2,4]"), std::string::npos) << r.Describe();
  WriteCase(3);
  r = Run("ge-run", RunCase(3, {"--mode", "sink"}, "gears.om"));
  ExpectOneErrorLine(r, "ge-run", {"[3,8] match none of its gears ([1,8]; [2,8]; [4,8])"});
  r = Run("ge-run", {"--model", Path("gears.om"), "--mode", "sink", "--run_loop", "4"});
  ExpectOneErrorLine(r, "ge-run", {"--run_loop", "has gears"});
  // ge-lint runs the model check of every gear, as a load does.
  for (const char* om : {"gears.om", "dyn.om"}) {
    r = Run("ge-lint", {"--model", Path(om)});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find("0 errors, 0 warnings, 0 notes"), std::string::npos) << r.Describe();
  }
}

TEST_F(DynamicShapesTest, GearFlagErrorsNameTheFlag) {
  auto atc = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("bad")};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  };
  ExpectOneErrorLine(atc({"--dynamic_batch_size", "1,x"}), "ge-atc", {"--dynamic_batch_size", "'x'"});
  ExpectOneErrorLine(atc({"--dynamic_batch_size", "1,2", "--dynamic_image_size", "2,2"}), "ge-atc", {"give one of them"});
  ExpectOneErrorLine(atc({"--dynamic_dims", "1;2"}), "ge-atc", {"--dynamic_dims needs --input_format ND"});
  ExpectOneErrorLine(atc({"--dynamic_batch_size", "1,2", "--input_shape", "x:4,8"}), "ge-atc",
                     {"--dynamic_batch_size", "no input has a -1 dim"});
  ExpectOneErrorLine(atc({"--dynamic_image_size", "2,2"}), "ge-atc", {"input x [-1,8]", "two -1 dims"});
  EXPECT_FALSE(std::filesystem::exists(Path("bad.om")));
}

TEST_F(DynamicShapesTest, DimsGearsFollowTheInputShapeOrder) {
  ToolResult a = Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("dims"),
                                "--input_format", "ND", "--input_shape", "x:-1,8", "--dynamic_dims", "2;3"});
  ASSERT_EQ(a.exit_code, 0) << a.Describe();
  WriteCase(3);
  ToolResult r = Run("ge-run", RunCase(3, {"--mode", "sink"}, "dims.om"));
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  r = Run("ge-run", {"--model", Path("dims.om"), "--dymDims", "x:2,8", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[2,4]"), std::string::npos) << r.Describe();
}

TEST_F(DynamicShapesTest, AnInputShapeRangeBoundsTheDim) {
  ToolResult a = Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("ranged"),
                                "--input_shape", "x:1~4,8"});
  ASSERT_EQ(a.exit_code, 0) << a.Describe();
  EXPECT_NE(a.out.find("dynamic model"), std::string::npos) << a.Describe();
  WriteCase(3);
  ToolResult r = Run("ge-run", RunCase(3, {}, "ranged.om"));
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  WriteCase(16);
  r = Run("ge-run", RunCase(16, {}, "ranged.om"));
  ExpectOneErrorLine(r, "ge-run", {"input x", "outside its range 1~4"});
  ExpectOneErrorLine(Run("ge-atc", {"--model", Path("dyn.onnx"), "--framework", "5", "--output", Path("bad"),
                                    "--input_shape", "x:4~2,8"}),
                     "ge-atc", {"--input_shape", "'4~2'"});
}

}  // namespace
}  // namespace ge::test
