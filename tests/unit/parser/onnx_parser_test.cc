// The ONNX parser on small models built in C++: nodes, edges, descriptions,
// attributes, Const values, Data indices, NetOutput, overrides, naming.
#include <gtest/gtest.h>

#include "ge/ir/nesting.h"
#include "ge/ir/text_form.h"
#include "onnx_parser_test_util.h"
#include "tests/common/refusal.h"

namespace ge::test {
namespace {

// x f32[1,4] + w (initializer, raw_data) → Add → Relu → z
OnnxModelBuilder AddRelu() {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 4});
  b.RawInit<float>("w", TensorProto::FLOAT, {1, 4}, {1, 2, 3, 4});
  b.Node("Add", {"x", "w"}, {"y"}, "add");
  b.Node("Relu", {"y"}, {"z"}, "relu");
  b.Output("z", TensorProto::FLOAT, {1, 4});
  return b;
}

TEST(OnnxParser, BuildsNodesEdgesAndDescriptions) {
  auto g = ParseAndVerify(AddRelu());
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name(), "test_graph");
  EXPECT_EQ(NodeNames(*g), (std::vector<std::string>{"x", "w", "add", "relu", "NetOutput"}));

  Node* x = g->FindNode("x");
  EXPECT_EQ(x->type(), op::kData);
  EXPECT_EQ(x->GetInt("index", -1), 0);
  EXPECT_EQ(x->output_desc(0), TensorDesc(DataType::kFloat32, {1, 4}));

  Node* w = g->FindNode("w");
  EXPECT_EQ(w->type(), op::kConst);
  ASSERT_NE(w->GetTensor("value"), nullptr);
  EXPECT_EQ(w->GetTensor("value")->ToDouble(), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(w->output_desc(0), TensorDesc(DataType::kFloat32, {1, 4}));

  Node* add = g->FindNode("add");
  EXPECT_EQ(add->type(), "Add");
  ASSERT_EQ(add->num_inputs(), 2u);
  EXPECT_EQ(add->InputSource(0), (Endpoint{x, 0}));
  EXPECT_EQ(add->InputSource(1), (Endpoint{w, 0}));
  EXPECT_EQ(add->GetInt("_opset", -1), 13);
  // Shape inference gave the intermediate its description.
  EXPECT_EQ(add->output_desc(0), TensorDesc(DataType::kFloat32, {1, 4}));
  EXPECT_EQ(add->input_desc(1), TensorDesc(DataType::kFloat32, {1, 4}));

  Node* out = g->OutputNode();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->name(), "NetOutput");
  ASSERT_EQ(out->num_inputs(), 1u);
  EXPECT_EQ(out->InputNode(0)->name(), "relu");
  EXPECT_EQ(out->GetStrings("output_names"), (std::vector<std::string>{"z"}));
  EXPECT_EQ(out->input_desc(0), TensorDesc(DataType::kFloat32, {1, 4}));
}

TEST(OnnxParser, DataIndicesFollowInputsThatAreNotInitializers) {
  OnnxModelBuilder b;
  // Old exporters list weights as graph inputs too; those stay Const.
  b.Input("w", TensorProto::FLOAT, {4});
  b.Input("a", TensorProto::FLOAT, {4});
  b.Input("b", TensorProto::FLOAT, {4});
  b.RawInit<float>("w", TensorProto::FLOAT, {4}, {1, 1, 1, 1});
  b.Node("Sum", {"b", "a", "w"}, {"s"}, "sum");
  b.Output("s", TensorProto::FLOAT, {4});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("w")->type(), op::kConst);
  EXPECT_EQ(g->FindNode("a")->GetInt("index", -1), 0);
  EXPECT_EQ(g->FindNode("b")->GetInt("index", -1), 1);
  ASSERT_EQ(g->InputNodes().size(), 2u);
  Node* sum = g->FindNode("sum");
  EXPECT_EQ(sum->InputNode(0)->name(), "b");
  EXPECT_EQ(sum->InputNode(1)->name(), "a");
  EXPECT_EQ(sum->InputNode(2)->name(), "w");
}

TEST(OnnxParser, AbsentOptionalInputsKeepLaterPositions) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2, 3});
  b.RawInit<float>("hi", TensorProto::FLOAT, {}, {6.f});
  b.Node("Clip", {"x", "", "hi"}, {"y"}, "clip");  // min absent, max present
  b.Output("y", TensorProto::FLOAT, {2, 3});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  Node* clip = g->FindNode("clip");
  ASSERT_EQ(clip->num_inputs(), 3u);
  EXPECT_TRUE(clip->HasInput(0));
  EXPECT_FALSE(clip->HasInput(1));
  ASSERT_TRUE(clip->HasInput(2));
  EXPECT_EQ(clip->InputNode(2)->name(), "hi");
  EXPECT_EQ(clip->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3}));
}

