// Conv2D, DepthwiseConv2dNative, BiasAdd, FusedBatchNorm, MaxPool, AvgPool:
// compiled and run, against NHWC references written here, in both data
// formats, with TF's asymmetric SAME padding on odd sizes and stride 2.
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

struct ConvCase {
  Ints x;  // NHWC
  Ints f;  // HWIO (depthwise: kh, kw, C, multiplier)
  int64_t sh, sw;
  std::string padding;
  bool nchw = false;
  int64_t dh = 1, dw = 1;
};

TfGraph ConvGraph(const ConvCase& c, const Floats& filter, bool depthwise) {
  TfGraph g;
  g.Placeholder("x", c.nchw ? Ints{c.x[0], c.x[3], c.x[1], c.x[2]} : c.x);
  g.ConstF("w", c.f, filter);
  auto* conv = g.Node(depthwise ? "DepthwiseConv2dNative" : "Conv2D", "conv", {"x", "w"});
  SetS(conv, "padding", c.padding);
  SetS(conv, "data_format", c.nchw ? "NCHW" : "NHWC");
  SetList(conv, "strides", c.nchw ? Ints{1, 1, c.sh, c.sw} : Ints{1, c.sh, c.sw, 1});
  SetList(conv, "dilations", c.nchw ? Ints{1, 1, c.dh, c.dw} : Ints{1, c.dh, c.dw, 1});
  return g;
}

void CheckConv(const ConvCase& c, bool depthwise) {
  SCOPED_TRACE(c.padding + (c.nchw ? " NCHW" : " NHWC") + (depthwise ? " depthwise" : ""));
  const Floats x = Iota(static_cast<size_t>(NumElements(c.x)), 0.1f, -1.f);
  const Floats f = Iota(static_cast<size_t>(NumElements(c.f)), 0.05f, -0.5f);
  Window win = c.padding == "SAME" ? SameWindow(c.x[1], c.x[2], c.f[0], c.f[1], c.sh, c.sw, c.dh, c.dw)
                                   : Window{c.f[0], c.f[1], c.sh, c.sw, c.dh, c.dw};
  Floats want = depthwise ? DepthwiseNhwc(x, c.x, f, c.f[3], win) : Conv2dNhwc(x, c.x, f, c.f[3], win);
  const int64_t oc = depthwise ? c.x[3] * c.f[3] : c.f[3];
  const Ints out_nhwc = {c.x[0], win.OutH(c.x[1]), win.OutW(c.x[2]), oc};
  if (c.nchw) want = NhwcToNchw(want, out_nhwc);
  auto out = RunTf(ConvGraph(c, f, depthwise), {Host<float>({}, c.nchw ? NhwcToNchw(x, c.x) : x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].dims, (c.nchw ? Ints{out_nhwc[0], out_nhwc[3], out_nhwc[1], out_nhwc[2]} : out_nhwc));
  ExpectNear((*out)[0].f(), want, 1e-4f);
}

TEST(TfNnOps, SamePaddingIsAsymmetricWithTheExtraAtTheEnd) {
  // in 5, kernel 4, stride 2: out 3, total 3 -> 1 before, 2 after; in 7, kernel 3, stride 2: 1 and 1.
  EXPECT_EQ(TfSame(5, 4, 2), (std::pair<int64_t, int64_t>{1, 2}));
  EXPECT_EQ(TfSame(7, 3, 2), (std::pair<int64_t, int64_t>{1, 1}));
  EXPECT_EQ(TfSame(6, 3, 2), (std::pair<int64_t, int64_t>{0, 1}));
  ConvCase c{{1, 5, 7, 3}, {4, 3, 3, 2}, 2, 2, "SAME"};
  auto graph = Parse(ConvGraph(c, Iota(72), false));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  Node* conv = (*graph)->FindNode("conv");
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->type(), "Conv");
  EXPECT_EQ(conv->GetInts("pads"), (Ints{1, 1, 2, 1}));  // h_begin, w_begin, h_end, w_end
  EXPECT_EQ(conv->GetInts("strides"), (Ints{2, 2}));
  EXPECT_EQ(conv->output_desc(0).ToString(), "f32[1,2,3,4]");  // held as NCHW
}

