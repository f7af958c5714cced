// Issue 17, hardening: the inputs a hostile-user probe used to crash the
// tools (SIGFPE in onnx's shape inference, aborts in the .npy reader,
// segfaults on huge outputs) and the rough edges it found (.om files ge-run
// then refused, repeated error prefixes, libprotobuf lines on stderr, a huge
// static shape called "dynamic"). Each runs the built binaries and expects
// the one error line (tools_test.cc's convention) naming the file, node or
// flag, in both runtimes where a .om is run.
#include <gtest/gtest.h>

#include <fstream>

#include "ge/om.h"
#include "ge/plan/memory_limit.h"
#include "ge/tools/npy.h"
#include "onnx/onnx_pb.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

// A one-node ONNX model built in place: input x (f32, x_dims), initializers,
// one node of `op` reading x then the initializers, output y of y_rank
// unknown dims. Attributes are set by the caller on the returned node.
class OnnxModel {
 public:
  OnnxModel(const std::string& op, const std::string& name, const std::vector<int64_t>& x_dims, int y_rank) {
    m_.set_ir_version(8);
    m_.set_producer_name("ge-e2e-hardening");
    auto* opset = m_.add_opset_import();
    opset->set_domain("");
    opset->set_version(13);
    g_ = m_.mutable_graph();
    g_->set_name("hardening");
    AddValue(g_->add_input(), "x", onnx::TensorProto::FLOAT, x_dims);
    node_ = g_->add_node();
    node_->set_op_type(op);
    node_->set_name(name);
    node_->add_input("x");
    node_->add_output("y");
    AddValue(g_->add_output(), "y", onnx::TensorProto::FLOAT, std::vector<int64_t>(static_cast<size_t>(y_rank), -1));
  }

  onnx::NodeProto* node() { return node_; }
  onnx::ModelProto& proto() { return m_; }

  void AddInput(const std::string& name, onnx::TensorProto::DataType type, const std::vector<int64_t>& dims) {
    AddValue(g_->add_input(), name, type, dims);
    node_->add_input(name);
  }
  void AddInitializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& f32) {
    onnx::TensorProto* t = NewInitializer(name, onnx::TensorProto::FLOAT, dims);
    for (float v : f32) t->add_float_data(v);
  }
  void AddInt64Initializer(const std::string& name, const std::vector<int64_t>& values) {
    onnx::TensorProto* t = NewInitializer(name, onnx::TensorProto::INT64, {static_cast<int64_t>(values.size())});
    for (int64_t v : values) t->add_int64_data(v);
  }
  // An initializer fed to the current node as its next input; the caller fills the values.
  onnx::TensorProto* NewInitializer(const std::string& name, int32_t dtype, const std::vector<int64_t>& dims) {
    auto* t = g_->add_initializer();
    t->set_name(name);
    t->set_data_type(dtype);
    for (int64_t d : dims) t->add_dims(d);
    node_->add_input(name);
    return t;
  }
  void Ints(const std::string& attr, const std::vector<int64_t>& values) {
    auto* a = node_->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  void Int(const std::string& attr, int64_t value) {
    auto* a = node_->add_attribute();
    a->set_name(attr);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  std::string Bytes() const {
    std::string bytes;
    EXPECT_TRUE(m_.SerializeToString(&bytes));
    return bytes;
  }

 private:
  static void AddValue(onnx::ValueInfoProto* v, const std::string& name, onnx::TensorProto::DataType type,
                       const std::vector<int64_t>& dims) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto* shape = tt->mutable_shape();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] >= 0) shape->add_dim()->set_dim_value(dims[i]);
      else shape->add_dim()->set_dim_param("d" + std::to_string(i));
    }
  }

  onnx::ModelProto m_;
  onnx::GraphProto* g_ = nullptr;
  onnx::NodeProto* node_ = nullptr;
};

OnnxModel Conv(const std::string& name) {
  OnnxModel m("Conv", name, {1, 3, 8, 8}, 4);
  m.AddInitializer("w", {2, 3, 3, 3}, std::vector<float>(54, 0.5f));
  return m;
}