// LSTM carries INT, FLOAT, STRING, FLOATS and STRINGS attributes, absent
// optional inputs in the middle and an absent optional output.
TEST(OnnxParser, ConvertsAttributesAndOptionalAnchors) {
  OnnxModelBuilder b;
  b.Input("X", TensorProto::FLOAT, {2, 1, 3});
  b.Input("h0", TensorProto::FLOAT, {1, 1, 2});
  b.RawInit<float>("W", TensorProto::FLOAT, {1, 8, 3}, std::vector<float>(24, 0.f));
  b.RawInit<float>("R", TensorProto::FLOAT, {1, 8, 2}, std::vector<float>(16, 0.f));
  auto* lstm = b.Node("LSTM", {"X", "W", "R", "", "", "h0"}, {"Y", "", "Yc"}, "lstm");
  AttrInt(lstm, "hidden_size", 2);
  AttrFloat(lstm, "clip", 3.5f);
  AttrString(lstm, "direction", "forward");
  AttrStrings(lstm, "activations", {"Sigmoid", "Tanh", "Tanh"});
  AttrFloats(lstm, "activation_alpha", {0.5f, 1.f, 1.f});
  b.Output("Y", TensorProto::FLOAT, {2, 1, 1, 2}).Output("Yc", TensorProto::FLOAT, {1, 1, 2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  Node* n = g->FindNode("lstm");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(std::get<int64_t>(*n->FindAttr("hidden_size")), 2);
  EXPECT_EQ(std::get<float>(*n->FindAttr("clip")), 3.5f);
  EXPECT_EQ(std::get<std::string>(*n->FindAttr("direction")), "forward");
  EXPECT_EQ(n->GetStrings("activations"), (std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}));
  EXPECT_EQ(n->GetFloats("activation_alpha"), (std::vector<float>{0.5f, 1.f, 1.f}));

  ASSERT_EQ(n->num_inputs(), 6u);
  EXPECT_EQ(n->InputNode(0)->name(), "X");
  EXPECT_EQ(n->InputNode(2)->name(), "R");
  EXPECT_FALSE(n->HasInput(3));
  EXPECT_FALSE(n->HasInput(4));
  EXPECT_EQ(n->InputNode(5)->name(), "h0");

  ASSERT_EQ(n->num_outputs(), 3u);
  EXPECT_EQ(n->output_desc(0), TensorDesc(DataType::kFloat32, {2, 1, 1, 2}));
  EXPECT_TRUE(n->output_desc(1).unknown_rank());
  EXPECT_TRUE(n->OutputConsumers(1).empty());
  EXPECT_EQ(n->output_desc(2), TensorDesc(DataType::kFloat32, {1, 1, 2}));
  Node* out = g->OutputNode();
  EXPECT_EQ(out->InputSource(0), (Endpoint{n, 0}));
  EXPECT_EQ(out->InputSource(1), (Endpoint{n, 2}));
}

TEST(OnnxParser, ConvertsTensorAndIntsAttributes) {
  OnnxModelBuilder b;
  b.RawInit<int64_t>("shape", TensorProto::INT64, {2}, {2, 3});
  auto* cos = b.Node("ConstantOfShape", {"shape"}, {"filled"}, "fill");
  TensorProto* v = AttrTensor(cos, "value");
  v->set_data_type(TensorProto::FLOAT);
  v->add_dims(1);
  v->add_float_data(2.5f);
  auto* tr = b.Node("Transpose", {"filled"}, {"t"}, "transpose");
  AttrInts(tr, "perm", {1, 0});
  b.Output("t", TensorProto::FLOAT, {3, 2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  const Tensor* value = g->FindNode("fill")->GetTensor("value");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->desc(), TensorDesc(DataType::kFloat32, {1}));
  EXPECT_EQ(value->ToDouble(), (std::vector<double>{2.5}));
  EXPECT_EQ(g->FindNode("fill")->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3}));
  EXPECT_EQ(g->FindNode("transpose")->GetInts("perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(g->FindNode("transpose")->output_desc(0), TensorDesc(DataType::kFloat32, {3, 2}));
}

TEST(OnnxParser, ConstantNodesBecomeConst) {
  OnnxModelBuilder b;
  auto* c1 = b.Node("Constant", {}, {"c1"}, "k_tensor");
  TensorProto* t = AttrTensor(c1, "value");
  t->set_data_type(TensorProto::INT64);
  t->add_dims(2);
  t->add_int64_data(4);
  t->add_int64_data(-5);
  AttrFloat(b.Node("Constant", {}, {"c2"}, "k_float"), "value_float", 1.5f);
  AttrFloats(b.Node("Constant", {}, {"c3"}, "k_floats"), "value_floats", {1, 2, 3});
  AttrInt(b.Node("Constant", {}, {"c4"}, "k_int"), "value_int", 7);
  AttrInts(b.Node("Constant", {}, {"c5"}, "k_ints"), "value_ints", {8, 9});
  b.Node("Neg", {"c1"}, {"n1"}, "neg");
  b.Output("n1", TensorProto::INT64, {2}).Output("c2", TensorProto::FLOAT, {}).Output("c3", TensorProto::FLOAT, {3});
  b.Output("c4", TensorProto::INT64, {}).Output("c5", TensorProto::INT64, {2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(TypeCounts(*g).count("Constant"), 0u);
  EXPECT_EQ(TypeCounts(*g)[op::kConst], 5);

  auto value = [&](const std::string& name) {
    Node* n = g->FindNode(name);
    EXPECT_NE(n, nullptr) << name;
    EXPECT_EQ(n->type(), op::kConst) << name;
    EXPECT_EQ(n->GetInt("_opset", -1), 13) << name;
    const Tensor* v = n->GetTensor("value");
    EXPECT_NE(v, nullptr) << name;
    EXPECT_EQ(v->desc(), n->output_desc(0)) << name;
    return v ? *v : Tensor();
  };
  EXPECT_EQ(value("k_tensor").desc(), TensorDesc(DataType::kInt64, {2}));
  EXPECT_EQ(value("k_tensor").ToInt64(), (std::vector<int64_t>{4, -5}));
  EXPECT_EQ(value("k_float").desc(), TensorDesc(DataType::kFloat32, {}));
  EXPECT_EQ(value("k_float").ToDouble(), (std::vector<double>{1.5}));
  EXPECT_EQ(value("k_floats").desc(), TensorDesc(DataType::kFloat32, {3}));
  EXPECT_EQ(value("k_floats").ToDouble(), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(value("k_int").desc(), TensorDesc(DataType::kInt64, {}));
  EXPECT_EQ(value("k_int").ToInt64(), (std::vector<int64_t>{7}));
  EXPECT_EQ(value("k_ints").desc(), TensorDesc(DataType::kInt64, {2}));
  EXPECT_EQ(value("k_ints").ToInt64(), (std::vector<int64_t>{8, 9}));

  EXPECT_EQ(g->FindNode("neg")->InputNode(0)->name(), "k_tensor");
  EXPECT_EQ(g->FindNode("neg")->output_desc(0), TensorDesc(DataType::kInt64, {2}));
  Node* out = g->OutputNode();
  EXPECT_EQ(out->InputNode(1)->name(), "k_float");
  EXPECT_EQ(out->InputNode(4)->name(), "k_ints");
}

TEST(OnnxParser, SymbolicAndMissingShapes) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {-1, 4});
  b.Input("axes", TensorProto::INT64, {1});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  // Axes known only at run time: inference cannot know the rank.
  b.Node("Unsqueeze", {"y", "axes"}, {"u"}, "unsqueeze");
  b.Node("Shape", {"u"}, {"s"}, "shape");
  b.Output("y", TensorProto::FLOAT, {-1, 4}).Output("s", TensorProto::INT64, {-1});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("x")->output_desc(0), TensorDesc(DataType::kFloat32, {-1, 4}));
  EXPECT_EQ(g->FindNode("relu")->output_desc(0), TensorDesc(DataType::kFloat32, {-1, 4}));
  EXPECT_EQ(g->FindNode("unsqueeze")->output_desc(0), TensorDesc(DataType::kFloat32, {kUnknownRank}));
  EXPECT_EQ(g->FindNode("shape")->output_desc(0), TensorDesc(DataType::kInt64, {-1}));
}

TEST(OnnxParser, InputShapeOverrideReachesInference) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 3, 8, 8});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Node("Sigmoid", {"y"}, {"z"}, "sig");
  // Shapes recorded by the exporter for the old input shape must not clash.
  b.Output("z", TensorProto::FLOAT, {1, 3, 8, 8});
  auto* vi = b.graph()->add_value_info();
  vi->set_name("y");
  SetShape(vi->mutable_type(), TensorProto::FLOAT, {1, 3, 8, 8});

  ParseOptions opts;
  opts.input_shapes["x"] = {2, 3, 16, 16};
  auto g = ParseAndVerify(b, opts);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("x")->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3, 16, 16}));
  EXPECT_EQ(g->FindNode("relu")->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3, 16, 16}));
  EXPECT_EQ(g->FindNode("sig")->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3, 16, 16}));
  EXPECT_EQ(g->OutputNode()->input_desc(0), TensorDesc(DataType::kFloat32, {2, 3, 16, 16}));

  // Without the override the model keeps its own shapes.
  auto plain = ParseAndVerify(b);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->FindNode("sig")->output_desc(0), TensorDesc(DataType::kFloat32, {1, 3, 8, 8}));
}