TEST(TfNnOps, Conv2dSameOddSizesStride2BothFormats) {
  for (bool nchw : {false, true}) {
    CheckConv({{1, 5, 7, 3}, {4, 3, 3, 2}, 2, 2, "SAME", nchw}, false);
    CheckConv({{2, 6, 5, 2}, {3, 3, 2, 3}, 2, 1, "SAME", nchw}, false);
  }
}

TEST(TfNnOps, Conv2dValidAndDilated) {
  for (bool nchw : {false, true}) {
    CheckConv({{1, 6, 6, 2}, {3, 2, 2, 4}, 1, 2, "VALID", nchw}, false);
    CheckConv({{1, 7, 7, 2}, {3, 3, 2, 2}, 1, 1, "SAME", nchw, 2, 2}, false);
  }
}

TEST(TfNnOps, DepthwiseWithMultiplier) {
  for (bool nchw : {false, true}) {
    CheckConv({{1, 5, 5, 3}, {3, 3, 3, 2}, 2, 2, "SAME", nchw}, true);
    CheckConv({{1, 6, 4, 2}, {3, 3, 2, 1}, 1, 1, "VALID", nchw}, true);
  }
  auto graph = Parse(ConvGraph({{1, 5, 5, 3}, {3, 3, 3, 2}, 1, 1, "SAME"}, Iota(54), true));
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ((*graph)->FindNode("conv")->GetInt("group"), 3);
}

TEST(TfNnOps, PoolsSameOddSizesStride2BothFormats) {
  const Ints xd = {1, 5, 7, 2};
  const Floats x = Iota(70, 0.3f, -3.f);
  for (bool nchw : {false, true})
    for (const char* op : {"MaxPool", "AvgPool"})
      for (const char* padding : {"SAME", "VALID"}) {
        SCOPED_TRACE(std::string(op) + " " + padding + (nchw ? " NCHW" : " NHWC"));
        TfGraph g;
        g.Placeholder("x", nchw ? Ints{1, 2, 5, 7} : xd);
        auto* p = g.Node(op, "pool", {"x"});
        SetS(p, "padding", padding);
        SetS(p, "data_format", nchw ? "NCHW" : "NHWC");
        SetList(p, "ksize", nchw ? Ints{1, 1, 3, 2} : Ints{1, 3, 2, 1});
        SetList(p, "strides", nchw ? Ints{1, 1, 2, 2} : Ints{1, 2, 2, 1});
        Window win = std::string(padding) == "SAME" ? SameWindow(5, 7, 3, 2, 2, 2) : Window{3, 2, 2, 2};
        Floats want = PoolNhwc(x, xd, win, std::string(op) == "MaxPool");
        if (nchw) want = NhwcToNchw(want, {1, win.OutH(5), win.OutW(7), 2});
        auto out = RunTf(g, {Host<float>({}, nchw ? NhwcToNchw(x, xd) : x)});
        ASSERT_TRUE(out.ok()) << out.status().message();
        ExpectNear((*out)[0].f(), want, 1e-5f);
      }
}

