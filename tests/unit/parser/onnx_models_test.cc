// The parser on the reference models in GE_MODELS_DIR (skipped when absent).
// Node counts are checked against the ONNX file itself, read here directly,
// and against facts about each model that the README states.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "onnx_parser_test_util.h"

namespace ge::test {
namespace {

std::string ModelPath(const std::string& name) { return std::string(GE_MODELS_DIR) + "/" + name + ".onnx"; }

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

#define SKIP_IF_MISSING(name)                    \
  if (!std::filesystem::exists(ModelPath(name))) \
  GTEST_SKIP() << ModelPath(name) << " is absent (GE_MODELS_DIR=" << GE_MODELS_DIR << ")"

struct Parsed {
  std::unique_ptr<Graph> graph;
  onnx::ModelProto proto;  // the file as onnx reads it, to compare against
  double ms = 0;
};

Parsed ParseReference(const std::string& name, const ParseOptions& opts = {}) {
  Parsed p;
  const std::string path = ModelPath(name);
  EXPECT_TRUE(p.proto.ParseFromString(ReadAll(path))) << path;
  const auto t0 = std::chrono::steady_clock::now();
  auto r = ParseOnnxFile(path, opts);
  p.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return p;
  p.graph = std::move(r).value();
  Status v = VerifyGraph(*p.graph);
  EXPECT_TRUE(v.ok()) << v.ToString();
  // Informational only: speed is measured by the benchmarks, not asserted here.
  std::printf("[ parse ] %s: %zu nodes in %.1f ms\n", name.c_str(), p.graph->num_nodes(), p.ms);
  return p;
}

// What the graph must hold, derived from the file: one node per ONNX node
// (Constant → Const), one Const per initializer, one Data per real input.
void ExpectMatchesFile(const Parsed& p) {
  ASSERT_TRUE(p.graph);
  const onnx::GraphProto& g = p.proto.graph();
  std::map<std::string, int> want;
  std::set<std::string> inits;
  for (const auto& t : g.initializer()) inits.insert(t.name());
  want[op::kConst] = static_cast<int>(inits.size());
  for (const auto& in : g.input())
    if (!inits.count(in.name())) ++want[op::kData];
  for (const auto& n : g.node()) ++want[n.op_type() == "Constant" ? std::string(op::kConst) : n.op_type()];
  want[op::kNetOutput] = 1;
  EXPECT_EQ(TypeCounts(*p.graph), want);

  int64_t opset = -1;
  for (const auto& o : p.proto.opset_import())
    if (o.domain().empty()) opset = o.version();
  std::set<std::string> node_names;
  for (const auto& n : g.node()) node_names.insert(n.name().empty() ? n.output(0) : n.name());
  for (Node* n : p.graph->nodes()) {
    const bool from_node = node_names.count(n->name()) > 0;
    if (from_node) {
      EXPECT_EQ(n->GetInt("_opset", -1), opset) << n->Label();
    }
    if (n->type() == op::kNetOutput) continue;
    // Shape inference described every output of these static models.
    for (size_t o = 0; o < n->num_outputs(); ++o)
      EXPECT_NE(n->output_desc(o).dtype, DataType::kUndefined) << n->Label() << " output " << o;
  }
  // Node names come from the file; unnamed nodes take their first output's name.
  for (const auto& n : g.node()) {
    const std::string& name = n.name().empty() ? n.output(0) : n.name();
    Node* found = p.graph->FindNode(name);
    ASSERT_NE(found, nullptr) << name;
    EXPECT_EQ(found->type(), n.op_type() == "Constant" ? std::string(op::kConst) : n.op_type()) << name;
  }

  std::vector<std::string> outputs;
  for (const auto& o : g.output()) outputs.push_back(o.name());
  EXPECT_EQ(p.graph->OutputNode()->GetStrings("output_names"), outputs);
}

int Count(const Graph& g, const std::string& type) {
  auto c = TypeCounts(g);
  return c.count(type) ? c[type] : 0;
}

TEST(OnnxModels, SmallCnn) {
  SKIP_IF_MISSING("small_cnn");
  Parsed p = ParseReference("small_cnn");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  EXPECT_GT(Count(*p.graph, "BatchNormalization"), 0);  // left unfused on purpose
  ASSERT_EQ(p.graph->InputNodes().size(), 1u);
  EXPECT_EQ(p.graph->InputNodes()[0]->output_desc(0), TensorDesc(DataType::kFloat32, {1, 3, 32, 32}));
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {1, 10}));
}

TEST(OnnxModels, Resnet18) {
  SKIP_IF_MISSING("resnet18");
  Parsed p = ParseReference("resnet18");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  EXPECT_EQ(Count(*p.graph, "Conv"), 20);
  EXPECT_EQ(Count(*p.graph, "BatchNormalization"), 0);  // folded by the exporter
  EXPECT_EQ(Count(*p.graph, "Gemm"), 1);
  Node* in = p.graph->FindNode("input");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->type(), op::kData);
  EXPECT_EQ(in->output_desc(0), TensorDesc(DataType::kFloat32, {1, 3, 224, 224}));
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {1, 1000}));
  // The first convolution's weights arrive as a Const with the right shape.
  for (Node* n : p.graph->nodes()) {
    if (n->type() != "Conv") continue;
    ASSERT_EQ(n->InputNode(0), in) << "the first Conv reads the input";
    Node* w = n->InputNode(1);
    ASSERT_EQ(w->type(), op::kConst);
    EXPECT_EQ(w->GetTensor("value")->desc(), TensorDesc(DataType::kFloat32, {64, 3, 7, 7}));
    EXPECT_EQ(n->GetInts("strides"), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(n->output_desc(0), TensorDesc(DataType::kFloat32, {1, 64, 112, 112}));
    break;
  }
}