TEST(OnnxParser, InputShapeOverrideMayChangeRankAndLeaveDimsUnknown) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {-1, 4});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y", TensorProto::FLOAT, {-1, 4});
  ParseOptions opts;
  opts.input_shapes["x"] = {2, -1, 4};
  auto g = ParseAndVerify(b, opts);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("x")->output_desc(0), TensorDesc(DataType::kFloat32, {2, -1, 4}));
  EXPECT_EQ(g->FindNode("relu")->output_desc(0), TensorDesc(DataType::kFloat32, {2, -1, 4}));
}

TEST(OnnxParser, Opset9ModelIsConvertedTo13) {
  OnnxModelBuilder b(/*opset=*/9);
  b.Input("x", TensorProto::FLOAT, {1, 4});
  b.RawInit<float>("w", TensorProto::FLOAT, {4}, {1, -2, 3, -4});
  b.Node("Add", {"x", "w"}, {"y"}, "add");
  b.Node("Relu", {"y"}, {"z"}, "relu");
  b.Output("z", TensorProto::FLOAT, {1, 4});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(NodeNames(*g), (std::vector<std::string>{"x", "w", "add", "relu", "NetOutput"}));
  EXPECT_EQ(g->FindNode("add")->GetInt("_opset", -1), 13);
  EXPECT_EQ(g->FindNode("relu")->GetInt("_opset", -1), 13);
  EXPECT_EQ(g->FindNode("w")->GetTensor("value")->ToDouble(), (std::vector<double>{1, -2, 3, -4}));
  EXPECT_EQ(g->FindNode("relu")->output_desc(0), TensorDesc(DataType::kFloat32, {1, 4}));
}

