// The text form's reader: print -> parse -> print gives the same text for
// graphs built here (every attribute kind, control edges, subgraphs, quoted
// names, formats, unknown dims) and for hand-written text; errors name the line.
#include "ge/ir/text_parse.h"

#include <gtest/gtest.h>

#include "ge/ir/graph.h"
#include "ge/ir/nesting.h"
#include "ge/ir/text_form.h"
#include "ge/ir/verifier.h"
#include "tests/common/refusal.h"

namespace ge {
namespace {

std::string RoundTrip(const Graph& g) {
  const std::string text = GraphToText(g);
  auto parsed = ParseGraphText(text, "test.ge");
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString() << "\n" << text;
  if (!parsed.ok()) return "";
  return GraphToText(**parsed);
}

Node* Data(Graph& g, const std::string& name, int64_t index, TensorDesc d) {
  Node* n = g.AddNode(op::kData, name, 0, 1);
  n->SetAttr("index", index);
  n->output_desc(0) = std::move(d);
  return n;
}

std::unique_ptr<Graph> EveryAttrKind() {
  auto g = std::make_unique<Graph>("attrs");
  Node* x = Data(*g, "x", 0, TensorDesc(DataType::kFloat32, {1, 3, -1, -1}, Format::kNCHW));
  Node* c = g->AddNode(op::kConst, "c", 0, 1);
  c->SetAttr("value", Tensor::FromVector(DataType::kInt64, {3}, std::vector<int64_t>{-1, 0, 7}));
  c->output_desc(0) = TensorDesc(DataType::kInt64, {3});
  Node* big = g->AddNode(op::kConst, "big", 0, 1);
  big->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {16}, std::vector<float>(16, 0.f)));
  big->output_desc(0) = TensorDesc(DataType::kFloat32, {16});
  Node* half = g->AddNode(op::kConst, "half", 0, 1);
  half->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {2}, std::vector<float>{0.5f, -3.25f}));
  half->output_desc(0) = TensorDesc(DataType::kFloat32, {2});
  Node* op = g->AddNode("Custom", "op", 3, 2);
  op->SetAttr("i", int64_t{-42});
  op->SetAttr("f", 1.0f);
  op->SetAttr("f_small", 1.5e-20f);
  op->SetAttr("f_neg", -2.0f);
  op->SetAttr("s", std::string("a \"quoted\" \\ string\nwith a newline"));
  op->SetAttr("b", true);
  op->SetAttr("nb", false);
  op->SetAttr("ints", std::vector<int64_t>{1, -2, 3});
  op->SetAttr("no_ints", std::vector<int64_t>{});
  op->SetAttr("floats", std::vector<float>{1.f, 2.5f, -0.125f});
  op->SetAttr("no_floats", std::vector<float>{});
  op->SetAttr("strings", std::vector<std::string>{"a", "b,c", "]"});
  op->SetAttr("no_strings", std::vector<std::string>{});
  op->SetAttr("t", Tensor::FromVector(DataType::kInt32, {2, 2}, std::vector<int32_t>{1, 2, 3, 4}));
  op->SetAttr("weird key", int64_t{1});
  EXPECT_TRUE(g->AddEdge(x, 0, op, 0).ok());
  EXPECT_TRUE(g->AddEdge(c, 0, op, 2).ok());  // input 1 absent
  op->output_desc(0) = TensorDesc(DataType::kFloat32, {kUnknownRank});
  op->output_desc(1) = TensorDesc(DataType::kBFloat16, {1, 16, 4, 4}, Format::kNCHW16c);
  Node* out = g->AddNode(op::kNetOutput, "out", 0, 0);
  EXPECT_TRUE(g->AddEdge(op, 1, out, 0).ok());
  EXPECT_TRUE(g->AddEdge(op, 0, out, 1).ok());
  EXPECT_TRUE(g->AddEdge(big, 0, out, 2).ok());
  EXPECT_TRUE(g->AddEdge(half, 0, out, 3).ok());
  return g;
}