OnnxModel Pool(const std::string& op, const std::string& name) {
  OnnxModel m(op, name, {1, 3, 8, 8}, 4);
  m.Ints("kernel_shape", {2, 2});
  return m;
}

class HardeningTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }

  std::string Save(const std::string& file, const OnnxModel& m) {
    WriteFileBytes(Path(file), m.Bytes());
    return Path(file);
  }

  ToolResult Atc(const std::string& onnx, const std::string& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--model", onnx, "--framework", "5", "--output", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }

  // The one error line and no .om (nor a temporary) left behind.
  void ExpectAtcRefuses(const ToolResult& r, const std::vector<std::string>& fragments) {
    ExpectOneErrorLine(r, "ge-atc", fragments);
    EXPECT_EQ(FilesEndingIn(dir_, {".om", ".tmp"}), std::vector<std::string>{}) << r.Describe();
  }

  // A Relu over f32[1,3,32,32] compiled to DIR/relu.om.
  std::string ReluOm() {
    ToolResult r = Atc(Save("relu.onnx", OnnxModel("Relu", "relu0", {1, 3, 32, 32}, 4)), "relu");
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return Path("relu.om");
  }

  // An .npy file of `header` (the dict text) and `data` bytes, version 1.0.
  std::string Npy(const std::string& file, std::string header, const std::string& data) {
    header += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    WriteFileBytes(Path(file), bytes + header + data);
    return Path(file);
  }
};

// ------------------------------------------- attributes before onnx sees them

// A stride of 0 used to be a SIGFPE inside onnx::shape_inference.
TEST_F(HardeningTest, AtcRefusesAZeroStrideBeforeOnnxShapeInference) {
  OnnxModel conv = Conv("conv0");
  conv.Ints("strides", {0, 0});
  ExpectAtcRefuses(Atc(Save("conv_stride0.onnx", conv), "c"),
                   {"conv_stride0.onnx", "node conv0 (Conv)", "'strides'", "has 0", "at least 1"});
  OnnxModel pool = Pool("MaxPool", "pool0");
  pool.Ints("strides", {0, 1});
  ExpectAtcRefuses(Atc(Save("pool_stride0.onnx", pool), "p"),
                   {"pool_stride0.onnx", "node pool0 (MaxPool)", "'strides'", "has 0"});
}

// Every window attribute onnx divides or sizes by, on every op that has it:
// below its minimum or above 2^31 - 1.
TEST_F(HardeningTest, AtcRefusesEveryBadWindowAttributeNamingNodeAndAttribute) {
  struct Case {
    std::string op, attr;
    std::vector<int64_t> values;
    std::string shown;
  };
  const std::vector<Case> cases = {
      {"Conv", "dilations", {1, 0}, "has 0"},
      {"Conv", "pads", {0, -1, 0, 0}, "has -1"},
      {"Conv", "group", {0}, "has 0"},
      {"Conv", "strides", {int64_t{1} << 40, 1}, "has 1099511627776"},
      {"Conv", "kernel_shape", {3, 0}, "has 0"},
      {"ConvTranspose", "output_padding", {-1, 0}, "has -1"},
      {"ConvTranspose", "strides", {0, 1}, "has 0"},
      {"MaxPool", "kernel_shape", {0, 2}, "has 0"},
      {"MaxPool", "pads", {int64_t{1} << 31, 0, 0, 0}, "has 2147483648"},
      {"AveragePool", "strides", {-2, 1}, "has -2"},
      {"LpPool", "strides", {0, 1}, "has 0"},
      {"DepthToSpace", "blocksize", {0}, "has 0"},
      {"SpaceToDepth", "blocksize", {-4}, "has -4"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op + " " + c.attr);
    const bool conv = c.op.rfind("Conv", 0) == 0;
    const bool block = c.op.find("ToSpace") != std::string::npos || c.op.find("ToDepth") != std::string::npos;
    OnnxModel m(c.op, "bad_node", {1, 4, 8, 8}, 4);
    if (conv) m.AddInitializer("w", {4, 4, 3, 3}, std::vector<float>(144, 0.5f));
    if (!conv && !block && c.attr != "kernel_shape") m.Ints("kernel_shape", {2, 2});
    if (c.attr == "group" || c.attr == "blocksize") m.Int(c.attr, c.values[0]);
    else m.Ints(c.attr, c.values);
    ExpectAtcRefuses(Atc(Save("bad.onnx", m), "bad"), {"bad.onnx", "node bad_node (" + c.op + ")", "'" + c.attr + "'", c.shown});
  }
}

