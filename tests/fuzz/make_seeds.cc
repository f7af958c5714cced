// Writes the seed inputs of the fuzz targets: small ONNX models and TF
// GraphDefs that each exercise a few ops and attributes (strides, pads,
// broadcasting, constant shapes, control inputs, symbolic dims...), the .om
// that the compiler makes of each (Compile + SerializeOm, ge-atc's path), and
// .npy files of every dtype and header version; and the deep-nesting
// crashers of the text inputs, too big to commit.
//
//   fuzz_make_seeds OUT_DIR      → OUT_DIR/{onnx,tf,om,npy,ge_text,fusion_switch}/
//
// Generated rather than committed, so the seeds follow the formats as they
// change; tests/fuzz/corpus holds what must be replayed forever.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/om.h"
#include "ge/tools/npy.h"
#include "ge_base/logging.h"
#include "ge_parsers/onnx_parser.h"
#include "ge_parsers/tf_parser.h"
#include "parser/onnx_model_builder.h"
#include "tf_graph.pb.h"

namespace {

namespace fs = std::filesystem;
using ge::test::AttrInt;
using ge::test::AttrInts;
using ge::test::AttrFloat;
using ge::test::AttrString;
using ge::test::OnnxModelBuilder;
using onnx::TensorProto;
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

Floats Ramp(size_t n) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.1f * static_cast<float>(static_cast<int>(i % 7) - 3);
  return v;
}
size_t Count(const Ints& d) {
  size_t n = 1;
  for (int64_t x : d) n *= static_cast<size_t>(x);
  return n;
}

bool WriteBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

// NV12 to RGB with normalisation: every AIPP step but padding.
const char* kAippSeed =
    "aipp_op { aipp_mode: static input_format: YUV420SP_U8 csc_switch: true rbuv_swap_switch: true "
    "matrix_r0c0: 256 matrix_r0c2: 359 matrix_r1c0: 256 matrix_r1c1: -88 matrix_r1c2: -183 matrix_r2c0: 256 "
    "matrix_r2c1: 454 input_bias_1: 128 input_bias_2: 128 mean_chn_0: 104 var_reci_chn_0: 0.017 }";

struct Writer {
  fs::path out;
  int failures = 0;
  int compiled = 0;

  void Source(const std::string& kind, const std::string& name, const std::string& bytes) {
    if (!WriteBytes(out / kind / (name + (kind == "onnx" ? ".onnx" : ".pb")), bytes)) ++failures;
    ge::Result<std::unique_ptr<ge::Graph>> g =
        kind == "onnx" ? ge::ParseOnnxBytes(bytes, {}, name) : ge::ParseTfBytes(bytes, {}, name);
    // A seed the front end refuses still seeds its own target; only the .om needs a model.
    if (!g.ok()) {
      std::fprintf(stderr, "make_seeds: %s/%s does not parse (seed kept): %s\n", kind.c_str(), name.c_str(),
                   g.status().message().c_str());
      return;
    }
    ge::CompileOptions o;
    o.model_name = name;
    o.framework = kind == "onnx" ? "onnx" : "tensorflow";
    auto m = ge::Compile(std::move(g).value(), o);
    if (!m.ok()) {
      std::fprintf(stderr, "make_seeds: %s/%s does not compile (no .om): %s\n", kind.c_str(), name.c_str(),
                   m.status().message().c_str());
      return;
    }
    auto om = ge::SerializeOm(*m);
    if (!om.ok() || !WriteBytes(out / "om" / (kind + "_" + name + ".om"), *om)) ++failures;
    ++compiled;
    // With AIPP in front (models whose first input is a 3-channel NCHW image):
    // the Aipp kernel's attributes in the plan.
    if (auto aipp = ge::ParseAippConfig(kAippSeed, "seed.cfg"); aipp.ok()) {
      ge::CompileOptions a = o;
      a.aipp = *aipp;
      auto ga = kind == "onnx" ? ge::ParseOnnxBytes(bytes, {}, name) : ge::ParseTfBytes(bytes, {}, name);
      auto ma = ga.ok() ? ge::Compile(std::move(ga).value(), a) : ge::Result<ge::Model>(ga.status());
      if (ma.ok())
        if (auto oma = ge::SerializeOm(*ma); oma.ok()) WriteBytes(out / "om" / (kind + "_" + name + ".aipp.om"), *oma);
    }
    // Two streams: event record/wait tasks in the plan.
    o.stream_num = 2;
    auto g2 = kind == "onnx" ? ge::ParseOnnxBytes(bytes, {}, name) : ge::ParseTfBytes(bytes, {}, name);
    if (!g2.ok()) return;
    auto m2 = ge::Compile(std::move(g2).value(), o);
    if (!m2.ok() || m2->streams.size() < 2) return;
    auto om2 = ge::SerializeOm(*m2);
    if (om2.ok()) WriteBytes(out / "om" / (kind + "_" + name + ".2streams.om"), *om2);
  }
};