TEST(TextParse, EveryAttributeKindRoundTrips) {
  auto g = EveryAttrKind();
  const std::string text = GraphToText(*g);
  EXPECT_EQ(RoundTrip(*g), text);
  auto parsed = ParseGraphText(text, "attrs.ge");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Node* op = (*parsed)->FindNode("op");
  ASSERT_NE(op, nullptr);
  // Types survive, not just the text: a float that prints "1.0" is a float.
  EXPECT_TRUE(std::holds_alternative<float>(*op->FindAttr("f")));
  EXPECT_EQ(op->GetFloat("f"), 1.0f);
  EXPECT_EQ(op->GetInt("i"), -42);
  EXPECT_EQ(op->GetString("s"), "a \"quoted\" \\ string\nwith a newline");
  EXPECT_TRUE(std::holds_alternative<std::vector<float>>(*op->FindAttr("no_floats")));
  EXPECT_TRUE(std::holds_alternative<std::vector<std::string>>(*op->FindAttr("no_strings")));
  EXPECT_TRUE(std::holds_alternative<std::vector<int64_t>>(*op->FindAttr("no_ints")));
  EXPECT_EQ(op->GetStrings("strings"), (std::vector<std::string>{"a", "b,c", "]"}));
  EXPECT_EQ(op->GetInt("weird key"), 1);
  EXPECT_FALSE(op->HasInput(1));
  EXPECT_EQ(op->InputNode(2)->name(), "c");
  EXPECT_EQ(op->output_desc(1), TensorDesc(DataType::kBFloat16, {1, 16, 4, 4}, Format::kNCHW16c));
  EXPECT_TRUE(op->output_desc(0).unknown_rank());
  EXPECT_EQ(op->GetTensor("t")->ToInt64(), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ((*parsed)->FindNode("half")->GetTensor("value")->ToDouble(), (std::vector<double>{0.5, -3.25}));
  // A constant too large to print its values parses as zeros of its desc.
  const Tensor* big = (*parsed)->FindNode("big")->GetTensor("value");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->size(), 64u);
  EXPECT_TRUE(VerifyGraph(**parsed).ok()) << VerifyGraph(**parsed).ToString();
}

TEST(TextParse, ControlEdgesQuotedNamesAndSubgraphsRoundTrip) {
  auto g = std::make_unique<Graph>("main graph");
  Node* x = Data(*g, "in:put/0", 0, TensorDesc(DataType::kFloat32, {2}));
  Node* a = g->AddNode("Relu", "a b", 1, 1);
  Node* b = g->AddNode("Neg", "b", 1, 1);
  ASSERT_TRUE(g->AddEdge(x, 0, a, 0).ok());
  ASSERT_TRUE(g->AddEdge(x, 0, b, 0).ok());
  a->output_desc(0) = b->output_desc(0) = TensorDesc(DataType::kFloat32, {2});
  g->AddControlEdge(a, b);
  g->AddControlEdge(x, b);
  Node* iff = g->AddNode("If", "if", 2, 1);
  ASSERT_TRUE(g->AddEdge(b, 0, iff, 0).ok());
  ASSERT_TRUE(g->AddEdge(a, 0, iff, 1).ok());
  iff->output_desc(0) = TensorDesc(DataType::kFloat32, {2});
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto sub = std::make_shared<Graph>(std::string(branch) + "_g");
    Node* d = Data(*sub, "arg", 0, TensorDesc(DataType::kFloat32, {2}));
    Node* o = sub->AddNode(op::kNetOutput, "out", 0, 0);
    ASSERT_TRUE(sub->AddEdge(d, 0, o, 0).ok());
    iff->subgraphs()[branch] = sub;
  }
  iff->SetAttr("then_graph", iff->subgraphs()["then_branch"]);
  Node* out = g->AddNode(op::kNetOutput, "out", 0, 0);
  ASSERT_TRUE(g->AddEdge(iff, 0, out, 0).ok());
  const std::string text = GraphToText(*g);
  EXPECT_NE(text.find("graph \"main graph\" {"), std::string::npos) << text;
  EXPECT_NE(text.find("%\"a b\" = Relu(%\"in:put/0\":0)"), std::string::npos) << text;
  EXPECT_NE(text.find("^(%\"a b\", %\"in:put/0\")"), std::string::npos) << text;
  EXPECT_EQ(RoundTrip(*g), text);
  auto parsed = ParseGraphText(text, "cf.ge");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Node* pif = (*parsed)->FindNode("if");
  ASSERT_EQ(pif->subgraphs().size(), 2u);
  EXPECT_EQ(pif->GetGraph("then_graph"), pif->subgraphs().at("then_branch"));
  EXPECT_EQ((*parsed)->FindNode("b")->control_inputs().size(), 2u);
  EXPECT_TRUE(VerifyGraph(**parsed).ok());
}

TEST(TextParse, HandWrittenTextWithCommentsAndForwardEdges) {
  const std::string text =
      "# a repro case: comments and blank lines anywhere\n"
      "graph g {\n"
      "\n"
      "  // nodes may come in any order; edges are made once all exist\n"
      "  %out = NetOutput(%r:0) -> ()\n"
      "  %r = Relu(%x:0)   ^(%v)  -> (f32[2])  # trailing comment\n"
      "  %x = Data[index=0]() -> (f32[2])\n"
      "  %v = Variable(%init:0) -> (f32[2])\n"
      "  %init = Const[value=tensor<f32[2] [1,2]>]() -> (f32[2])\n"
      "}\n";
  auto g = ParseGraphText(text, "hand.ge");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_TRUE(VerifyGraph(**g).ok()) << VerifyGraph(**g).ToString();
  const std::string printed = GraphToText(**g);
  EXPECT_NE(printed.find("%r = Relu(%x:0) ^(%v) -> (f32[2])"), std::string::npos) << printed;
  // Printed in topological order, it reads back the same.
  auto again = ParseGraphText(printed, "printed.ge");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(GraphToText(**again), printed);
}

