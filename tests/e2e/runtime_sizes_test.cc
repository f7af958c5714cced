// Issue 46, sizes: shapes that arrive at run time (a dynamic batch, the
// value fed to Expand / ConstantOfShape) used to divide by zero inside
// oneDNN (batch 0), wrap their byte count and write past a buffer, or make
// --json report an absurd output with exit 0. Empty tensors are legal and
// give empty (or, for a reduction over the batch, zero) outputs; shapes too
// large for any memory are one error line naming the node or input, at
// compile time and at run time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/tools/npy.h"
#include "onnx/onnx_pb.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

constexpr int64_t k2e61 = int64_t{1} << 61;
constexpr int64_t k2e62 = int64_t{1} << 62;

// An ONNX graph built node by node; a dim < 0 is symbolic ("d0", "d1" ...).
class SizesOnnx {
 public:
  SizesOnnx() {
    m_.set_ir_version(8);
    m_.add_opset_import()->set_version(13);
    m_.mutable_graph()->set_name("sizes");
  }
  void Input(const std::string& name, int32_t type, const std::vector<int64_t>& dims) {
    Value(m_.mutable_graph()->add_input(), name, type, dims);
  }
  void Output(const std::string& name, int32_t type, size_t rank) {
    Value(m_.mutable_graph()->add_output(), name, type, std::vector<int64_t>(rank, -1));
  }
  void Floats(const std::string& name, const std::vector<int64_t>& dims, float value) {
    onnx::TensorProto* t = Initializer(name, onnx::TensorProto::FLOAT, dims);
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    for (int64_t i = 0; i < n; ++i) t->add_float_data(value + 0.01f * static_cast<float>(i % 7));
  }
  void Ints(const std::string& name, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = Initializer(name, onnx::TensorProto::INT64, {static_cast<int64_t>(values.size())});
    for (int64_t v : values) t->add_int64_data(v);
  }
  onnx::NodeProto* Node(const std::string& op, const std::vector<std::string>& in, const std::string& out) {
    onnx::NodeProto* n = m_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(out + "_node");
    for (const std::string& s : in) n->add_input(s);
    n->add_output(out);
    return n;
  }
  static void IntsAttr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& values) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  std::string Bytes() const {
    std::string bytes;
    EXPECT_TRUE(m_.SerializeToString(&bytes));
    return bytes;
  }

 private:
  static void Value(onnx::ValueInfoProto* v, const std::string& name, int32_t type, const std::vector<int64_t>& dims) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    for (size_t i = 0; i < dims.size(); ++i) {
      auto* dim = t->mutable_shape()->add_dim();
      if (dims[i] >= 0) dim->set_dim_value(dims[i]);
      else dim->set_dim_param("d" + std::to_string(i));
    }
  }
  onnx::TensorProto* Initializer(const std::string& name, int32_t type, const std::vector<int64_t>& dims) {
    onnx::TensorProto* t = m_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (int64_t d : dims) t->add_dims(d);
    return t;
  }
  onnx::ModelProto m_;
};

constexpr int32_t kF32 = onnx::TensorProto::FLOAT;
constexpr int32_t kI64 = onnx::TensorProto::INT64;

// x f32[batch,16] -> MatMul W[16,8] -> Add b -> Relu -> y [batch,8];
// Gemm(x, W, b) -> g [batch,8]; ReduceSum(x over the batch) -> r [1,16].
std::string MlpOnnx() {
  SizesOnnx m;
  m.Input("x", kF32, {-1, 16});
  m.Floats("W", {16, 8}, 0.5f);
  m.Floats("b", {8}, 0.25f);
  m.Node("MatMul", {"x", "W"}, "mm");
  m.Node("Add", {"mm", "b"}, "a");
  m.Node("Relu", {"a"}, "y");
  m.Node("Gemm", {"x", "W", "b"}, "g");
  m.Ints("batch_axis", {0});
  m.Node("ReduceSum", {"x", "batch_axis"}, "r");
  m.Output("y", kF32, 2);
  m.Output("g", kF32, 2);
  m.Output("r", kF32, 2);
  return m.Bytes();
}