// ---------------------------------------------------------------- ONNX

constexpr int kF = TensorProto::FLOAT;
constexpr int kI64 = TensorProto::INT64;

void OnnxSeeds(Writer& w) {
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 3, 8, 8}).Output("y", kF, {-1, -1, -1, -1});
    b.RawInit<float>("w", kF, {4, 3, 3, 3}, Ramp(108)).RawInit<float>("b", kF, {4}, Ramp(4));
    auto* c = b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv");
    AttrInts(c, "pads", {1, 1, 1, 1});
    AttrInts(c, "strides", {2, 2});
    AttrInts(c, "kernel_shape", {3, 3});
    b.Node("Relu", {"c"}, {"y"});
    w.Source("onnx", "conv_relu", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 4, 8, 8}).Output("y", kF, {-1, -1, -1, -1});
    b.RawInit<float>("w", kF, {4, 1, 3, 3}, Ramp(36));
    auto* c = b.Node("Conv", {"x", "w"}, {"c"});
    AttrInt(c, "group", 4);
    AttrInts(c, "dilations", {2, 2});
    AttrString(c, "auto_pad", "SAME_UPPER");
    auto* p = b.Node("MaxPool", {"c"}, {"p"});
    AttrInts(p, "kernel_shape", {3, 3});
    AttrInts(p, "strides", {2, 2});
    AttrInt(p, "ceil_mode", 1);
    auto* a = b.Node("AveragePool", {"p"}, {"y"});
    AttrInts(a, "kernel_shape", {2, 2});
    AttrInts(a, "pads", {1, 1, 0, 0});
    AttrInt(a, "count_include_pad", 1);
    w.Source("onnx", "depthwise_pools", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 8}).Output("y", kF, {2, 4});
    b.RawInit<float>("w", kF, {4, 8}, Ramp(32)).RawInit<float>("b", kF, {4}, Ramp(4));
    auto* g = b.Node("Gemm", {"x", "w", "b"}, {"g"});
    AttrInt(g, "transB", 1);
    AttrFloat(g, "alpha", 0.5f);
    auto* s = b.Node("Softmax", {"g"}, {"y"});
    AttrInt(s, "axis", -1);
    w.Source("onnx", "gemm_softmax", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 2, 3, 4}).Output("y", kF, {-1, -1, -1});
    b.RawInit<int64_t>("shape", kI64, {3}, {1, 6, -1});
    b.Node("Reshape", {"x", "shape"}, {"r"});
    auto* t = b.Node("Transpose", {"r"}, {"y"});
    AttrInts(t, "perm", {0, 2, 1});
    w.Source("onnx", "reshape_transpose", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("a", kF, {1, 2, 4, 4}).Input("b", kF, {1, 3, 4, 4}).Output("y", kF, {-1, -1, -1, -1});
    auto* c = b.Node("Concat", {"a", "b"}, {"c"});
    AttrInt(c, "axis", 1);
    b.RawInit<int64_t>("starts", kI64, {2}, {1, -1}).RawInit<int64_t>("ends", kI64, {2}, {5, -5});
    b.RawInit<int64_t>("axes", kI64, {2}, {1, 3}).RawInit<int64_t>("steps", kI64, {2}, {2, -2});
    b.Node("Slice", {"c", "starts", "ends", "axes", "steps"}, {"y"});
    w.Source("onnx", "concat_slice", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 3, 4}).Output("y", kF, {2, 3, 4});
    b.RawInit<float>("c", kF, {4}, Ramp(4)).RawInit<float>("d", kF, {3, 1}, {1.f, 2.f, 4.f});
    b.Node("Add", {"x", "c"}, {"s"});
    b.Node("Mul", {"s", "d"}, {"m"});
    b.Node("Sub", {"m", "x"}, {"u"});
    b.Node("Div", {"u", "d"}, {"y"});
    w.Source("onnx", "broadcast", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("i", kI64, {3}).Output("y", kF, {3, 4});
    b.RawInit<float>("table", kF, {5, 4}, Ramp(20));
    auto* g = b.Node("Gather", {"table", "i"}, {"y"});
    AttrInt(g, "axis", 0);
    w.Source("onnx", "gather", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 3, 4}).Output("y", kF, {-1}).Output("z", kF, {-1, -1, -1});
    auto* r = b.Node("ReduceMean", {"x"}, {"m"});
    AttrInts(r, "axes", {1, 2});
    AttrInt(r, "keepdims", 0);
    b.Node("Relu", {"m"}, {"y"});
    b.RawInit<int64_t>("axes", kI64, {1}, {-1});
    b.Node("ReduceSum", {"x", "axes"}, {"z"});
    w.Source("onnx", "reduce", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 3, 4, 4}).Output("y", kF, {1, 3, 4, 4});
    b.RawInit<float>("s", kF, {3}, {1.f, 0.5f, 2.f}).RawInit<float>("o", kF, {3}, Ramp(3));
    b.RawInit<float>("m", kF, {3}, Ramp(3)).RawInit<float>("v", kF, {3}, {1.f, 2.f, 3.f});
    auto* n = b.Node("BatchNormalization", {"x", "s", "o", "m", "v"}, {"y"});
    AttrFloat(n, "epsilon", 1e-3f);
    w.Source("onnx", "batchnorm", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 6}).Output("y", kF, {-1, -1, -1}).Output("z", kF, {});
    b.RawInit<int64_t>("split", kI64, {2}, {2, 4});
    auto* s = b.Node("Split", {"x", "split"}, {"a", "c"});
    AttrInt(s, "axis", 1);
    b.RawInit<int64_t>("ax0", kI64, {1}, {0});
    b.Node("Unsqueeze", {"a", "ax0"}, {"y"});
    b.Node("Flatten", {"c"}, {"f"});
    b.Node("ReduceMax", {"f"}, {"rm"});
    b.Node("Squeeze", {"rm"}, {"z0"});
    b.Node("Abs", {"z0"}, {"z"});
    w.Source("onnx", "split_squeeze", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 3, 4}).Output("y", kF, {2, 3, 5});
    b.RawInit<float>("w", kF, {4, 5}, Ramp(20));
    b.Node("MatMul", {"x", "w"}, {"y"});
    w.Source("onnx", "matmul", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 2, 3, 3}).Output("y", kF, {-1, -1, -1, -1});
    b.RawInit<int64_t>("pads", kI64, {8}, {0, 0, 1, 2, 0, 0, 2, 1});
    b.RawInit<float>("lo", kF, {}, {0.f}).RawInit<float>("hi", kF, {}, {6.f});
    b.Node("Pad", {"x", "pads"}, {"p"});
    b.Node("Clip", {"p", "lo", "hi"}, {"y"});
    w.Source("onnx", "pad_clip", b.Bytes());
  }
  {
    // Shape arithmetic the compiler folds: Shape → Gather → Concat → Reshape.
    OnnxModelBuilder b;
    b.Input("x", kF, {2, 3, 4}).Output("y", kF, {-1, -1});
    b.Node("Shape", {"x"}, {"s"});
    b.RawInit<int64_t>("i0", kI64, {1}, {0}).RawInit<int64_t>("m1", kI64, {1}, {-1});
    b.Node("Gather", {"s", "i0"}, {"n"});
    auto* c = b.Node("Concat", {"n", "m1"}, {"shape"});
    AttrInt(c, "axis", 0);
    b.Node("Reshape", {"x", "shape"}, {"y"});
    w.Source("onnx", "shape_folding", b.Bytes());
  }
  {
    // Two independent branches of two convs each, to two outputs (an Add
    // joining them would fuse into a conv as its sum post-op and make one
    // chain): with --stream_num 2 each gets a stream (the 2streams .om).
    OnnxModelBuilder b;
    b.Input("x", kF, {1, 8, 16, 16}).Output("a", kF, {1, 8, 16, 16}).Output("b", kF, {1, 8, 16, 16});
    for (const char* br : {"a", "b"}) {
      const std::string p = br;
      std::string in = "x";
      for (const char* k : {"1", "2"}) {
        b.RawInit<float>(p + "w" + k, kF, {8, 8, 3, 3}, Ramp(576));
        auto* c = OnnxModelBuilder::NodeIn(b.graph(), "Conv", {in, p + "w" + k}, {p + "c" + k});
        AttrInts(c, "pads", {1, 1, 1, 1});
        in = std::string(k) == "2" ? p : p + "r" + k;
        OnnxModelBuilder::NodeIn(b.graph(), "Relu", {p + "c" + k}, {in});
      }
    }
    w.Source("onnx", "two_branches", b.Bytes());
  }
  {
    OnnxModelBuilder b;
    b.Input("x", kF, {-1, 4}).Output("y", kF, {-1, 4});
    b.Node("Sigmoid", {"x"}, {"s"});
    b.Node("Mul", {"x", "s"}, {"y"});
    w.Source("onnx", "symbolic_batch", b.Bytes());
  }
  {
    // An old opset: the onnx library's version converter runs first.
    OnnxModelBuilder b(9);
    b.Input("x", kF, {1, 4}).Output("y", kF, {-1, -1, -1});
    auto* u = b.Node("Unsqueeze", {"x"}, {"u"});
    AttrInts(u, "axes", {0});
    b.Node("Tanh", {"u"}, {"y"});
    w.Source("onnx", "opset9_unsqueeze", b.Bytes());
  }
  {
    OnnxModelBuilder b(17);
    b.Input("x", kF, {2, 8}).Output("y", kF, {2, 8});
    auto* k = ge::test::AttrTensor(b.Node("Constant", {}, {"k"}), "value");
    k->set_data_type(kF);
    k->add_dims(8);
    for (float v : Ramp(8)) k->add_float_data(v);
    b.RawInit<float>("g", kF, {8}, Ramp(8)).RawInit<float>("bt", kF, {8}, Ramp(8));
    b.Node("Add", {"x", "k"}, {"a"});
    auto* ln = b.Node("LayerNormalization", {"a", "g", "bt"}, {"l"});
    AttrInt(ln, "axis", -1);
    auto* c = b.Node("Cast", {"l"}, {"y"});
    AttrInt(c, "to", kF);
    w.Source("onnx", "opset17_layernorm", b.Bytes());
  }
  {
    // A subgraph (If) for the graph builder's control-flow path.
    OnnxModelBuilder b;
    b.Input("c", TensorProto::BOOL, {}).Input("x", kF, {2}).Output("y", kF, {2});
    auto* n = b.Node("If", {"c"}, {"y"});
    for (const char* branch : {"then_branch", "else_branch"}) {
      onnx::GraphProto* g = ge::test::AttrGraph(n, branch);
      g->set_name(branch);
      OnnxModelBuilder::NodeIn(g, std::string(branch) == "then_branch" ? "Relu" : "Neg", {"x"}, {"o"});
      auto* o = g->add_output();
      o->set_name("o");
      ge::test::SetShape(o->mutable_type(), kF, {2});
    }
    w.Source("onnx", "if_subgraph", b.Bytes());
  }
}