TEST(OnnxParser, ConvertedNodesKeepTheirNames) {
  // Opset 9 Upsample becomes opset 13 Resize: a new node, which the converter
  // leaves unnamed; the parser gives it back the user's name.
  OnnxModelBuilder b(/*opset=*/9);
  b.Input("x", TensorProto::FLOAT, {1, 1, 4, 4});
  b.RawInit<float>("scales", TensorProto::FLOAT, {4}, {1, 1, 2, 2});
  b.Node("Upsample", {"x", "scales"}, {"y"}, "up");
  b.Output("y", TensorProto::FLOAT, {1, 1, 8, 8});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  Node* up = g->FindNode("up");
  ASSERT_NE(up, nullptr) << GraphToText(*g);
  EXPECT_EQ(up->type(), "Resize");
  EXPECT_EQ(up->GetInt("_opset", -1), 13);
  EXPECT_EQ(up->output_desc(0), TensorDesc(DataType::kFloat32, {1, 1, 8, 8}));
  EXPECT_EQ(g->OutputNode()->InputNode(0), up);
}

TEST(OnnxParser, OpsetsNewerThanTheOnnxLibraryAreAClearError) {
  OnnxModelBuilder b(/*opset=*/18);
  b.Input("x", TensorProto::FLOAT, {3});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y", TensorProto::FLOAT, {3});
  auto r = ParseModel(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Contains(r.status().message(), "test.onnx: cannot convert opset 18 to 17: the installed onnx library"))
      << r.status().message();
}