// Found by the fuzzer: without kernel_shape, onnx's convPoolShapeInference
// takes the kernel from W's dims but sizes dilations by X's rank, so a W of
// higher rank than X read past them (SEGV in libonnx).
TEST_F(HardeningTest, AtcRefusesConvRanksOnnxInferenceWouldReadPast) {
  OnnxModel rank2("Conv", "conv2", {4, 8}, 4);
  rank2.AddInitializer("w", {2, 3, 3, 3}, std::vector<float>(54, 0.5f));
  rank2.Ints("pads", {1, 1, 1, 1});
  ExpectAtcRefuses(Atc(Save("rank2.onnx", rank2), "rank2"),
                   {"rank2.onnx", "conv2", "input X has rank 2", "rank 3 or more"});
  OnnxModel rank3("Conv", "conv3", {1, 3, 8}, 3);
  rank3.AddInitializer("w", {2, 3, 3, 3}, std::vector<float>(54, 0.5f));
  ExpectAtcRefuses(Atc(Save("rank3.onnx", rank3), "rank3"),
                   {"rank3.onnx", "conv3", "W has rank 4 but input X has rank 3"});
  OnnxModel pool("MaxPool", "pool2", {4, 8}, 2);
  pool.Ints("kernel_shape", {2, 2});
  ExpectAtcRefuses(Atc(Save("pool2.onnx", pool), "pool2"), {"pool2.onnx", "pool2", "input X has rank 2"});
}

// The same model with sane attributes converts: the check refuses only what is wrong.
TEST_F(HardeningTest, AtcAcceptsSaneWindowAttributes) {
  OnnxModel conv = Conv("conv0");
  conv.Ints("strides", {2, 2});
  conv.Ints("pads", {1, 1, 1, 1});
  conv.Int("group", 1);
  ToolResult r = Atc(Save("conv.onnx", conv), "conv");
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(fs::exists(Path("conv.om")));
}

// ------------------------------------------------- sizes and the memory limit

// A static f32[2^32, 2^32] overflows int64 bytes: "too large", not "dynamic".
TEST_F(HardeningTest, AtcCallsAnOverflowingStaticShapeTooLargeNotDynamic) {
  const int64_t big = int64_t{1} << 32;
  ToolResult r = Atc(Save("huge.onnx", OnnxModel("Relu", "relu0", {big, big}, 2)), "huge");
  ExpectAtcRefuses(r, {"huge.onnx", "f32[4294967296,4294967296]", "too large"});
  EXPECT_EQ(r.err.find("dynamic"), std::string::npos) << r.Describe();
  const int64_t dim = (int64_t{1} << 31) - 1;  // 2^31 - 1 twice: the probe's dims
  ExpectAtcRefuses(Atc(Save("dims.onnx", OnnxModel("Relu", "relu0", {dim, dim}, 2)), "dims"), {"dims.onnx", "too large"});
}

// What ge-atc writes, ge-run loads: the probe's Pad by 2^31 and Tile to 64
// TiB used to be written and then refused at load ("segment size out of
// range"); now ge-atc refuses them, naming the tensor and its size.
TEST_F(HardeningTest, AtcRefusesTensorsAboveTheMemoryLimitNamingTheTensor) {
  OnnxModel pad("Pad", "pad0", {1, 3, 32, 32}, 4);
  pad.AddInt64Initializer("pads", {0, 0, int64_t{1} << 31, 0, 0, 0, 0, 0});
  ExpectAtcRefuses(Atc(Save("pad.onnx", pad), "pad", {"--max_memory", "16G"}),
                   {"pad.onnx", "node pad0 (Pad) output 0", "768.0 GiB", "memory limit of 16.0 GiB", "--max_memory"});
  OnnxModel tile("Tile", "tile0", {1, 1, 1024, 1024}, 4);
  tile.AddInt64Initializer("repeats", {1 << 12, 1 << 12, 1, 1});  // 2^24 x 4 MiB = 64 TiB, over any limit
  ExpectAtcRefuses(Atc(Save("tile.onnx", tile), "tile"), {"tile.onnx", "node tile0 (Tile) output 0", "64.0 TiB"});
  // Each tensor below the limit, their total above it: a Relu of 512 MiB in, 512 MiB out.
  ExpectAtcRefuses(Atc(Save("relu.onnx", OnnxModel("Relu", "relu0", {kGiB / 8, 1}, 2)), "relu", {"--max_memory", "768M"}),
                   {"relu.onnx", "the model (weights 0 B, feature map 0 B, input 512.0 MiB, output 512.0 MiB) needs 1.0 GiB",
                    "memory limit of 768.0 MiB"});
}