// ---------------------------------------------------------------- TensorFlow

class Tf {
 public:
  ge::tf::NodeDef* Node(const std::string& op, const std::string& name, std::vector<std::string> inputs = {}) {
    ge::tf::NodeDef* n = g_.add_node();
    n->set_op(op);
    n->set_name(name);
    for (const auto& i : inputs) n->add_input(i);
    (*n->mutable_attr())["T"].set_type(ge::tf::DT_FLOAT);
    return n;
  }
  void Placeholder(const std::string& name, const Ints& dims) {
    auto* n = Node("Placeholder", name);
    n->mutable_attr()->erase("T");
    (*n->mutable_attr())["dtype"].set_type(ge::tf::DT_FLOAT);
    auto* s = (*n->mutable_attr())["shape"].mutable_shape();
    for (int64_t d : dims) s->add_dim()->set_size(d);
  }
  template <typename T>
  void Const(const std::string& name, ge::tf::DataType dt, const Ints& dims, const std::vector<T>& v) {
    auto* n = Node("Const", name);
    n->mutable_attr()->erase("T");
    (*n->mutable_attr())["dtype"].set_type(dt);
    auto* t = (*n->mutable_attr())["value"].mutable_tensor();
    t->set_dtype(dt);
    for (int64_t d : dims) t->mutable_tensor_shape()->add_dim()->set_size(d);
    t->set_tensor_content(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)));
  }
  void ConstF(const std::string& name, const Ints& dims) { Const(name, ge::tf::DT_FLOAT, dims, Ramp(Count(dims))); }
  void ConstI32(const std::string& name, const Ints& dims, const std::vector<int32_t>& v) {
    Const(name, ge::tf::DT_INT32, dims, v);
  }
  std::string Bytes() const { return g_.SerializeAsString(); }

 private:
  ge::tf::GraphDef g_;
};

