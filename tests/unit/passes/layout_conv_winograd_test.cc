// conv_winograd on tiny graphs: the f32 3x3 stride-1 convolutions whose shape
// pays for Winograd are marked "conv_algorithm" = "winograd" (on a CPU that
// has the algorithm), every other conv is left as it is; the outputs match the
// direct convolution's; a compiled model carries the transformed weights.
#include "compiler/passes/layout_passes.h"
#include "ge/ops/kernel_spec.h"
#include "hal/device.h"
#include "pass_test_util.h"

namespace ge::test {
namespace {

bool CpuHasWinograd() {
  auto dev = hal::GetDevice("");
  return dev.ok() && (*dev)->capabilities().winograd_conv;
}
// A CPU without Winograd checks that nothing is marked, then the ctest
// summary says the Winograd path was skipped here.
constexpr const char* kNoWinogradChecked =
    "this CPU has no Winograd convolution (oneDNN: AVX-512 only); checked that nothing is marked";

struct ConvShape {
  int64_t ic = 64, oc = 64, hw = 56, k = 3, stride = 1, dilation = 1, group = 1, pad = 1;
};

// x [1, ic, hw, hw] → Conv (one per shape, each on its own input) → outputs.
struct Convs {
  TinyGraph t;
  std::vector<Node*> convs;
};

std::unique_ptr<Convs> Build(const std::vector<ConvShape>& shapes) {
  auto c = std::make_unique<Convs>();
  TinyGraph& t = c->t;
  std::vector<Node*> outs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const ConvShape& s = shapes[i];
    const std::string id = std::to_string(i);
    Node* x = t.Data("x" + id, F32({1, s.ic, s.hw, s.hw}));
    const int64_t wn = s.oc * (s.ic / s.group) * s.k * s.k;
    Node* conv = t.Op("Conv", "conv" + id,
                      {x, t.Const("w" + id, F32s({s.oc, s.ic / s.group, s.k, s.k}, Iota(wn, 1.0f / wn, -0.5f))),
                       t.Const("b" + id, F32s({s.oc}, Iota(s.oc, 0.01f, -0.2f)))},
                      {{"pads", std::vector<int64_t>{s.pad, s.pad, s.pad, s.pad}},
                       {"strides", std::vector<int64_t>{s.stride, s.stride}},
                       {"dilations", std::vector<int64_t>{s.dilation, s.dilation}},
                       {"group", s.group}});
    c->convs.push_back(conv);
    outs.push_back(conv);
  }
  t.Output(outs);
  return c;
}

bool Winograd(const Node* n) { return n->GetString("conv_algorithm", "") == "winograd"; }

TEST(ConvWinogradTest, MarksTheConvsWhereItPays) {
  // 64 -> 64 at 56x56 (ResNet's layer1), 128 -> 128 at 28x28, 512 -> 512 at 7x7.
  auto c = Build({{}, {.ic = 128, .oc = 128, .hw = 28}, {.ic = 512, .oc = 512, .hw = 7}});
  ASSERT_TRUE(c->t.RunPass(ConvWinogradPass()).ok());
  for (Node* n : c->convs) {
    if (CpuHasWinograd())
      EXPECT_TRUE(Winograd(n)) << n->name();
    else
      EXPECT_FALSE(n->HasAttr("conv_algorithm")) << n->name() << ": this CPU has no Winograd convolution";
  }
  if (!CpuHasWinograd()) GTEST_SKIP() << kNoWinogradChecked;
}

TEST(ConvWinogradTest, LeavesTheOthersDirect) {
  auto c = Build({
      {.stride = 2},                          // strided
      {.k = 1, .pad = 0},                     // 1x1
      {.k = 5, .pad = 2},                     // 5x5
      {.dilation = 2, .pad = 2},              // dilated
      {.group = 2},                           // grouped
      {.pad = 2},                             // a pad Winograd's kernels do not take
      {.ic = 16, .oc = 16},                   // too little work per activation moved
      {.ic = 128, .oc = 32, .hw = 28},        // the same, at 28x28
      {.ic = 128, .oc = 256, .hw = 14},       // 14x14 pays only from 256 -> 256
      {.ic = 256, .oc = 256, .hw = 7},        // 7x7 only from 512 -> 512
  });
  ASSERT_TRUE(c->t.RunPass(ConvWinogradPass()).ok());
  for (Node* n : c->convs) EXPECT_FALSE(n->HasAttr("conv_algorithm")) << n->name();
}

TEST(ConvWinogradTest, NothingForAnotherTarget) {
  auto c = Build({{}});
  auto dev = hal::GetDevice("");
  ASSERT_TRUE(dev.ok());
  c->t.options.channel_block = (*dev)->capabilities().channel_block == 8 ? 16 : 8;
  ASSERT_TRUE(c->t.RunPass(ConvWinogradPass()).ok());
  EXPECT_FALSE(c->convs[0]->HasAttr("conv_algorithm"));
}

TEST(ConvWinogradTest, OutputsMatchTheDirectConvolution) {
  // A residual block: conv -> relu -> conv + x -> relu, so conv_post_ops
  // fuses the sum and the activations into the Winograd convs too.
  auto build = [] {
    auto t = std::make_unique<TinyGraph>();
    const int64_t c = 64, hw = 28, wn = c * c * 9;
    Node* x = t->Data("x", F32({1, c, hw, hw}));
    Node* c1 = t->Op("Conv", "c1", {x, t->Const("w1", F32s({c, c, 3, 3}, Iota(wn, 1.0f / wn, -0.5f)))},
                     {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    Node* r1 = t->Op("Relu", "r1", {c1});
    Node* c2 = t->Op("Conv", "c2", {r1, t->Const("w2", F32s({c, c, 3, 3}, Iota(wn, -0.7f / wn, 0.35f)))},
                     {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    Node* add = t->Op("Add", "add", {c2, x});
    t->Output({t->Op("Relu", "r2", {add})});
    return t;
  };
  const Floats x = Iota(64 * 28 * 28, 1.0f / 5000, -0.5f);
  auto on = CompileAndRun(build()->Clone(), {x});
  ASSERT_TRUE(on.ok()) << on.status().ToString();
  auto off = CompileAndRun(build()->Clone(), {x}, {"conv_winograd"});
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  ASSERT_EQ(on->outputs[0].size(), off->outputs[0].size());
  for (size_t i = 0; i < on->outputs[0].size(); ++i)
    ASSERT_NEAR(on->outputs[0][i], off->outputs[0][i], 1e-4f * std::max(1.0f, std::abs(off->outputs[0][i]))) << i;

  int marked_on = 0, marked_off = 0, packed = 0;
  for (Node* n : on->model.graph->nodes()) {
    if (!Winograd(n)) continue;
    ++marked_on;
    EXPECT_EQ(n->GetInt("fused_sum", 0) + (n->HasAttr("activation") ? 1 : 0) > 0, true) << n->name();
    packed += n->GetTensor(PackedInputAttr(1)) != nullptr;  // the transformed weights are in the model
  }
  for (Node* n : off->model.graph->nodes()) marked_off += Winograd(n);
  EXPECT_EQ(marked_on, CpuHasWinograd() ? 2 : 0);
  EXPECT_EQ(packed, marked_on);
  EXPECT_EQ(marked_off, 0);
  if (!CpuHasWinograd()) GTEST_SKIP() << kNoWinogradChecked;
}

}  // namespace
}  // namespace ge::test