TEST_F(HardeningTest, MaxMemoryFlagIsCheckedByBothTools) {
  const std::string om = ReluOm();
  for (const std::string bad : {"lots", "0", "2P", "12X", "1.5G", "2T", "99999999999999999999"}) {
    SCOPED_TRACE(bad);
    ExpectOneErrorLine(Atc(Path("relu.onnx"), "again", {"--max_memory", bad}), "ge-atc", {"--max_memory", bad});
    EXPECT_FALSE(fs::exists(Path("again.om")));
    ExpectOneErrorLine(Run("ge-run", {"--model", om, "--max_memory", bad}), "ge-run", {"--max_memory", bad});
  }
  for (const std::string good : {"100000", "64K", "1M", "1GiB", "1T"}) {
    SCOPED_TRACE(good);
    EXPECT_EQ(Atc(Path("relu.onnx"), "again", {"--max_memory", good}).exit_code, 0);
    EXPECT_EQ(Run("ge-run", {"--model", om, "--max_memory", good}).exit_code, 0);
  }
  // Below the model's 12 KiB tensors: refused by both, naming the tensor.
  ExpectOneErrorLine(Atc(Path("relu.onnx"), "small", {"--max_memory", "4K"}), "ge-atc", {"node x (Data) output 0", "12.0 KiB"});
  for (const char* mode : {"v2", "sink"})
    ExpectOneErrorLine(Run("ge-run", {"--model", om, "--mode", mode, "--max_memory", "4K"}), "ge-run",
                       {"relu.om", "input 0 (x) f32[1,3,32,32] needs 12.0 KiB", "memory limit of 4.0 KiB"});
}

// A model with a 64 GiB output: written only under a larger --max_memory
// (a bigger machine's), it is refused at load on this one in both runtimes
// (v2 used to segfault, or abort in std::bad_alloc), before any allocation.
TEST_F(HardeningTest, RunRefusesAModelLargerThanTheMachineBeforeAllocating) {
  if (MachineMemoryBytes() >= 64 * kGiB) GTEST_SKIP() << "this machine holds a 64 GiB output";
  OnnxModel expand("Expand", "expand0", {1, 1, 1, 1}, 4);
  expand.AddInt64Initializer("shape", {1 << 14, 1, 1 << 10, 1 << 10});
  ToolResult atc = Atc(Save("big.onnx", expand), "big", {"--max_memory", "1T"});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  for (const char* mode : {"v2", "sink"}) {
    SCOPED_TRACE(mode);
    ToolResult r = Run("ge-run", {"--model", Path("big.om"), "--mode", mode}, 60);
    ExpectOneErrorLine(r, "ge-run", {"big.om", "output 0 (y) f32[16384,1,1024,1024] needs 64.0 GiB", "--max_memory"});
  }
}

// The model fits (8 MiB of IO segments under 10 MiB), but ge-run's own input
// and output buffers double that: refused before they are allocated.
TEST_F(HardeningTest, RunCountsItsOwnBuffersAgainstTheLimit) {
  ToolResult atc = Atc(Save("relu.onnx", OnnxModel("Relu", "relu0", {1 << 20}, 1)), "relu", {"--max_memory", "10M"});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  for (const char* mode : {"v2", "sink"}) {
    SCOPED_TRACE(mode);
    ExpectOneErrorLine(Run("ge-run", {"--model", Path("relu.om"), "--mode", mode, "--max_memory", "10M"}), "ge-run",
                       {"relu.om", "ge-run's input and output buffers (4.0 MiB + 4.0 MiB)", "memory limit of 10.0 MiB"});
    EXPECT_EQ(Run("ge-run", {"--model", Path("relu.om"), "--mode", mode, "--max_memory", "20M"}).exit_code, 0);
  }
}