struct BadCase {
  const char* text;
  const char* fragment;
};

TEST(TextParse, ErrorsNameTheLine) {
  const BadCase cases[] = {
      {"graph g {\n  %a = Relu(%b:0) -> (f32[2])\n}\n", "bad.ge:2: input 0 of a names node b"},
      {"graph g {\n  %x = Data[index=0]() -> (f32[2])\n  %a = Relu(%x:1) -> (f32[2])\n}\n", "bad.ge:3: input 0 of a is output 1 of x"},
      {"graph g {\n  %x = Data() -> (q32[2])\n}\n", "bad.ge:2: unknown element type 'q32'"},
      {"graph g {\n  %x = Data() -> (f32[2]{NCHW9})\n}\n", "bad.ge:2: unknown format 'NCHW9'"},
      {"graph g {\n\n  %x = Data[s=\"open]() -> (f32[2])\n}\n", "bad.ge:3: a string that is never closed"},
      {"graph g {\n  %x = Data() -> (f32[2])\n  %x = Data() -> (f32[2])\n}\n", "bad.ge:3: node x is defined twice"},
      {"graph g {\n  %x = Data() -> (f32[2])\n", "expected '}' closing graph g"},
      {"graph g {\n  x = Data() -> (f32[2])\n}\n", "bad.ge:2: expected a node line"},
      {"graph g {\n  %x = Data() (f32[2])\n}\n", "bad.ge:2: expected '-> (output descs)'"},
      {"graph g {\n  %x = Data[a=1, a=2]() -> (f32[2])\n}\n", "bad.ge:2: attribute a of x is given twice"},
      {"graph g {\n  %x = Data[a=[1,\"s\"]]() -> (f32[2])\n}\n", "bad.ge:2: a list mixes strings and numbers"},
      {"graph g {\n  %c = Const[value=tensor<f32[3] [1,2]>]() -> (f32[3])\n}\n", "bad.ge:2: the tensor f32[3] lists 2 values"},
      {"graph g {\n  %r = Relu() ^(%nobody) -> (f32[2])\n}\n", "bad.ge:2: control input nobody of r"},
      {"graph g {\n  // subgraph body of nobody\n  graph b {\n  }\n}\n", "bad.ge:2: subgraph body of nobody"},
      {"graph g {\n  %i = If[g=graph<x>]() -> ()\n}\n", "bad.ge:2: attribute g of i names graph x"},
      {"graph g {\n}\ngraph h {\n}\n", "bad.ge:3: expected the end of the text"},
      {"", "bad.ge:1: expected 'graph NAME {'"},
  };
  for (const BadCase& c : cases) {
    auto g = ParseGraphText(c.text, "bad.ge");
    EXPECT_TRUE(Refused(g, StatusCode::kInvalidArgument, c.fragment)) << c.text;
  }
}

// `levels` Ifs, each the then_branch of the one before.
std::string NestedIfText(int levels) {
  std::string head, tail;
  for (int k = 0; k < levels; ++k) {
    head += "graph g" + std::to_string(k) + " {\n  %i = If(_) -> ()\n  // subgraph then_branch of i\n";
    tail += "  %o = NetOutput() -> ()\n}\n";
  }
  return head + "graph leaf {\n  %o = NetOutput() -> ()\n}\n" + tail;
}

// 8,000 nested Ifs overflowed the stack of ge-atc, ge-lint and ge-dump; the
// reader now stops at the IR's nesting limit with the line it stopped at.
TEST(TextParse, SubgraphsNestedDeeperThanTheLimitAreAnError) {
  auto ok = ParseGraphText(NestedIfText(kMaxSubgraphNesting - 1), "deep.ge");
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
  // The graph past the limit is the leaf of kMaxSubgraphNesting Ifs, and
  // g<kMaxSubgraphNesting> of 8,000.
  using Case = std::pair<int, std::string>;
  for (const auto& [levels, name] : {Case{kMaxSubgraphNesting, "leaf"}, Case{8000, "g" + std::to_string(kMaxSubgraphNesting)}}) {
    auto g = ParseGraphText(NestedIfText(levels), "deep.ge");
    EXPECT_EQ(g.status().code(), StatusCode::kInvalidArgument) << levels;
    EXPECT_EQ(g.status().message(), "deep.ge:" + std::to_string(3 * kMaxSubgraphNesting + 1) +
                                        ": subgraphs nested too deep (more than " + std::to_string(kMaxSubgraphNesting) +
                                        " levels), found ' " + name + " {'")
        << levels;
  }
}

TEST(TextParse, ReadingAFileNamesIt) {
  auto g = ReadGraphTextFile("/nonexistent/dir/case.ge");
  ASSERT_TRUE(Refused(g, StatusCode::kNotFound, "/nonexistent/dir/case.ge: no such file"));
}

}  // namespace
}  // namespace ge
