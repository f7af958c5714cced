#include <filesystem>

#include "ge_parsers/onnx_parser.h"
#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {
namespace {

TEST(ShapeFolding, StaticShapeBecomesConst) {
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3, 4}));
  Node* s = t.Op("Shape", "s", {x});
  Node* part = t.Op("Shape", "part", {x}, {{"start", int64_t{1}}, {"end", int64_t{-1}}});
  Node* n = t.Op("Size", "n", {x});
  t.Output({t.Op("Concat", "cat", {s, part, t.Op("Unsqueeze", "nu", {n, t.Const("ax", I64s({0}))})},
                 {{"axis", int64_t{0}}})});
  ASSERT_TRUE(t.RunPass(ShapeFoldingPass()).ok());
  EXPECT_EQ(t.Count("Shape") + t.Count("Size"), 0);
  Node* cat = t.g().FindNode("cat");
  EXPECT_EQ(cat->InputNode(0)->GetTensor("value")->ToInt64(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(cat->InputNode(1)->GetTensor("value")->ToInt64(), (std::vector<int64_t>{3}));
  EXPECT_EQ(t.g().FindNode("nu")->InputNode(0)->GetTensor("value")->ToInt64(), (std::vector<int64_t>{24}));
  EXPECT_NE(t.g().FindNode("x"), nullptr);  // the model input stays
}

TEST(ShapeFolding, DoesNotFireOnAnUnknownDim) {
  TinyGraph t;
  Node* x = t.Data("x", F32({-1, 4}));
  t.Output({t.Op("Shape", "s", {x})});
  // Inference of a dynamic graph is fine; the pass must leave the Shape.
  ASSERT_TRUE(t.RunPass(ShapeFoldingPass()).ok());
  EXPECT_EQ(t.Count("Shape"), 1);
}

TEST(ShapeFolding, ShapeChainsFoldAwayInThePipeline) {
  // x -> Shape -> Gather(0) -> Unsqueeze -> Concat(-1) -> Reshape(x): the
  // Reshape gets a constant target, and no shape op is left.
  TinyGraph t;
  Node* x = t.Data("x", F32({2, 3, 4}));
  Node* s = t.Op("Shape", "s", {x});
  Node* g = t.Op("Gather", "g", {s, t.Const("i0", Tensor::FromVector(DataType::kInt64, {}, std::vector<int64_t>{0}))});
  Node* u = t.Op("Unsqueeze", "u", {g, t.Const("ax", I64s({0}))});
  Node* shape = t.Op("Concat", "shape", {u, t.Const("rest", I64s({-1}))}, {{"axis", int64_t{0}}});
  Node* r = t.Op("Reshape", "r", {x, shape});
  t.Output({t.Op("Relu", "y", {r})});
  auto run = CompileAndRun(t.Clone(), {Iota(24)});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const Graph& cg = *run->model.graph;
  for (const char* type : {"Shape", "Gather", "Unsqueeze", "Concat"}) EXPECT_EQ(CountType(cg, type), 0) << type;
  EXPECT_EQ(run->model.outputs[0].desc.dims, (Dims{2, 12}));
  ExpectSameNumerics(t, {Iota(24)});
}

TEST(ShapeFolding, BertEncoderHasNoShapeNodeAfterThePipeline) {
  const std::filesystem::path model = std::filesystem::path(GE_MODELS_DIR) / "bert_encoder.onnx";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << model << " is absent (GE_MODELS_DIR=" << GE_MODELS_DIR << ")";
  auto graph = ParseOnnxFile(model.string(), ParseOptions{});
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const int before = CountType(**graph, "Shape");
  EXPECT_GT(before, 0);
  CompileOptions co;
  auto m = Compile(std::move(graph).value(), co);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(CountType(*m->graph, "Shape"), 0);
}

}  // namespace
}  // namespace ge::test