// Past the limit check (--max_memory 1T), the allocation itself fails: an
// error line, not a crash. Only where the kernel refuses allocations larger
// than the machine (overcommit heuristic or strict); with overcommit always
// on, a 512 GiB allocation would succeed and be touched.
TEST_F(HardeningTest, RunReportsAFailedAllocationAsAnError) {
  std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
  int mode = 1;
  if (!(overcommit >> mode) || mode == 1) GTEST_SKIP() << "overcommit_memory is 1: huge allocations succeed";
  OnnxModel expand("Expand", "expand0", {1, 1, 1, 1}, 4);
  expand.AddInt64Initializer("shape", {1 << 17, 1, 1 << 10, 1 << 10});  // 512 GiB
  ToolResult atc = Atc(Save("huge.onnx", expand), "huge", {"--max_memory", "1T"});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  for (const char* run_mode : {"v2", "sink"}) {
    SCOPED_TRACE(run_mode);
    ToolResult r = Run("ge-run", {"--model", Path("huge.om"), "--mode", run_mode, "--max_memory", "1T"}, 60);
    ExpectOneErrorLine(r, "ge-run", {"huge.om", "memory"});
  }
}

// ------------------------------------------------------------------- .npy

// The probe's header ("'shape':,(1, 3, 32, 32)") used to abort ge-run in an
// uncaught std::out_of_range; a float in the shape was accepted.
TEST_F(HardeningTest, RunRefusesMalformedNpyHeadersInOneLine) {
  const std::string om = ReluOm();
  const std::string data(1 * 3 * 32 * 32 * 4, '\0');
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"comma.npy", "{'descr': '<f4', 'fortran_order': False, 'shape':,(1, 3, 32, 32), }"},
      {"float.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1.0, 3, 32, 32), }"},
      {"exp.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1e0, 3, 32, 32), }"},
      {"open.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 32, 32, }"},
      {"negative.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, -3, 32, 32), }"},
      {"empty.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': , }"},
      {"nodescr.npy", "{'descr':"},
      {"huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"},
      {"digits.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 3), }"},
  };
  for (const auto& [file, header] : headers)
    for (const char* mode : {"v2", "sink"}) {
      SCOPED_TRACE(file + " " + mode);
      ExpectOneErrorLine(Run("ge-run", {"--model", om, "--mode", mode, "--input", Npy(file, header, data)}), "ge-run",
                         {"--input", file});
    }
  // The same bytes with a well-formed header run.
  const std::string good = Npy("good.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 32, 32), }", data);
  EXPECT_EQ(Run("ge-run", {"--model", om, "--input", good}).exit_code, 0);
  EXPECT_NE(Run("ge-run", {"--model", om, "--input", Path("huge.npy")}).err.find("too large"), std::string::npos);
}

// ---------------------------------------------------------------- messages

// A kernel's error named its node, and the v2 runtime named it again:
// "node gather0 (Gather): node gather0 (Gather): index 7 ...".
TEST_F(HardeningTest, RunNamesTheFailingNodeOnce) {
  OnnxModel gather("Gather", "gather0", {3, 4}, 2);
  gather.AddInput("i", onnx::TensorProto::INT64, {1});
  gather.Int("axis", 0);
  ToolResult atc = Atc(Save("gather.onnx", gather), "gather");
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  std::vector<float> x(12, 1.0f);
  const int64_t index = 7;
  ASSERT_TRUE(WriteNpy(Path("x.npy"), TensorDesc(DataType::kFloat32, {3, 4}), x.data()).ok());
  ASSERT_TRUE(WriteNpy(Path("i.npy"), TensorDesc(DataType::kInt64, {1}), &index).ok());
  for (const char* mode : {"v2", "sink"}) {
    SCOPED_TRACE(mode);
    ToolResult r = Run("ge-run", {"--model", Path("gather.om"), "--mode", mode, "--input", Path("x.npy") + "," + Path("i.npy")});
    ExpectOneErrorLine(r, "ge-run", {"node gather0 (Gather): index 7 is out of range"});
    const std::string once = "node gather0 (Gather)";
    const size_t first = r.err.find(once);
    ASSERT_NE(first, std::string::npos) << r.Describe();
    EXPECT_EQ(r.err.find(once, first + 1), std::string::npos) << "the node is named twice: " << r.err;
  }
}

