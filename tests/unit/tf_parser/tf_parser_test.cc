// Graph-level behaviour of the TF parser: inputs, constants, Identity,
// control inputs, "name:k", --out_nodes, unsupported ops and bad bytes.
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

TEST(TfParser, PlaceholderBecomesDataWithItsShapeAndIndex) {
  TfGraph g;
  g.Placeholder("a", {2, 3});
  g.Placeholder("b", {-1, 3});
  g.Node("AddV2", "sum", {"a", "b"});
  auto graph = Parse(g);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto ins = (*graph)->InputNodes();
  ASSERT_EQ(ins.size(), 2u);
  EXPECT_EQ(ins[0]->name(), "a");
  EXPECT_EQ(ins[0]->GetInt("index"), 0);
  EXPECT_EQ(ins[0]->output_desc(0).ToString(), "f32[2,3]");
  EXPECT_EQ(ins[1]->output_desc(0).ToString(), "f32[?,3]");
  EXPECT_EQ((*graph)->OutputNode()->GetStrings("output_names"), (std::vector<std::string>{"sum"}));
}

TEST(TfParser, InputShapeOverridesThePlaceholderShape) {
  TfGraph g;
  g.Placeholder("x", {-1, 4});
  g.Node("Relu", "y", {"x"});
  ParseOptions o;
  o.input_shapes["x"] = {8, 4};
  auto out = RunTf(g, {Host<float>({8, 4}, Iota(32))}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].dims, (Ints{8, 4}));

  o.input_shapes["x"] = {8, 4, 1};
  auto bad_rank = Parse(g, o);
  ASSERT_TRUE(Refused(bad_rank, StatusCode::kInvalidArgument, "--input_shape"));
  ParseOptions unknown;
  unknown.input_shapes["nope"] = {1};
  auto bad_name = Parse(g, unknown);
  ASSERT_TRUE(Refused(bad_name, StatusCode::kInvalidArgument, "'nope'"));
}

TEST(TfParser, ConstGivenByOneRepeatedValue) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.ConstFloatVal("half", {2, 3}, {0.5f});
  g.Node("Mul", "y", {"x", "half"});
  Floats x = {1, 2, 3, 4, 5, 6};
  auto out = RunTf(g, {Host<float>({2, 3}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectNear((*out)[0].f(), {0.5f, 1, 1.5f, 2, 2.5f, 3});
}

TEST(TfParser, IdentityPassesItsInputOn) {
  TfGraph g;
  g.Placeholder("x", {3});
  g.Node("Identity", "id", {"x"});
  g.Node("Relu", "r", {"id"});
  g.Node("Identity", "output", {"r"});
  auto graph = Parse(g);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "Identity"), 0);
  EXPECT_EQ((*graph)->OutputNode()->GetStrings("output_names"), (std::vector<std::string>{"output"}));
  auto out = RunTf(g, {Host<float>({3}, {-1, 0, 2})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectNear((*out)[0].f(), {0, 0, 2});
}

TEST(TfParser, ControlInputsBecomeControlEdges) {
  TfGraph g;
  g.Placeholder("x", {3});
  g.Node("Relu", "first", {"x"});
  g.Node("NoOp", "barrier", {"^first"});
  g.Node("Tanh", "second", {"x", "^barrier"});
  g.Node("Identity", "kept", {"second", "^first"});
  ParseOptions o;
  o.out_nodes = {"kept", "first"};
  auto graph = Parse(g, o);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  Node* first = (*graph)->FindNode("first");
  Node* second = (*graph)->FindNode("second");
  Node* kept = (*graph)->FindNode("kept");
  ASSERT_TRUE(first && second && kept);
  // Through the NoOp: second waits for first.
  ASSERT_EQ(second->control_inputs().size(), 1u);
  EXPECT_EQ(second->control_inputs()[0], first);
  // An Identity with a control input is kept as a node to carry it.
  EXPECT_EQ(kept->type(), "Identity");
  ASSERT_EQ(kept->control_inputs().size(), 1u);
  EXPECT_EQ(kept->control_inputs()[0], first);
  auto out = RunTf(g, {Host<float>({3}, {-1, 0, 1})}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectNear((*out)[0].f(), {std::tanh(-1.f), 0, std::tanh(1.f)});
  ExpectNear((*out)[1].f(), {0, 0, 1});
}

TEST(TfParser, OutputReferencesNameK) {
  // FusedBatchNormV3 in inference returns the given mean and variance as outputs 1 and 2.
  TfGraph g;
  g.Placeholder("x", {1, 1, 1, 2});
  g.ConstF("scale", {2}, {1, 1});
  g.ConstF("offset", {2}, {0, 0});
  g.ConstF("mean", {2}, {3, 4});
  g.ConstF("var", {2}, {1, 1});
  auto* bn = g.Node("FusedBatchNormV3", "bn", {"x", "scale", "offset", "mean", "var"});
  SetB(bn, "is_training", false);
  SetF(bn, "epsilon", 0.f);
  g.Node("AddV2", "use_mean", {"bn:1", "bn:2"});
  ParseOptions o;
  o.out_nodes = {"use_mean", "bn:0"};
  auto out = RunTf(g, {Host<float>({1, 1, 1, 2}, {5, 6})}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectNear((*out)[0].f(), {4, 5});
  ExpectNear((*out)[1].f(), {2, 2});
  auto graph = Parse(g, o);
  ASSERT_TRUE(graph.ok());
  EXPECT_EQ((*graph)->OutputNode()->GetStrings("output_names"), (std::vector<std::string>{"use_mean", "bn"}));

  o.out_nodes = {"bn:3"};  // reserve_space_1 has no inference meaning
  auto reserve = Parse(g, o);
  ASSERT_TRUE(Refused(reserve, StatusCode::kInvalidArgument, "bn (FusedBatchNormV3)"));
}

TEST(TfParser, OutNodesChooseTheOutputsAndPruneTheRest) {
  TfGraph g;
  g.Placeholder("x", {2});
  g.Placeholder("unused_input", {2});
  g.Node("Relu", "a", {"x"});
  g.Node("Tanh", "b", {"a"});
  g.Node("SomethingExotic", "c", {"unused_input"});
  ParseOptions o;
  o.out_nodes = {"a"};
  auto graph = Parse(g, o);
  ASSERT_TRUE(graph.ok()) << graph.status().message();  // c is not needed, so not checked
  EXPECT_EQ((*graph)->InputNodes().size(), 1u);
  EXPECT_FALSE((*graph)->FindNode("b"));
  o.out_nodes = {"missing"};
  auto bad = Parse(g, o);
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "missing"));
}

TEST(TfParser, EveryUnsupportedNodeIsReportedAtOnce) {
  TfGraph g;
  g.Placeholder("x", {4});
  g.Node("Relu", "r", {"x"});
  g.Node("Erfinv", "weird1", {"r"});
  g.Node("Bucketize", "weird2", {"weird1"});
  auto graph = Parse(g);
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().code(), StatusCode::kUnsupported);
  const std::string& m = graph.status().message();
  EXPECT_NE(m.find("2 unsupported TensorFlow nodes"), std::string::npos) << m;
  EXPECT_NE(m.find("weird1 (Erfinv)"), std::string::npos) << m;
  EXPECT_NE(m.find("weird2 (Bucketize)"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);

  auto report = CheckTfBytes(g.Bytes(), {}, "<test>");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->num_nodes, 4u);
  ASSERT_EQ(report->unsupported.size(), 2u);
  EXPECT_EQ(report->unsupported[0].name, "weird1");
  EXPECT_EQ(report->unsupported[0].op, "Erfinv");
  EXPECT_EQ(report->unsupported[1].name, "weird2");
  EXPECT_EQ(report->unsupported[1].op, "Bucketize");
}

TEST(TfParser, BadBytesAreOneClearError) {
  for (const std::string& bytes : {std::string(), std::string("\xff\xff\xff\xff not a graph")}) {
    auto g = ParseTfBytes(bytes, {}, "bad.pb");
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.status().code(), StatusCode::kCorrupt);
    EXPECT_EQ(g.status().message().rfind("bad.pb: not a TensorFlow GraphDef", 0), 0u) << g.status().message();
  }
  auto missing = ParseTfFile("/nonexistent/model.pb", {});
  ASSERT_TRUE(Refused(missing, StatusCode::kNotFound, "/nonexistent/model.pb"));
}