void S(ge::tf::NodeDef* n, const std::string& k, const std::string& v) { (*n->mutable_attr())[k].set_s(v); }
void L(ge::tf::NodeDef* n, const std::string& k, const Ints& v) {
  for (int64_t x : v) (*n->mutable_attr())[k].mutable_list()->add_i(x);
}
void B(ge::tf::NodeDef* n, const std::string& k, bool v) { (*n->mutable_attr())[k].set_b(v); }

void TfSeeds(Writer& w) {
  {
    Tf g;
    g.Placeholder("x", {1, 8, 8, 3});
    g.ConstF("w", {3, 3, 3, 4});
    g.ConstF("b", {4});
    auto* c = g.Node("Conv2D", "conv", {"x", "w"});
    S(c, "padding", "SAME");
    L(c, "strides", {1, 2, 2, 1});
    g.Node("BiasAdd", "bias", {"conv", "b"});
    g.Node("Relu", "out", {"bias"});
    w.Source("tf", "conv_bias_relu", g.Bytes());
  }
  {
    Tf g;
    g.Placeholder("x", {4, 16});
    g.ConstF("w", {16, 8});
    g.ConstF("b", {8});
    g.Node("MatMul", "mm", {"x", "w"});
    g.Node("BiasAdd", "ba", {"mm", "b"});
    g.Node("Tanh", "t", {"ba"});
    g.Node("Sigmoid", "out", {"t"});
    w.Source("tf", "mlp", g.Bytes());
  }
  {
    Tf g;
    g.Placeholder("x", {1, 7, 5, 2});
    auto* m = g.Node("MaxPool", "mp", {"x"});
    S(m, "padding", "VALID");
    L(m, "ksize", {1, 3, 3, 1});
    L(m, "strides", {1, 2, 1, 1});
    auto* a = g.Node("AvgPool", "out", {"mp"});
    S(a, "padding", "SAME");
    L(a, "ksize", {1, 2, 2, 1});
    L(a, "strides", {1, 2, 2, 1});
    w.Source("tf", "pools", g.Bytes());
  }
  {
    Tf g;
    g.Placeholder("x", {1, 4, 4, 2});
    g.Placeholder("y", {1, 4, 4, 3});
    g.ConstI32("axis", {}, {3});
    g.Node("ConcatV2", "cat", {"x", "y", "axis"});
    g.ConstI32("shape", {2}, {1, -1});
    g.Node("Reshape", "r", {"cat", "shape"});
    g.Node("Identity", "out", {"r", "^x"});  // a control input
    w.Source("tf", "concat_reshape_control", g.Bytes());
  }
  {
    Tf g;
    g.Placeholder("x", {1, 6, 6, 2});
    g.ConstF("dw", {3, 3, 2, 2});
    auto* d = g.Node("DepthwiseConv2dNative", "dw_conv", {"x", "dw"});
    S(d, "padding", "VALID");
    L(d, "strides", {1, 1, 1, 1});
    for (const char* p : {"s", "o", "m"}) g.ConstF(p, {4});
    g.Const<float>("v", ge::tf::DT_FLOAT, {4}, {1.f, 2.f, 0.5f, 1.f});
    auto* bn = g.Node("FusedBatchNormV3", "bn", {"dw_conv", "s", "o", "m", "v"});
    B(bn, "is_training", false);
    g.Node("Relu6", "r6", {"bn"});
    g.ConstI32("axes", {2}, {1, 2});
    auto* mean = g.Node("Mean", "mean", {"r6", "axes"});
    B(mean, "keep_dims", false);
    g.Node("Softmax", "out", {"mean"});
    w.Source("tf", "depthwise_bn_mean", g.Bytes());
  }
  {
    Tf g;
    g.Placeholder("x", {2, 6, 4});
    g.ConstI32("b", {3}, {0, 1, 0});
    g.ConstI32("e", {3}, {2, 5, 4});
    g.ConstI32("s", {3}, {1, 2, 1});
    auto* ss = g.Node("StridedSlice", "ss", {"x", "b", "e", "s"});
    (*ss->mutable_attr())["Index"].set_type(ge::tf::DT_INT32);
    (*ss->mutable_attr())["shrink_axis_mask"].set_i(1);
    (*ss->mutable_attr())["end_mask"].set_i(4);
    g.ConstI32("perm", {2}, {1, 0});
    g.Node("Transpose", "tr", {"ss", "perm"});
    g.ConstI32("pads", {2, 2}, {1, 0, 0, 2});
    g.Node("Pad", "pad", {"tr", "pads"});
    g.Node("Mul", "out", {"pad", "pad"});
    w.Source("tf", "strided_slice_pad", g.Bytes());
  }
}

