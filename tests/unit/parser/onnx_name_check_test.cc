// CheckNamesDefined: the check that keeps undefined values away from the
// onnx version converter (which crashed on them).
#include "parsers/onnx/onnx_name_check.h"

#include <gtest/gtest.h>

#include "tests/common/refusal.h"

namespace ge::onnx_parser {
namespace {

onnx::NodeProto* AddNode(onnx::GraphProto& g, const std::string& op, const std::string& name,
                         std::vector<std::string> in, std::vector<std::string> out) {
  auto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(name);
  for (auto& i : in) n->add_input(i);
  for (auto& o : out) n->add_output(o);
  return n;
}

// main: x -> If(cond) -> y; the then branch reads `then_reads`.
onnx::GraphProto WithBranch(const std::string& then_reads) {
  onnx::GraphProto g;
  g.set_name("main");
  g.add_input()->set_name("x");
  g.add_input()->set_name("cond");
  auto* node = AddNode(g, "If", "if0", {"cond"}, {"y"});
  auto* a = node->add_attribute();
  a->set_name("then_branch");
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* then_g = a->mutable_g();
  then_g->set_name("then");
  AddNode(*then_g, "Relu", "relu_in_then", {then_reads}, {"t"});
  then_g->add_output()->set_name("t");
  g.add_output()->set_name("y");
  return g;
}

TEST(OnnxNameCheck, OuterScopeValuesAreDefined) {
  EXPECT_TRUE(CheckNamesDefined(WithBranch("x")).ok());
}

TEST(OnnxNameCheck, NamesTheNodeAndGraphOfAnUndefinedInput) {
  const Status s = CheckNamesDefined(WithBranch("ghost"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("node relu_in_then (Relu) in graph 'then': input 0 'ghost' is not produced by any node"),
            std::string::npos)
      << s.message();
}

TEST(OnnxNameCheck, NamesAnUndefinedGraphOutput) {
  onnx::GraphProto g = WithBranch("x");
  g.mutable_output(0)->set_name("Y");
  const Status s = CheckNamesDefined(g);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "graph output 'Y' in graph 'main' is not produced by any node"));
}

TEST(OnnxNameCheck, InitializersAndEmptyOptionalInputsAreFine) {
  onnx::GraphProto g;
  g.add_input()->set_name("x");
  g.add_initializer()->set_name("w");
  AddNode(g, "Conv", "conv0", {"x", "w", ""}, {"y"});
  g.add_output()->set_name("y");
  EXPECT_TRUE(CheckNamesDefined(g).ok());
}

}  // namespace
}  // namespace ge::onnx_parser