TEST(OnnxParser, ConversionFailureNamesTheNode) {
  OnnxModelBuilder b(/*opset=*/8);
  b.Input("x", TensorProto::FLOAT, {1, 3, 4, 4});
  b.Node("ImageScaler", {"x"}, {"y"}, "scaler");  // experimental, gone by opset 10
  b.Output("y", TensorProto::FLOAT, {1, 3, 4, 4});
  auto r = ParseModel(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_TRUE(Contains(r.status().message(), "test.onnx: cannot convert opset 8 to 13")) << r.status().message();
  EXPECT_TRUE(Contains(r.status().message(), "no opset 13 form exists for scaler (ImageScaler)"))
      << r.status().message();
}

TEST(OnnxParser, NativeOpsetIsKept) {
  OnnxModelBuilder b(/*opset=*/kMaxNativeOnnxOpset);
  b.Input("x", TensorProto::FLOAT, {3});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y", TensorProto::FLOAT, {3});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("relu")->GetInt("_opset", -1), kMaxNativeOnnxOpset);
}

TEST(OnnxParser, NamesUnnamedAndDuplicateNodes) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Relu", {"x"}, {"r0"});  // unnamed: takes its output's name
  b.Node("Relu", {"r0"}, {"r1"}, "dup");
  b.Node("Relu", {"r1"}, {"r2"}, "dup");       // duplicate: takes its output's name
  b.Node("Relu", {"r2"}, {"later"});           // "later" is a node name below: Relu_3
  b.Node("Relu", {"later"}, {"r4"}, "later");  // names from the file win
  b.Output("r4", TensorProto::FLOAT, {2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(NodeNames(*g), (std::vector<std::string>{"x", "r0", "dup", "r2", "Relu_3", "later", "NetOutput"}));
}

TEST(OnnxParser, NetOutputFollowsOutputOrderAndAvoidsTakenName) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Relu", {"x"}, {"a"}, "NetOutput");  // a user node with the name we would use
  b.Node("Sigmoid", {"x"}, {"b"}, "s");
  b.Output("b", TensorProto::FLOAT, {2}).Output("a", TensorProto::FLOAT, {2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("NetOutput")->type(), "Relu");
  Node* out = g->OutputNode();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->name(), "NetOutput_1");
  EXPECT_EQ(out->InputNode(0)->name(), "s");
  EXPECT_EQ(out->InputNode(1)->name(), "NetOutput");
  EXPECT_EQ(out->GetStrings("output_names"), (std::vector<std::string>{"b", "a"}));
}

OnnxModelBuilder TwoBranches() {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Relu", {"x"}, {"a"}, "r");
  b.Node("Sigmoid", {"x"}, {"b"}, "s");
  b.Node("Split", {"a"}, {"a0", "a1"}, "split");
  b.Output("b", TensorProto::FLOAT, {2});
  b.Output("a0", TensorProto::FLOAT, {1});
  return b;
}

TEST(OnnxParser, OutNodesByTensorNodeOrIndex) {
  auto out_names = [](const std::vector<std::string>& out_nodes) {
    ParseOptions opts;
    opts.out_nodes = out_nodes;
    auto g = ParseAndVerify(TwoBranches(), opts);
    std::vector<std::string> sources;
    if (!g) return std::make_pair(sources, sources);
    Node* out = g->OutputNode();
    for (size_t i = 0; i < out->num_inputs(); ++i)
      sources.push_back(out->InputNode(i)->name() + ":" + std::to_string(out->InputSource(i).index));
    return std::make_pair(sources, out->GetStrings("output_names"));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(out_names({"a"}), std::make_pair(V{"r:0"}, V{"a"}));
  EXPECT_EQ(out_names({"s", "a1"}), std::make_pair(V{"s:0", "split:1"}, V{"b", "a1"}));
  EXPECT_EQ(out_names({"split"}), std::make_pair(V{"split:0", "split:1"}, V{"a0", "a1"}));
  EXPECT_EQ(out_names({"split:1"}), std::make_pair(V{"split:1"}, V{"a1"}));

  ParseOptions bad;
  bad.out_nodes = {"nope"};
  auto r = ParseModel(TwoBranches(), bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(r.status().message(), "test.onnx: ")) << r.status().message();
  EXPECT_TRUE(Contains(r.status().message(), "'nope'")) << r.status().message();
  bad.out_nodes = {"split:7"};
  r = ParseModel(TwoBranches(), bad);
  ASSERT_TRUE(
      Refused(r, StatusCode::kInvalidArgument, "test.onnx: out_nodes names 'split:7', but node split has no output 7"));
  EXPECT_TRUE(Contains(r.status().message(), "split:7")) << r.status().message();
}

// cond ? [1,2] : [3,4], branches built from Constants only.
OnnxModelBuilder IfModel(bool then_reads_outer) {
  OnnxModelBuilder b;
  b.Input("cond", TensorProto::BOOL, {});
  b.Input("x", TensorProto::FLOAT, {2});
  auto* n = b.Node("If", {"cond"}, {"y"}, "if1");
  auto branch = [&](const char* name, float v0) {
    onnx::GraphProto* g = AttrGraph(n, name);
    g->set_name(std::string(name) + "_graph");
    auto* c = OnnxModelBuilder::NodeIn(g, "Constant", {}, {std::string(name) + "_c"}, std::string(name) + "_const");
    AttrFloats(c, "value_floats", {v0, v0 + 1});
    std::string out = std::string(name) + "_c";
    if (then_reads_outer && std::string(name) == "then_branch") {
      OnnxModelBuilder::NodeIn(g, "Add", {out, "x"}, {"then_sum"}, "then_add");
      out = "then_sum";
    }
    auto* o = g->add_output();
    o->set_name(out);
    SetShape(o->mutable_type(), TensorProto::FLOAT, {2});
  };
  branch("then_branch", 1);
  branch("else_branch", 3);
  b.Output("y", TensorProto::FLOAT, {2});
  return b;
}

// Ifs nested `levels` deep: each then_branch holds the next If (on the
// main graph's cond), each else_branch and the last then_branch a Constant.
OnnxModelBuilder NestedIfModel(int levels) {
  OnnxModelBuilder b;
  b.Input("cond", TensorProto::BOOL, {});
  onnx::NodeProto* n = b.Node("If", {"cond"}, {"y"}, "if0");
  for (int level = 1; level <= levels; ++level) {
    const std::string k = std::to_string(level);
    onnx::GraphProto* else_g = AttrGraph(n, "else_branch");
    else_g->set_name("else" + k);
    AttrFloats(OnnxModelBuilder::NodeIn(else_g, "Constant", {}, {"e" + k}, "ec" + k), "value_floats", {0, 1});
    SetShape(else_g->add_output()->mutable_type(), TensorProto::FLOAT, {2});
    else_g->mutable_output(0)->set_name("e" + k);
    onnx::GraphProto* then_g = AttrGraph(n, "then_branch");
    then_g->set_name("then" + k);
    SetShape(then_g->add_output()->mutable_type(), TensorProto::FLOAT, {2});
    then_g->mutable_output(0)->set_name("t" + k);
    if (level == levels)
      AttrFloats(OnnxModelBuilder::NodeIn(then_g, "Constant", {}, {"t" + k}, "tc" + k), "value_floats", {2, 3});
    else
      n = OnnxModelBuilder::NodeIn(then_g, "If", {"cond"}, {"t" + k}, "if" + k);
  }
  b.Output("y", TensorProto::FLOAT, {2});
  return b;
}

// Ifs nested past the IR's nesting limit (ge/ir/nesting.h) are refused by the
// builder, not recursed into; far deeper ones already by protobuf's recursion
// limit (100 messages, three per If level).
TEST(OnnxParser, IfsNestedDeeperThanTheLimitAreAnError) {
  auto ok = ParseModel(NestedIfModel(8));
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
  auto deep = ParseModel(NestedIfModel(kMaxSubgraphNesting + 1));
  EXPECT_TRUE(Refused(deep, StatusCode::kUnsupported, "subgraphs nested too deep (more than 24 levels)"));
  auto deeper = ParseModel(NestedIfModel(200));
  EXPECT_TRUE(Refused(deeper, StatusCode::kCorrupt,
                      "test.onnx: not an ONNX model (the bytes do not parse as an ONNX ModelProto)"));
}

TEST(OnnxParser, IfBranchesBecomeSubgraphs) {
  auto g = ParseAndVerify(IfModel(false));
  ASSERT_TRUE(g);
  Node* n = g->FindNode("if1");
  ASSERT_NE(n, nullptr);
  ASSERT_EQ(n->subgraphs().size(), 2u);
  const auto& then_g = n->subgraphs().at("then_branch");
  ASSERT_TRUE(then_g);
  EXPECT_EQ(then_g->name(), "then_branch_graph");
  EXPECT_EQ(NodeNames(*then_g), (std::vector<std::string>{"then_branch_const", "NetOutput"}));
  Node* c = then_g->FindNode("then_branch_const");
  EXPECT_EQ(c->type(), op::kConst);
  EXPECT_EQ(c->GetTensor("value")->ToDouble(), (std::vector<double>{1, 2}));
  EXPECT_EQ(c->GetInt("_opset", -1), 13);
  EXPECT_EQ(n->subgraphs().at("else_branch")->FindNode("else_branch_const")->GetTensor("value")->ToDouble(),
            (std::vector<double>{3, 4}));
  EXPECT_EQ(n->output_desc(0), TensorDesc(DataType::kFloat32, {2}));
  EXPECT_FALSE(n->HasAttr("then_branch"));  // subgraphs live in subgraphs(), not in the attributes
}

TEST(OnnxParser, LoopBodyInputsBecomeSubgraphData) {
  // x = x + 1, three times; the body only reads its own inputs.
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.RawInit<int64_t>("trips", TensorProto::INT64, {}, {3});
  auto* loop = b.Node("Loop", {"trips", "", "x"}, {"x_final"}, "loop");  // no condition: optional input absent
  onnx::GraphProto* body = AttrGraph(loop, "body");
  body->set_name("body");
  auto input = [&](const std::string& name, int32_t elem, const std::vector<int64_t>& dims) {
    auto* v = body->add_input();
    v->set_name(name);
    SetShape(v->mutable_type(), elem, dims);
  };
  input("iter", TensorProto::INT64, {});
  input("cond_in", TensorProto::BOOL, {});
  input("x_in", TensorProto::FLOAT, {2});
  auto* one = OnnxModelBuilder::NodeIn(body, "Constant", {}, {"one"}, "one");
  AttrFloat(one, "value_float", 1.f);
  OnnxModelBuilder::NodeIn(body, "Identity", {"cond_in"}, {"cond_out"}, "keep_going");
  OnnxModelBuilder::NodeIn(body, "Add", {"x_in", "one"}, {"x_out"}, "inc");
  for (auto [name, elem] : {std::pair{"cond_out", TensorProto::BOOL}, std::pair{"x_out", TensorProto::FLOAT}}) {
    auto* o = body->add_output();
    o->set_name(name);
    SetShape(o->mutable_type(), elem, name == std::string("x_out") ? std::vector<int64_t>{2} : std::vector<int64_t>{});
  }
  b.Output("x_final", TensorProto::FLOAT, {2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  Node* n = g->FindNode("loop");
  ASSERT_EQ(n->num_inputs(), 3u);
  EXPECT_EQ(n->InputNode(0)->name(), "trips");
  EXPECT_FALSE(n->HasInput(1));
  EXPECT_EQ(n->InputNode(2)->name(), "x");
  ASSERT_EQ(n->subgraphs().count("body"), 1u);
  const Graph& sg = *n->subgraphs().at("body");
  EXPECT_EQ(NodeNames(sg),
            (std::vector<std::string>{"iter", "cond_in", "x_in", "one", "keep_going", "inc", "NetOutput"}));
  EXPECT_EQ(sg.FindNode("x_in")->GetInt("index", -1), 2);
  EXPECT_EQ(sg.FindNode("x_in")->output_desc(0), TensorDesc(DataType::kFloat32, {2}));
  EXPECT_EQ(sg.FindNode("inc")->InputNode(1)->name(), "one");
  EXPECT_EQ(sg.FindNode("inc")->output_desc(0), TensorDesc(DataType::kFloat32, {2}));  // inferred inside the body
  EXPECT_EQ(sg.FindNode("inc")->GetInt("_opset", -1), 13);
  EXPECT_EQ(sg.OutputNode()->GetStrings("output_names"), (std::vector<std::string>{"cond_out", "x_out"}));
  EXPECT_EQ(n->output_desc(0), TensorDesc(DataType::kFloat32, {2}));
}

// GE's capture lifting: an outer value a branch reads becomes an explicit
// input of the If and a Data node of every branch (one signature for both).
TEST(OnnxParser, OuterScopeValuesBecomeExplicitInputs) {
  auto g = ParseAndVerify(IfModel(true));
  ASSERT_TRUE(g);
  Node* n = g->FindNode("if1");
  ASSERT_EQ(n->num_inputs(), 2u);
  EXPECT_EQ(n->InputNode(1)->name(), "x");
  EXPECT_EQ(n->GetInt("_captures", 0), 1);
  for (const char* branch : {"then_branch", "else_branch"}) {
    const Graph& sg = *n->subgraphs().at(branch);
    ASSERT_EQ(sg.InputNodes().size(), 1u) << branch;
    const Node* d = sg.InputNodes()[0];
    EXPECT_EQ(d->GetInt("index", -1), 0) << branch;
    EXPECT_EQ(d->GetString("_captured"), "x") << branch;
    EXPECT_EQ(d->output_desc(0), TensorDesc(DataType::kFloat32, {2})) << branch;
  }
  EXPECT_EQ(n->subgraphs().at("then_branch")->FindNode("then_add")->InputNode(1)->GetString("_captured"), "x");
}

// A value captured two levels down: the Loop takes it from the main graph,
// its body's Data feeds the If inside, whose branch reads it; a branch
// output that is an outer value passes through a Data node too.
TEST(OnnxParser, NestedCapturesGoThroughEveryLevel) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Input("flag", TensorProto::BOOL, {});
  b.RawInit<int64_t>("trips", TensorProto::INT64, {}, {2});
  auto* loop = b.Node("Loop", {"trips", ""}, {"ys"}, "loop");
  onnx::GraphProto* body = AttrGraph(loop, "body");
  body->set_name("body");
  for (auto [name, elem] : {std::pair{"iter", TensorProto::INT64}, std::pair{"cond_in", TensorProto::BOOL}}) {
    auto* v = body->add_input();
    v->set_name(name);
    SetShape(v->mutable_type(), elem, {});
  }
  auto* inner = OnnxModelBuilder::NodeIn(body, "If", {"flag"}, {"picked"}, "inner_if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    onnx::GraphProto* g = AttrGraph(inner, branch);
    g->set_name(branch);
    std::string out = "x";  // then: x itself, from two levels up
    if (std::string(branch) == "else_branch") {
      OnnxModelBuilder::NodeIn(g, "Neg", {"x"}, {"neg_x"}, "neg");
      out = "neg_x";
    }
    auto* o = g->add_output();
    o->set_name(out);
    SetShape(o->mutable_type(), TensorProto::FLOAT, {2});
  }
  OnnxModelBuilder::NodeIn(body, "Identity", {"cond_in"}, {"cond_out"}, "keep");
  for (auto [name, elem] : {std::pair{"cond_out", TensorProto::BOOL}, std::pair{"picked", TensorProto::FLOAT}}) {
    auto* o = body->add_output();
    o->set_name(name);
    SetShape(o->mutable_type(), elem, name == std::string("picked") ? std::vector<int64_t>{2} : std::vector<int64_t>{});
  }
  b.Output("ys", TensorProto::FLOAT, {2, 2});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  Node* n = g->FindNode("loop");
  // Loop inputs: trips, (no cond), then the captures in the order the body
  // resolved them: x (for the If's branches, built before the If's own
  // inputs are wired), then flag.
  ASSERT_EQ(n->num_inputs(), 4u);
  EXPECT_EQ(n->InputNode(2)->name(), "x");
  EXPECT_EQ(n->InputNode(3)->name(), "flag");
  const Graph& sg = *n->subgraphs().at("body");
  const Node* flag = nullptr;
  const Node* x = nullptr;
  for (const Node* d : sg.InputNodes()) {
    if (d->GetString("_captured") == "flag") flag = d;
    if (d->GetString("_captured") == "x") x = d;
  }
  ASSERT_TRUE(flag && x);
  EXPECT_EQ(x->GetInt("index", -1), 2);  // after the body's own iter and cond_in
  EXPECT_EQ(flag->GetInt("index", -1), 3);
  const Node* inner_if = sg.FindNode("inner_if");
  ASSERT_EQ(inner_if->num_inputs(), 2u);
  EXPECT_EQ(inner_if->InputNode(0), flag);
  EXPECT_EQ(inner_if->InputNode(1), x);
  const Graph& then_g = *inner_if->subgraphs().at("then_branch");
  EXPECT_EQ(then_g.OutputNode()->InputNode(0)->GetString("_captured"), "x");
}

TEST(OnnxParser, SameBytesGiveTheSameGraph) {
  OnnxModelBuilder b = TwoBranches();
  b.Node("Relu", {"b"}, {"c"});
  b.Node("Add", {"c", "a1"}, {"d"});
  b.Output("d", TensorProto::FLOAT, {2});
  auto g1 = ParseAndVerify(b);
  auto g2 = ParseAndVerify(b);
  ASSERT_TRUE(g1 && g2);
  EXPECT_EQ(NodeNames(*g1), NodeNames(*g2));
  EXPECT_EQ(GraphToText(*g1), GraphToText(*g2));
  // Insertion order follows the file: inputs, initializers, nodes, NetOutput.
  EXPECT_EQ(NodeNames(*g1), (std::vector<std::string>{"x", "r", "s", "split", "c", "d", "NetOutput"}));
}

}  // namespace
}  // namespace ge::test