// ---------------------------------------------------------------- .npy

void NpySeeds(Writer& w) {
  struct Case {
    const char* name;
    ge::DataType dtype;
    Ints dims;
  };
  for (const Case& c : {Case{"f32_4d", ge::DataType::kFloat32, {1, 3, 2, 2}}, Case{"f64_vec", ge::DataType::kFloat64, {5}},
                        Case{"f16", ge::DataType::kFloat16, {2, 3}}, Case{"i64_scalar", ge::DataType::kInt64, {}},
                        Case{"i32", ge::DataType::kInt32, {3, 1}}, Case{"i8", ge::DataType::kInt8, {4}},
                        Case{"u8_empty", ge::DataType::kUInt8, {0, 3}}, Case{"bool", ge::DataType::kBool, {2, 2}}}) {
    ge::TensorDesc d;
    d.dtype = c.dtype;
    d.dims = c.dims;
    std::vector<uint8_t> data(static_cast<size_t>(std::max<int64_t>(d.Bytes(), 1)));
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37);
    if (c.dtype == ge::DataType::kBool)
      for (auto& b : data) b &= 1;
    if (!ge::WriteNpy((w.out / "npy" / (std::string(c.name) + ".npy")).string(), d, data.data()).ok()) ++w.failures;
  }
  // Hand-written headers: format versions 2.0 and 3.0 (4-byte length), extra
  // spaces and a key order numpy does not write.
  auto raw = [&](const std::string& name, char major, const std::string& dict, size_t payload) {
    std::string h = dict;
    const size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::string b = std::string("\x93NUMPY", 6) + major + '\0';
    const uint32_t len = static_cast<uint32_t>(h.size());
    if (major == 1) {
      b += static_cast<char>(len & 0xff);
      b += static_cast<char>(len >> 8);
    } else {
      b.append(reinterpret_cast<const char*>(&len), 4);
    }
    b += h + std::string(payload, '\x01');
    if (!WriteBytes(w.out / "npy" / name, b)) ++w.failures;
  };
  raw("v2.npy", 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 16);
  raw("v3.npy", 3, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 12);
  raw("reordered.npy", 1, "{'shape': ( 1 , 2 ), 'fortran_order': False, 'descr': '<u2'}", 4);
  raw("fortran.npy", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16);
}

