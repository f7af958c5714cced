// blocked_layout on tiny graphs, on devices that prefer nChw8c, nChw16c and
// channels-last: conv chains stay in the layout, one TransData sits where a
// plain consumer (or the graph output) reads it, nothing changes where no
// conv is involved or the channels do not fit, and the numbers stay the same.
#include "compiler/passes/layout_passes.h"
#include "pass_test_util.h"
#include "tests/common/device_overlay.h"

namespace ge::test {
namespace {

// The CPU device with its preferred layout overridden, by name.
std::string LayoutDevice(int32_t block) {
  return RegisterOverlay("cpu_layout" + std::to_string(block), [block](DeviceOverlay& d) { d.caps().channel_block = block; });
}

Node* ConvOf(TinyGraph& t, Node* x, const std::string& name, int64_t c_in, int64_t c_out, int seed) {
  return t.Op("Conv", name,
              {x, t.Const(name + "_w", F32s({c_out, c_in, 3, 3}, Iota(c_out * c_in * 9, 0.02f, -0.1f + 0.01f * seed))),
               t.Const(name + "_b", F32s({c_out}, Iota(c_out, 0.1f, -0.2f)))},
              {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
}

class BlockedLayoutTest : public ::testing::TestWithParam<int32_t> {
 protected:
  BlockedLayoutTest() : device_(LayoutDevice(GetParam())) {}
  Format Laid() const { return ChannelBlockedFormat(GetParam()); }
  void Use(TinyGraph& t) { t.device = device_; }
  std::string device_;
};

TEST_P(BlockedLayoutTest, ConvChainStaysLaidOutWithOneTransDataAtTheOutput) {
  TinyGraph t;
  Use(t);
  Node* x = t.Data("x", F32({1, 16, 6, 6}));
  Node* c1 = ConvOf(t, x, "c1", 16, 16, 0);
  Node* relu = t.Op("Relu", "relu", {c1});
  Node* pool = t.Op("MaxPool", "pool", {relu}, {{"kernel_shape", std::vector<int64_t>{2, 2}}});
  Node* c2 = ConvOf(t, pool, "c2", 16, 16, 1);
  Node* sig = t.Op("Sigmoid", "sig", {c2});
  t.Output({sig});
  ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
  EXPECT_EQ(c1->output_desc(0).format, Laid());
  EXPECT_EQ(relu->output_desc(0).format, Laid());
  EXPECT_EQ(pool->output_desc(0).format, Laid());
  EXPECT_EQ(c2->output_desc(0).format, Laid());
  EXPECT_EQ(sig->output_desc(0).format, Laid()) << "an elementwise op keeps its input's layout";
  ASSERT_EQ(t.Count("TransData"), 1);
  Node* td = t.Find("TransData");
  EXPECT_EQ(td->InputNode(0), sig);
  EXPECT_EQ(td->output_desc(0).format, Format::kND);
  EXPECT_EQ(t.g().OutputNode()->InputNode(0), td);
  EXPECT_EQ(t.g().OutputNode()->GetStrings("output_names"), std::vector<std::string>{"sig"});
  EXPECT_EQ(x->output_desc(0).format, Format::kND) << "graph inputs stay plain";
}

TEST_P(BlockedLayoutTest, OneTransDataServesEveryPlainReader) {
  TinyGraph t;
  Use(t);
  Node* x = t.Data("x", F32({1, 16, 4, 4}));
  Node* r = t.Data("r", F32({1, 16, 4, 4}));
  Node* c1 = ConvOf(t, x, "c1", 16, 16, 0);
  Node* c2 = ConvOf(t, c1, "c2", 16, 16, 1);
  Node* add = t.Op("Add", "add", {c1, r});  // a plain graph input: the Add runs plain
  Node* flat = t.Op("Flatten", "flat", {c1});
  t.Output({c2, add, flat});
  ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
  EXPECT_EQ(c1->output_desc(0).format, Laid());
  EXPECT_EQ(add->output_desc(0).format, Format::kND);
  int to_plain_of_c1 = 0;
  for (Node* n : t.g().nodes())
    if (n->type() == "TransData" && n->InputNode(0) == c1) ++to_plain_of_c1;
  EXPECT_EQ(to_plain_of_c1, 1);
  EXPECT_EQ(add->InputNode(0)->type(), "TransData");
  EXPECT_EQ(flat->InputNode(0), add->InputNode(0));
  EXPECT_EQ(c2->InputNode(0), c1);
}

TEST_P(BlockedLayoutTest, DoesNotFireWithoutAConvOrWhereNobodyReadsTheLayout) {
  {
    TinyGraph t;  // no conv: nothing starts a laid-out region
    Use(t);
    Node* x = t.Data("x", F32({1, 16, 4, 4}));
    t.Output({t.Op("MaxPool", "pool", {t.Op("Relu", "relu", {x})}, {{"kernel_shape", std::vector<int64_t>{2, 2}}})});
    ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
    EXPECT_EQ(t.Count("TransData"), 0);
    for (Node* n : t.g().nodes())
      for (size_t i = 0; i < n->num_outputs(); ++i) EXPECT_EQ(n->output_desc(i).format, Format::kND) << n->name();
  }
  {
    TinyGraph t;  // a conv whose only reader is plain (or the graph output): it writes plain itself
    Use(t);
    Node* x = t.Data("x", F32({1, 16, 4, 4}));
    Node* c = ConvOf(t, x, "c", 16, 16, 0);
    Node* c2 = ConvOf(t, x, "c2", 16, 16, 1);
    t.Output({t.Op("Flatten", "flat", {c}), c2});
    ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
    EXPECT_EQ(t.Count("TransData"), 0);
    EXPECT_EQ(c->output_desc(0).format, Format::kND);
    EXPECT_EQ(c2->output_desc(0).format, Format::kND);
  }
}

TEST_P(BlockedLayoutTest, SameNumbersAsThePlainBuild) {
  TinyGraph t;
  Node* x = t.Data("x", F32({1, 16, 6, 6}));
  Node* c1 = ConvOf(t, x, "c1", 16, 16, 0);
  Node* c2 = ConvOf(t, c1, "c2", 16, 16, 1);
  Node* c3 = ConvOf(t, c1, "c3", 16, 16, 2);
  Node* cat = t.Op("Concat", "cat", {c2, c3}, {{"axis", int64_t{1}}});
  Node* pool = t.Op("AveragePool", "pool", {cat}, {{"kernel_shape", std::vector<int64_t>{2, 2}}});
  Node* res = t.Op("Add", "res", {pool, t.Op("MaxPool", "mp", {cat}, {{"kernel_shape", std::vector<int64_t>{2, 2}}})});
  t.Output({t.Op("Flatten", "flat", {res}), cat});
  const std::vector<Floats> in = {Iota(16 * 36, 0.1f, -0.5f)};
  auto laid = CompileAndRun(t.Clone(), in, {}, device_);
  ASSERT_TRUE(laid.ok()) << laid.status().ToString();
  auto plain = CompileAndRun(t.Clone(), in, {"blocked_layout"}, device_);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(plain->counts["TransData"], 0);
  EXPECT_GE(laid->counts["TransData"], 1);
  ASSERT_EQ(laid->outputs.size(), plain->outputs.size());
  for (size_t j = 0; j < laid->outputs.size(); ++j) {
    ASSERT_EQ(laid->outputs[j].size(), plain->outputs[j].size());
    for (size_t i = 0; i < laid->outputs[j].size(); ++i)
      EXPECT_NEAR(laid->outputs[j][i], plain->outputs[j][i], 1e-4f) << "output " << j << " element " << i;
  }
}

// A dynamic model's batch is unknown: its convolutions still take the
// layout, and the lowered model gives the plain model's numbers at any batch.
TEST_P(BlockedLayoutTest, AnUnknownBatchKeepsTheLayout) {
  TinyGraph t;
  Use(t);
  Node* x = t.Data("x", F32({-1, 16, 6, 6}));
  Node* c1 = ConvOf(t, x, "c1", 16, 16, 0);
  Node* relu = t.Op("Relu", "relu", {c1});
  Node* c2 = ConvOf(t, relu, "c2", 16, 16, 1);
  t.Output({c2});
  auto g = t.Clone();
  ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
  EXPECT_EQ(c1->output_desc(0).format, Laid());
  EXPECT_EQ(relu->output_desc(0).format, Laid());
  EXPECT_EQ(t.Count("TransData"), 0);  // the last conv writes plain for the output
  CompileOptions co;
  co.device = device_;
  auto laid = Compile(t.Clone(), co);
  co.disabled_passes = {"blocked_layout"};
  auto plain = Compile(std::move(g), co);
  ASSERT_TRUE(laid.ok() && plain.ok()) << laid.status().ToString();
  ASSERT_TRUE(laid->dynamic);
  auto a = LoadModel(*laid, LoadOptions{RunMode::kV2, device_});
  auto b = LoadModel(*plain, LoadOptions{RunMode::kV2, device_});
  ASSERT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  for (int64_t batch : {1, 3}) {
    const Floats in = Iota(static_cast<size_t>(batch * 16 * 36));
    std::vector<Tensor> oa, ob;
    const std::vector<TensorView> views = {{DataType::kFloat32, {batch, 16, 6, 6}, in.data()}};
    ASSERT_TRUE((*a)->ExecuteShaped(views, oa).ok());
    ASSERT_TRUE((*b)->ExecuteShaped(views, ob).ok());
    ASSERT_EQ(oa[0].desc().dims, (std::vector<int64_t>{batch, 16, 6, 6}));
    for (int64_t i = 0; i < oa[0].desc().NumElements(); ++i)
      EXPECT_NEAR(oa[0].as<float>()[i], ob[0].as<float>()[i], 1e-4f) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, BlockedLayoutTest, ::testing::Values(8, 16, hal::kChannelsLast),
                         [](const auto& info) {
                           return info.param < 0 ? std::string("channels_last") : "block" + std::to_string(info.param);
                         });

TEST(BlockedLayout, ChannelsTheBlockDoesNotDivideStayPlain) {
  TinyGraph t;
  t.device = LayoutDevice(8);
  Node* c1 = ConvOf(t, t.Data("x", F32({1, 12, 4, 4})), "c1", 12, 12, 0);
  Node* c2 = ConvOf(t, c1, "c2", 12, 12, 1);
  t.Output({c2});
  ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
  EXPECT_EQ(c1->output_desc(0).format, Format::kND);
  EXPECT_EQ(t.Count("TransData"), 0);
}

TEST(BlockedLayout, PlainDeviceChangesNothing) {
  TinyGraph t;
  t.device = LayoutDevice(0);
  Node* c1 = ConvOf(t, t.Data("x", F32({1, 16, 4, 4})), "c1", 16, 16, 0);
  t.Output({ConvOf(t, c1, "c2", 16, 16, 1)});
  ASSERT_TRUE(t.RunPass(BlockedLayoutPass()).ok());
  EXPECT_EQ(c1->output_desc(0).format, Format::kND);
  EXPECT_EQ(t.Count("TransData"), 0);
}

}  // namespace
}  // namespace ge::test