// x f32[N,3,8,8] -> Conv w[4,3,3,3] -> MaxPool 2x2 stride 2 -> p; Concat(x, c) on channels.
std::string ConvOnnx() {
  SizesOnnx m;
  m.Input("x", kF32, {-1, 3, 8, 8});
  m.Floats("w", {4, 3, 3, 3}, 0.1f);
  SizesOnnx::IntsAttr(m.Node("Conv", {"x", "w"}, "c"), "pads", {1, 1, 1, 1});
  onnx::NodeProto* pool = m.Node("MaxPool", {"c"}, "p");
  SizesOnnx::IntsAttr(pool, "kernel_shape", {2, 2});
  SizesOnnx::IntsAttr(pool, "strides", {2, 2});
  onnx::NodeProto* cat = m.Node("Concat", {"x", "c"}, "k");
  onnx::AttributeProto* axis = cat->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  m.Output("p", kF32, 4);
  m.Output("k", kF32, 4);
  return m.Bytes();
}

// `op` (Expand or Tile of a f32[1,1] x, or ConstantOfShape) to the shape
// (or repeats) held by s: an input (a dynamic model) or, when `constant` is
// set, an initializer.
std::string ShapeOpOnnx(const std::string& op, const std::vector<int64_t>* constant) {
  SizesOnnx m;
  const bool takes_x = op != "ConstantOfShape";
  if (takes_x) m.Input("x", kF32, {1, 1});
  if (constant) m.Ints("s", *constant);
  else m.Input("s", kI64, {2});
  m.Node(op, takes_x ? std::vector<std::string>{"x", "s"} : std::vector<std::string>{"s"}, "y");
  m.Output("y", kF32, 2);
  return m.Bytes();
}

class RuntimeSizesTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }
  // Writes NAME.onnx and compiles it to NAME.om with `extra` flags.
  ToolResult Atc(const std::string& name, const std::string& onnx, std::vector<std::string> extra = {}) {
    WriteFileBytes(Path(name + ".onnx"), onnx);
    std::vector<std::string> args = {"--model", Path(name + ".onnx"), "--framework", "5", "--output", Path(name)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  void Compile(const std::string& name, const std::string& onnx, std::vector<std::string> extra = {}) {
    ToolResult r = Atc(name, onnx, std::move(extra));
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
  }
  NpyArray ReadOutput(const std::string& file) {
    Result<NpyArray> a = ReadNpy(Path("out/" + file));
    EXPECT_TRUE(a.ok()) << a.status().ToString();
    return a.ok() ? std::move(a).value() : NpyArray{};
  }
  // The outputs of an empty batch of the MLP: y and g empty, r zeros.
  void ExpectEmptyMlpOutputs() {
    EXPECT_EQ(ReadOutput("y.npy").desc.dims, (std::vector<int64_t>{0, 8}));
    EXPECT_EQ(ReadOutput("g.npy").desc.dims, (std::vector<int64_t>{0, 8}));
    NpyArray r = ReadOutput("r.npy");
    ASSERT_EQ(r.desc.dims, (std::vector<int64_t>{1, 16}));
    ASSERT_EQ(r.bytes.size(), 16 * sizeof(float));
    const auto* f = reinterpret_cast<const float*>(r.bytes.data());
    for (int i = 0; i < 16; ++i) EXPECT_EQ(f[i], 0.f) << "ReduceSum of an empty batch, element " << i;
  }
};

// Batch 0 through v2: every kernel sees an empty input; no SIGFPE.
TEST_F(RuntimeSizesTest, DynamicBatchZeroGivesEmptyOutputsAndZeroSums) {
  Compile("mlp", MlpOnnx());
  ToolResult r = Run("ge-run", {"--model", Path("mlp.om"), "--dymShape", "x:0,16", "--output", Path("out"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[0,8]"), std::string::npos) << r.Describe();
  ExpectEmptyMlpOutputs();
  Compile("conv", ConvOnnx());
  r = Run("ge-run", {"--model", Path("conv.om"), "--dymShape", "x:0,3,8,8", "--output", Path("out"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadOutput("p.npy").desc.dims, (std::vector<int64_t>{0, 4, 4, 4}));
  EXPECT_EQ(ReadOutput("k.npy").desc.dims, (std::vector<int64_t>{0, 7, 8, 8}));
}

// --input_shape x:0,16 makes a static model of batch 0: ge-atc compiles it
// (its constant folding and kernel checks see the empty tensors) and both
// runtimes run it.
TEST_F(RuntimeSizesTest, StaticBatchZeroCompilesAndRunsInBothRuntimes) {
  Compile("mlp0", MlpOnnx(), {"--input_shape", "x:0,16"});
  for (const char* mode : {"v2", "sink"}) {
    SCOPED_TRACE(mode);
    fs::remove_all(Path("out"));
    ToolResult r = Run("ge-run", {"--model", Path("mlp0.om"), "--mode", mode, "--output", Path("out")});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    ExpectEmptyMlpOutputs();
  }
  Compile("conv0", ConvOnnx(), {"--input_shape", "x:0,3,8,8"});
  ToolResult r = Run("ge-run", {"--model", Path("conv0.om"), "--mode", "sink", "--output", Path("out")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadOutput("p.npy").desc.dims, (std::vector<int64_t>{0, 4, 4, 4}));
}

// A batch of 2^62: refused as too large, at compile time and at run time.
TEST_F(RuntimeSizesTest, HugeBatchIsOneErrorAtCompileAndRunTime) {
  const std::string huge = std::to_string(k2e62);
  ExpectOneErrorLine(Atc("huge", MlpOnnx(), {"--input_shape", "x:" + huge + ",16"}), "ge-atc",
                     {"huge.onnx", "too large"});
  EXPECT_FALSE(fs::exists(Path("huge.om")));
  Compile("mlp", MlpOnnx());
  ExpectOneErrorLine(Run("ge-run", {"--model", Path("mlp.om"), "--dymShape", "x:" + huge + ",16", "--json"}), "ge-run",
                     {"input x", "f32[" + huge + ",16] is too large"});
}

// Expand, Tile and ConstantOfShape to [2^61,2] and [2^31,2^31]: a constant shape
// is refused by ge-atc, a fed one by ge-run naming the node; never an
// absurd output with exit 0.
TEST_F(RuntimeSizesTest, ShapeOpsToHugeShapesAreOneErrorAtCompileAndRunTime) {
  const std::vector<std::vector<int64_t>> shapes = {{k2e61, 2}, {int64_t{1} << 31, int64_t{1} << 31}};
  for (const std::string op : {"Expand", "Tile", "ConstantOfShape"}) {
    for (const std::vector<int64_t>& s : shapes) {
      SCOPED_TRACE(op + " to " + std::to_string(s[0]) + "," + std::to_string(s[1]));
      ExpectOneErrorLine(Atc("const", ShapeOpOnnx(op, &s)), "ge-atc", {"const.onnx", "too large"});
      EXPECT_FALSE(fs::exists(Path("const.om")));
      Compile("fed", ShapeOpOnnx(op, nullptr));
      ASSERT_TRUE(WriteNpy(Path("s.npy"), TensorDesc(DataType::kInt64, {2}), s.data()).ok());
      std::vector<std::string> args = {"--model", Path("fed.om"), "--input", Path("s.npy"), "--json"};
      if (op != "ConstantOfShape") {
        const float one = 1.f;
        ASSERT_TRUE(WriteNpy(Path("x.npy"), TensorDesc(DataType::kFloat32, {1, 1}), &one).ok());
        args[3] = Path("x.npy") + "," + Path("s.npy");
      }
      ToolResult r = Run("ge-run", args);
      ExpectOneErrorLine(r, "ge-run", {"node y_node (" + op + ") output 0", "is too large"});
      EXPECT_EQ(r.out.find("\"outputs\""), std::string::npos) << r.Describe();
    }
  }
  // The same dynamic model with a sane shape runs: the check refuses only what is too large.
  const std::vector<int64_t> small = {3, 2};
  ASSERT_TRUE(WriteNpy(Path("s.npy"), TensorDesc(DataType::kInt64, {2}), small.data()).ok());
  ToolResult r = Run("ge-run", {"--model", Path("fed.om"), "--input", Path("s.npy"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("f32[3,2]"), std::string::npos) << r.Describe();
}

}  // namespace
}  // namespace ge::test