// ---------------------------------------------------------------- deep nesting

// Crashers once (stack overflows in the recursive readers, issue 46) that
// must be replayed forever, like tests/fuzz/corpus, but are 384 KB and
// 250 KB of one repeated line: written here instead of committed. Each reader
// must refuse them at its depth limit.
void DeepNestingSeeds(Writer& w) {
  constexpr int kIfs = 8000;  // .ge: an If whose then-branch holds an If, ...
  std::string ge;
  for (int i = 0; i < kIfs; ++i) ge += "graph g {\n%i = If(_) -> ()\n// subgraph t of i\n";
  ge += "graph g {\n";
  for (int i = 0; i <= kIfs; ++i) ge += "}\n";
  if (!WriteBytes(w.out / "ge_text" / "nested-ifs-8000.ge", ge)) ++w.failures;
  constexpr int kLevels = 50000;  // fusion switch JSON: {"":{"":...{"":"on"}...}}
  std::string json;
  for (int i = 1; i < kLevels; ++i) json += "{\"\":";
  json += "{\"\":\"on\"}" + std::string(kLevels - 1, '}');
  if (!WriteBytes(w.out / "fusion_switch" / "nested-50000-levels.json", json)) ++w.failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds OUT_DIR\n");
    return 2;
  }
  (void)ge::SetupLogging("error");
  Writer w{argv[1]};
  for (const char* sub : {"onnx", "tf", "om", "npy", "ge_text", "fusion_switch"}) fs::create_directories(w.out / sub);
  OnnxSeeds(w);
  TfSeeds(w);
  NpySeeds(w);
  DeepNestingSeeds(w);
  if (w.failures) {
    std::fprintf(stderr, "make_seeds: %d files could not be written under %s\n", w.failures, argv[1]);
    return 1;
  }
  std::printf("make_seeds: wrote seeds under %s (%d .om compiled)\n", argv[1], w.compiled);
  return 0;
}