TEST(TfParser, SupportedOpsCoverTheIssueList) {
  const auto ops = SupportedTfOps();
  for (const char* op : {"Placeholder", "Const", "Identity", "Conv2D", "DepthwiseConv2dNative", "BiasAdd",
                         "FusedBatchNorm", "FusedBatchNormV3", "Relu", "Relu6", "Sigmoid", "Tanh", "MaxPool",
                         "AvgPool", "MatMul", "Add", "AddV2", "Sub", "Mul", "RealDiv", "ConcatV2", "Mean", "Sum",
                         "Max", "Reshape", "Squeeze", "ExpandDims", "Softmax", "Pad", "Transpose", "Shape",
                         "StridedSlice", "Pack", "Cast"})
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

// No prefix or corruption of a valid GraphDef may crash the parser: each is
// a graph or an error.
TEST(TfParser, DamagedBytesNeverCrash) {
  TfGraph g;
  g.Placeholder("x", {1, 5, 5, 2});
  g.ConstF("w", {3, 3, 2, 2}, Iota(36));
  auto* c = g.Node("Conv2D", "conv", {"x", "w"});
  SetS(c, "padding", "SAME");
  SetList(c, "strides", {1, 2, 2, 1});
  g.ConstI32("axes", {2}, {1, 2});
  g.Node("Mean", "m", {"conv", "axes"});
  const std::string bytes = g.Bytes();
  // Each damaged copy is a graph or an error naming its source; a parser
  // that accepted every copy would check nothing, one that refused every
  // copy would refuse the prefixes that end on a node boundary too.
  int parsed = 0;
  int tried = 0;
  auto parse = [&](const std::string& b, const std::string& source) {
    ++tried;
    auto r = ParseTfBytes(b, {}, source);
    parsed += r.ok();
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find(source), std::string::npos) << r.status().ToString();
    }
  };
  for (size_t len = 0; len < bytes.size(); ++len) parse(bytes.substr(0, len), "<cut " + std::to_string(len) + ">");
  for (size_t i = 0; i < bytes.size(); ++i)
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string b = bytes;
      b[i] = static_cast<char>(static_cast<unsigned char>(b[i]) ^ flip);
      parse(b, "<flipped " + std::to_string(i) + ">");
    }
  EXPECT_GT(parsed, 0);
  EXPECT_LT(parsed, tried);
  EXPECT_TRUE(ParseTfBytes(bytes, {}, "<whole>").ok());
}

}  // namespace
}  // namespace ge::test
