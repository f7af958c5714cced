// The layout acceptance: a chain of NHWC convolutions (with bias, batch norm,
// activations, pooling, a residual add and a concat) is converted to NCHW
// once at the input and back once at the output — never between the ops.
#include "tf_test_util.h"

namespace ge::test {
namespace {

TfGraph ConvChain() {
  TfGraph g;
  g.Placeholder("input", {1, 8, 8, 3});
  auto conv = [&](const std::string& name, const std::string& in, int64_t ci, int64_t co, int64_t stride,
                  const char* padding) {
    g.ConstF(name + "/w", {3, 3, ci, co}, Iota(static_cast<size_t>(9 * ci * co), 0.01f, -0.1f));
    auto* c = g.Node("Conv2D", name, {in, name + "/w"});
    SetS(c, "padding", padding);
    SetS(c, "data_format", "NHWC");
    SetList(c, "strides", {1, stride, stride, 1});
    g.ConstF(name + "/b", {co}, Iota(static_cast<size_t>(co), 0.1f, 0.f));
    g.Node("BiasAdd", name + "/bias", {name, name + "/b"});
    g.Node("Relu", name + "/relu", {name + "/bias"});
  };
  conv("c1", "input", 3, 4, 1, "SAME");
  conv("c2", "c1/relu", 4, 4, 1, "SAME");
  g.Node("AddV2", "res", {"c1/relu", "c2/relu"});
  conv("c3", "res", 4, 6, 2, "SAME");
  auto* pool = g.Node("MaxPool", "pool", {"res"});
  SetS(pool, "padding", "SAME");
  SetList(pool, "ksize", {1, 2, 2, 1});
  SetList(pool, "strides", {1, 2, 2, 1});
  g.ConstI32("axis", {}, {3});
  g.Node("ConcatV2", "cat", {"c3/relu", "pool", "axis"});
  g.Node("Relu6", "out", {"cat"});
  return g;
}

TEST(TfLayout, NhwcConvChainTransposesOnlyAtTheBoundaries) {
  auto graph = Parse(ConvChain());
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const std::string text = GraphToText(**graph);
  size_t count = 0;
  for (size_t p = text.find("Transpose"); p != std::string::npos; p = text.find("Transpose", p + 1)) ++count;
  // One node line each for input/to_nchw and out/to_nhwc (names do not contain "Transpose").
  EXPECT_EQ(CountOps(**graph, "Transpose"), 2) << text;
  Node* in_t = (*graph)->FindNode("input/to_nchw");
  Node* out_t = (*graph)->FindNode("out/to_nhwc");
  ASSERT_TRUE(in_t && out_t) << text;
  EXPECT_EQ(in_t->InputNode(0)->type(), "Data");
  EXPECT_EQ(out_t->OutNodes()[0]->type(), "NetOutput");
  EXPECT_EQ(in_t->GetInts("perm"), (Ints{0, 3, 1, 2}));
  EXPECT_EQ(out_t->GetInts("perm"), (Ints{0, 2, 3, 1}));
  EXPECT_GE(count, 2u);
  // The concat of two NCHW-held values runs on the channel axis 1.
  EXPECT_EQ((*graph)->FindNode("cat")->GetInt("axis"), 1);
}

TEST(TfLayout, NhwcConvChainComputesWhatTfWould) {
  // The same chain computed in NHWC on the host, op by op.
  const Ints xd = {1, 8, 8, 3};
  const Floats x = Iota(192, 0.05f, -0.5f);
  auto conv = [](const Floats& in, const Ints& d, int64_t ci, int64_t co, int64_t stride) {
    Floats w = Iota(static_cast<size_t>(9 * ci * co), 0.01f, -0.1f);
    Floats y = Conv2dNhwc(in, d, w, co, SameWindow(d[1], d[2], 3, 3, stride, stride));
    Floats b = Iota(static_cast<size_t>(co), 0.1f, 0.f);
    for (size_t i = 0; i < y.size(); ++i) y[i] = std::max(y[i] + b[i % co], 0.f);
    return y;
  };
  const Floats c1 = conv(x, xd, 3, 4, 1);
  const Floats c2 = conv(c1, {1, 8, 8, 4}, 4, 4, 1);
  Floats res(c1.size());
  for (size_t i = 0; i < res.size(); ++i) res[i] = c1[i] + c2[i];
  const Floats c3 = conv(res, {1, 8, 8, 4}, 4, 6, 2);
  const Floats pool = PoolNhwc(res, {1, 8, 8, 4}, SameWindow(8, 8, 2, 2, 2, 2), true);
  Floats want;
  for (size_t p = 0; p < 16; ++p) {
    for (size_t c = 0; c < 6; ++c) want.push_back(std::min(c3[p * 6 + c], 6.f));
    for (size_t c = 0; c < 4; ++c) want.push_back(std::min(std::max(pool[p * 4 + c], 0.f), 6.f));
  }
  auto out = RunTf(ConvChain(), {Host<float>({}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].dims, (Ints{1, 4, 4, 10}));
  ExpectNear((*out)[0].f(), want, 1e-4f);
}

}  // namespace
}  // namespace ge::test