TEST(TfNnOps, BiasAddAlongTheChannelInBothFormats) {
  const Floats bias = {10, 20, 30};
  for (bool nchw : {false, true}) {
    TfGraph g;
    g.Placeholder("x", nchw ? Ints{1, 3, 2, 2} : Ints{1, 2, 2, 3});
    g.ConstF("b", {3}, bias);
    auto* ba = g.Node("BiasAdd", "y", {"x", "b"});
    SetS(ba, "data_format", nchw ? "NCHW" : "NHWC");
    const Floats x = Iota(12);
    auto out = RunTf(g, {Host<float>({}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want = x;
    for (size_t i = 0; i < x.size(); ++i) want[i] += bias[nchw ? i / 4 : i % 3];
    ExpectNear((*out)[0].f(), want);
  }
  // After an NHWC conv the value is held as NCHW: the bias becomes [1,C,1,1], no transpose.
  TfGraph g;
  g.Placeholder("x", {1, 3, 3, 2});
  g.ConstF("w", {1, 1, 2, 3}, {1, 0, 0, 0, 1, 0});
  auto* conv = g.Node("Conv2D", "conv", {"x", "w"});
  SetS(conv, "padding", "VALID");
  SetList(conv, "strides", {1, 1, 1, 1});
  g.ConstF("b", {3}, bias);
  g.Node("BiasAdd", "y", {"conv", "b"});
  const Floats x = Iota(18);
  auto out = RunTf(g, {Host<float>({1, 3, 3, 2}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats want;
  for (size_t p = 0; p < 9; ++p) {
    want.push_back(x[p * 2] + 10);
    want.push_back(x[p * 2 + 1] + 20);
    want.push_back(30);
  }
  ExpectNear((*out)[0].f(), want);
  auto graph = Parse(g);
  ASSERT_TRUE(graph.ok());
  EXPECT_EQ(CountOps(**graph, "Transpose"), 2);  // in and out only
}

TEST(TfNnOps, FusedBatchNormInBothFormats) {
  const Floats scale = {1.5f, -0.5f}, offset = {0.1f, 0.2f}, mean = {0.3f, -0.4f}, var = {2.f, 0.5f};
  const float eps = 0.001f;
  for (const char* op : {"FusedBatchNorm", "FusedBatchNormV3"})
    for (bool nchw : {false, true}) {
      TfGraph g;
      g.Placeholder("x", nchw ? Ints{1, 2, 2, 3} : Ints{1, 2, 3, 2});
      g.ConstF("s", {2}, scale);
      g.ConstF("o", {2}, offset);
      g.ConstF("m", {2}, mean);
      g.ConstF("v", {2}, var);
      auto* bn = g.Node(op, "bn", {"x", "s", "o", "m", "v"});
      SetB(bn, "is_training", false);
      SetF(bn, "epsilon", eps);
      SetS(bn, "data_format", nchw ? "NCHW" : "NHWC");
      ParseOptions o;
      o.out_nodes = {"bn"};
      const Floats x = Iota(12);
      auto out = RunTf(g, {Host<float>({}, x)}, o);
      ASSERT_TRUE(out.ok()) << out.status().message();
      Floats want(12);
      for (size_t i = 0; i < 12; ++i) {
        const size_t c = nchw ? i / 6 : i % 2;
        want[i] = scale[c] * (x[i] - mean[c]) / std::sqrt(var[c] + eps) + offset[c];
      }
      ExpectNear((*out)[0].f(), want, 1e-5f);
    }
  TfGraph training;
  training.Placeholder("x", {1, 1, 1, 1});
  for (const char* c : {"s", "o", "m", "v"}) training.ConstF(c, {1}, {1});
  training.Node("FusedBatchNormV3", "bn", {"x", "s", "o", "m", "v"});  // is_training defaults to true
  auto bad = Parse(training);
  ASSERT_TRUE(Refused(bad, StatusCode::kUnsupported, "is_training"));
}

}  // namespace
}  // namespace ge::test

namespace ge::test {
namespace {

// Window attributes are refused before any arithmetic uses them, naming the
// node and attribute, as the ONNX parser does (issue 17).
TEST(TfNnOps, ZeroHugeOrNegativeWindowAttributesAreErrors) {
  auto conv = [](Ints strides, std::string padding, Ints explicit_pads) {
    ConvCase c{{1, 5, 5, 3}, {3, 3, 3, 2}, 1, 1, padding};
    TfGraph g = ConvGraph(c, Iota(54), false);
    tf::NodeDef* n = nullptr;
    for (auto& node : *g.def().mutable_node())
      if (node.name() == "conv") n = &node;
    n->mutable_attr()->erase("strides");
    SetList(n, "strides", strides);
    if (!explicit_pads.empty()) SetList(n, "explicit_paddings", explicit_pads);
    return Parse(g);
  };
  ASSERT_TRUE(conv({1, 1, 1, 1}, "EXPLICIT", {0, 0, 1, 1, 1, 1, 0, 0}).ok());
  for (const auto& [strides, pads, want] : std::vector<std::tuple<Ints, Ints, std::string>>{
           {{1, 0, 1, 1}, {}, "'strides' must be positive"},
           {{1, int64_t{1} << 40, 1, 1}, {}, "'strides' is implausibly large"},
           {{1, 1, 1, 1}, {0, 0, int64_t{1} << 31, 0, 0, 0, 0, 0}, "explicit_paddings has 2147483648"},
           {{1, 1, 1, 1}, {0, 0, -1, 0, 0, 0, 0, 0}, "explicit_paddings has -1"}}) {
    auto g = conv(strides, pads.empty() ? "VALID" : "EXPLICIT", pads);
    ASSERT_TRUE(Refused(g, StatusCode::kInvalidArgument, "conv")) << want;
    EXPECT_NE(g.status().message().find(want), std::string::npos) << g.status().message();
  }
}

}  // namespace
}  // namespace ge::test
