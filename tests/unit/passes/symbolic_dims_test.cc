// Symbolic dims: unknown dims named after the input dims they are tied to,
// through ops that keep, permute, multiply or compute them.
#include "ge/ir/text_form.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {
namespace {

TEST(SymbolicDims, NamesFollowTheInputDims) {
  TinyGraph t;
  Node* x = t.Data("x", F32({-1, 4}));
  x->SetAttr("dim_names", std::vector<std::string>{"batch", ""});
  Node* y = t.Data("y", F32({-1, -1}));
  y->SetAttr("dim_names", std::vector<std::string>{"batch", "seq"});  // the same batch as x
  Node* z = t.Data("z", F32({-1}));                                    // no name in the file
  Node* cat = t.Op("Concat", "cat", {x, x}, {{"axis", int64_t{0}}});
  Node* flat = t.Op("Reshape", "flat", {x, t.Const("minus1", I64s({-1}))});
  Node* tr = t.Op("Transpose", "tr", {y}, {{"perm", std::vector<int64_t>{1, 0}}});
  Node* sq = t.Op("Mul", "sq", {z, z});
  t.Output({cat, flat, tr, sq});
  ASSERT_TRUE(t.Infer().ok());
  EXPECT_EQ(cat->output_desc(0).dims, (std::vector<int64_t>{-1, 4}));  // what inference alone says
  auto names = InferSymbolicDims(t.g());
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  auto name_of = [&](const char* node) { return (*names)[{t.g().FindNode(node), 0}]; };
  EXPECT_EQ(name_of("cat"), (std::vector<std::string>{"2*batch", ""}));
  EXPECT_EQ(name_of("flat"), (std::vector<std::string>{"4*batch"}));
  EXPECT_EQ(name_of("tr"), (std::vector<std::string>{"seq", "batch"}));
  EXPECT_EQ(name_of("sq"), (std::vector<std::string>{"z.0"}));
  const std::string text = GraphToText(t.g(), &*names);
  EXPECT_NE(text.find("f32[2*batch,4]"), std::string::npos) << text;
  EXPECT_NE(text.find("f32[seq,batch]"), std::string::npos) << text;
}

TEST(SymbolicDims, AStaticGraphHasNone) {
  TinyGraph t;
  t.Output({t.Op("Relu", "r", {t.Data("x", F32({2, 4}))})});
  ASSERT_TRUE(t.Infer().ok());
  auto names = InferSymbolicDims(t.g());
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty());
}

}  // namespace
}  // namespace ge::test