TEST(OnnxModels, Resnet18WithBatchOverride) {
  SKIP_IF_MISSING("resnet18");
  ParseOptions opts;
  opts.input_shapes["input"] = {4, 3, 224, 224};
  Parsed p = ParseReference("resnet18", opts);
  ASSERT_TRUE(p.graph);
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {4, 1000}));
}

TEST(OnnxModels, MobilenetV2) {
  SKIP_IF_MISSING("mobilenet_v2");
  Parsed p = ParseReference("mobilenet_v2");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  EXPECT_GT(Count(*p.graph, "Clip"), 0);
  bool depthwise = false;
  for (Node* n : p.graph->nodes()) depthwise |= n->type() == "Conv" && n->GetInt("group", 1) > 1;
  EXPECT_TRUE(depthwise);
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {1, 1000}));
}

TEST(OnnxModels, Squeezenet) {
  SKIP_IF_MISSING("squeezenet1_1");
  Parsed p = ParseReference("squeezenet1_1");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  EXPECT_GT(Count(*p.graph, "Concat"), 0);
  bool ceil_mode = false;
  for (Node* n : p.graph->nodes()) ceil_mode |= n->type() == "MaxPool" && n->GetInt("ceil_mode") == 1;
  EXPECT_TRUE(ceil_mode);
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {1, 1000}));
}

TEST(OnnxModels, BertEncoder) {
  SKIP_IF_MISSING("bert_encoder");
  Parsed p = ParseReference("bert_encoder");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  ASSERT_EQ(p.graph->InputNodes().size(), 1u);
  Node* in = p.graph->InputNodes()[0];
  EXPECT_EQ(in->name(), "input");
  EXPECT_EQ(in->output_desc(0), TensorDesc(DataType::kInt64, {1, 128}));
  for (const char* t : {"Gather", "MatMul", "Softmax", "Erf", "ReduceMean", "Reshape", "Transpose"})
    EXPECT_GT(Count(*p.graph, t), 0) << t;
  // The exporter wrote Constant nodes; they arrive as Const (ExpectMatchesFile counts them).
  int constants = 0;
  for (const auto& n : p.proto.graph().node()) constants += n.op_type() == "Constant";
  EXPECT_GT(constants, 0);
  EXPECT_EQ(Count(*p.graph, "Constant"), 0);
  EXPECT_EQ(p.graph->FindNode(p.graph->OutputNode()->InputNode(0)->name())->output_desc(0).dtype, DataType::kFloat32);
  EXPECT_EQ(p.graph->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {1, 2}));
  EXPECT_EQ(p.graph->nodes().back()->type(), op::kNetOutput);
  for (Node* n : p.graph->nodes())
    if (n->type() == "MatMul") {
      EXPECT_EQ(n->GetInt("_opset", -1), 14) << n->Label();
    }
}

TEST(OnnxModels, AddChain1000) {
  SKIP_IF_MISSING("add_chain_1000");
  Parsed p = ParseReference("add_chain_1000");
  ASSERT_TRUE(p.graph);
  ExpectMatchesFile(p);
  EXPECT_EQ(Count(*p.graph, "Add"), 1000);
  // A chain: every Add but the first reads the previous one.
  Node* prev = nullptr;
  for (Node* n : p.graph->nodes()) {
    if (n->type() != "Add") continue;
    if (prev) {
      EXPECT_TRUE(n->InputNode(0) == prev || n->InputNode(1) == prev) << n->Label();
    }
    prev = n;
  }
  EXPECT_EQ(p.graph->OutputNode()->InputNode(0), prev);
}

TEST(OnnxModels, TruncatedReferenceModelIsCorrupt) {
  SKIP_IF_MISSING("small_cnn");
  const std::string bytes = ReadAll(ModelPath("small_cnn"));
  for (size_t keep : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 7}) {
    SCOPED_TRACE(keep);
    auto r = ParseOnnxBytes(bytes.substr(0, keep), {}, "small_cnn.cut.onnx");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
    EXPECT_EQ(r.status().message().rfind("small_cnn.cut.onnx: not an ONNX model (", 0), 0u) << r.status().message();
  }
}

TEST(OnnxModels, EveryModelInTheDirectoryParses) {
  if (!std::filesystem::is_directory(GE_MODELS_DIR)) GTEST_SKIP() << GE_MODELS_DIR << " is absent";
  int parsed = 0;
  for (const auto& e : std::filesystem::directory_iterator(GE_MODELS_DIR)) {
    if (e.path().extension() != ".onnx") continue;
    SCOPED_TRACE(e.path().string());
    auto r = ParseOnnxFile(e.path().string(), {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(VerifyGraph(*r.value()).ok());
    ++parsed;
  }
  if (parsed == 0) GTEST_SKIP() << "no .onnx files in " << GE_MODELS_DIR;
}

}  // namespace
}  // namespace ge::test