// A string with invalid UTF-8 that the IR keeps (a node name): ge-atc wrote
// it into the .om's proto3 strings, libprotobuf complained on stderr, and
// ge-run could not read the file. Now ge-atc refuses it in one line; ge-run,
// given such a .om anyway, prints its one line and no libprotobuf line.
TEST_F(HardeningTest, InvalidUtf8GivesOneLineAndNoLibprotobufLine) {
  OnnxModel m("Relu", "relu\xff\xfe", {1, 4}, 2);
  m.proto().set_doc_string("doc strings are not kept: \xff is fine here");
  ToolResult r = Atc(Save("utf8.onnx", m), "utf8");
  ExpectAtcRefuses(r, {"utf8.onnx", "the name of node 0 (Relu) is not valid UTF-8"});
  std::vector<std::string> lines;
  for (const auto& l : SplitLines(r.err))
    if (l.rfind("[1/2] converting ", 0) != 0) lines.push_back(l);  // ge-atc's progress line
  EXPECT_EQ(lines.size(), 1u) << r.Describe();

  const std::string om = ReluOm();
  auto loaded = ReadOmFile(om);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  loaded->model.name = "relu\xff";
  ASSERT_TRUE(WriteOmFile(loaded->model, Path("bad_name.om")).ok());
  for (const char* mode : {"v2", "sink"}) {
    ToolResult run = Run("ge-run", {"--model", Path("bad_name.om"), "--mode", mode});
    ExpectOneErrorLine(run, "ge-run", {"bad_name.om"});
    EXPECT_EQ(SplitLines(run.err).size(), 1u) << run.Describe();
  }
}

TEST_F(HardeningTest, AtcNamesAnUndefinedValueBeforeTheOpsetConverter) {
  // Found by the fuzzer: the onnx version converter (opset 9 -> 13)
  // dereferenced a graph output that nothing produces.
  OnnxModel out("Tanh", "tanh0", {1, 4}, 2);
  out.proto().mutable_opset_import(0)->set_version(9);
  out.proto().mutable_graph()->mutable_output(0)->set_name("Y");
  ExpectAtcRefuses(Atc(Save("dangling.onnx", out), "dangling"),
                   {"dangling.onnx", "graph output 'Y' in graph 'hardening' is not produced by any node"});
  OnnxModel in("Tanh", "tanh0", {1, 4}, 2);
  in.proto().mutable_opset_import(0)->set_version(9);
  in.node()->set_input(0, "nowhere");
  ExpectAtcRefuses(Atc(Save("undefined.onnx", in), "undefined"),
                   {"undefined.onnx", "tanh0", "'nowhere'"});  // the onnx checker's words
}

TEST_F(HardeningTest, OnnxLibraryWarningsGoToTheLogNotStderr) {
  // The onnx checker writes "Warning: Checker does not support models with
  // experimental ops" to std::cerr itself; --log info shows it, stderr not.
  OnnxModel m("Crop", "crop0", {1, 1, 4, 4}, 4);
  m.proto().mutable_opset_import(0)->set_version(9);
  m.Ints("border", {0, 0, 0, 0});
  ToolResult r = Atc(Save("crop.onnx", m), "crop");
  ExpectAtcRefuses(r, {"crop.onnx", "Crop"});
  EXPECT_EQ(r.err.find("Checker does not support"), std::string::npos) << r.Describe();
  ToolResult info = Atc(Path("crop.onnx"), "crop", {"--log", "info"});
  EXPECT_NE(info.err.find("onnx: Warning: Checker does not support models with experimental ops: Crop"), std::string::npos)
      << info.Describe();
}

}  // namespace
}  // namespace ge::test
