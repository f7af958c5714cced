// The elementwise ops added with TensorFlow's breadth import from ONNX by
// name: Round, Sign, Elu, Selu, Softplus, Softsign, Mod (both fmod modes),
// the variadic Sum and bool ReduceMax; each parses with its attributes,
// infers its output, and the CPU backend accepts the compiled graph.
#include <gtest/gtest.h>

#include "ge/compiler.h"
#include "onnx_parser_test_util.h"

namespace ge::test {
namespace {

TEST(OnnxBreadthOps, ParseInferAndCompile) {
  OnnxModelBuilder b(13);
  b.Input("x", TensorProto::FLOAT, {2, 3});
  b.Input("k", TensorProto::INT32, {2, 3});
  b.RawInit<float>("v", TensorProto::FLOAT, {3}, {1, 2, 3});
  b.RawInit<int32_t>("m", TensorProto::INT32, {3}, {3, -3, 4});
  for (const char* op : {"Round", "Sign", "Softplus", "Softsign"})
    b.Node(op, {"x"}, {std::string(op) + "_y"}, op);
  AttrFloat(b.Node("Elu", {"x"}, {"elu_y"}, "elu"), "alpha", 0.5f);
  AttrFloat(b.Node("Selu", {"x"}, {"selu_y"}, "selu"), "gamma", 2.0f);
  AttrInt(b.Node("Mod", {"x", "v"}, {"fmod_y"}, "fmod"), "fmod", 1);
  b.Node("Mod", {"k", "m"}, {"mod_y"}, "mod");
  b.Node("Sum", {"Round_y", "Sign_y", "Softplus_y", "Softsign_y", "elu_y", "selu_y", "fmod_y", "v"}, {"sum_y"}, "sum");
  b.Node("Greater", {"sum_y", "v"}, {"gt"}, "gt");
  AttrInts(b.Node("ReduceMax", {"gt"}, {"any"}, "any"), "axes", {1});
  b.Output("sum_y", TensorProto::FLOAT, {2, 3});
  b.Output("mod_y", TensorProto::INT32, {2, 3});
  b.Output("any", TensorProto::BOOL, {2, 1});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->FindNode("elu")->GetFloat("alpha", 0), 0.5f);
  EXPECT_EQ(g->FindNode("fmod")->GetInt("fmod", -1), 1);
  EXPECT_EQ(g->FindNode("sum")->output_desc(0), TensorDesc(DataType::kFloat32, {2, 3}));
  EXPECT_EQ(g->FindNode("mod")->output_desc(0), TensorDesc(DataType::kInt32, {2, 3}));
  EXPECT_EQ(g->FindNode("any")->output_desc(0), TensorDesc(DataType::kBool, {2, 1}));
  CompileOptions co;
  co.model_name = "breadth";
  auto m = Compile(std::move(g), co);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
}

}  // namespace
}  // namespace ge::test
