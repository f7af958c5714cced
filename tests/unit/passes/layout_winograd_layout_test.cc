// blocked_layout's choice of layout for a whole model: on a device whose
// direct convs prefer one layout (channels-last) and whose Winograd convs read
// another (nChw16c), a model whose Winograd convs do at least 30 % of its conv
// FLOPs, and whose conv outputs all fit the Winograd layout, is laid out in
// it; any other in the device's; another target keeps its own. The convs are
// marked by hand, so this runs on any CPU.
#include "compiler/passes/layout_passes.h"
#include "pass_test_util.h"
#include "tests/common/device_overlay.h"

namespace ge::test {
namespace {

// Channels-last for direct convs, Winograd in nChw16c: AVX-512's answers.
std::string WinogradDevice(int32_t winograd_block) {
  return RegisterOverlay("cpu_wino_layout" + std::to_string(winograd_block), [winograd_block](DeviceOverlay& d) {
    d.caps().channel_block = hal::kChannelsLast;
    d.caps().winograd_conv = winograd_block > 0;
    d.caps().winograd_channel_block = winograd_block;
  });
}

// x [1, 16, 8, 8] → one conv per entry in a chain (k: 3 or 1; oc: its output
// channels; winograd: the conv_winograd mark) → output.
struct Chain {
  TinyGraph t;
  std::vector<Node*> convs;
};

struct ConvSpec {
  int64_t k = 3, oc = 16;
  bool winograd = true;
};

std::unique_ptr<Chain> Build(const std::string& device, const std::vector<ConvSpec>& specs) {
  auto c = std::make_unique<Chain>();
  TinyGraph& t = c->t;
  t.device = device;
  Node* x = t.Data("x", F32({1, 16, 8, 8}));
  int64_t ic = 16;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string id = std::to_string(i);
    const int64_t k = specs[i].k, oc = specs[i].oc, wn = oc * ic * k * k, pad = k / 2;
    std::vector<std::pair<std::string, AttrValue>> attrs = {{"pads", std::vector<int64_t>{pad, pad, pad, pad}}};
    if (specs[i].winograd) attrs.emplace_back("conv_algorithm", std::string("winograd"));
    x = t.Op("Conv", "conv" + id, {x, t.Const("w" + id, F32s({oc, ic, k, k}, Iota(wn, 1.0f / wn, -0.5f)))}, attrs);
    c->convs.push_back(x);
    ic = oc;
  }
  t.Output({x});
  return c;
}

// Every conv but the last, whose output only the graph output reads (plain).
void ExpectLaidOut(const Chain& c, int32_t block) {
  for (size_t i = 0; i + 1 < c.convs.size(); ++i)
    EXPECT_EQ(c.convs[i]->output_desc(0).format, ChannelBlockedFormat(block)) << c.convs[i]->name();
}

TEST(WinogradLayoutTest, AModelWithEnoughWinogradTakesItsLayout) {
  // 1 of 3 equal 3x3 convs is Winograd: 33 % of the FLOPs (ResNet-50: 37 %).
  auto c = Build(WinogradDevice(16), {{.winograd = false}, {}, {.winograd = false}});
  ASSERT_TRUE(c->t.RunPass(BlockedLayoutPass()).ok());
  ExpectLaidOut(*c, 16);
  EXPECT_EQ(c->t.Count("TransData"), 0);  // nothing between the convs
}

TEST(WinogradLayoutTest, LessWinogradKeepsTheDevicesLayout) {
  // 1 of 4 equal 3x3 convs: 25 % (DenseNet-121: 24 %).
  auto c = Build(WinogradDevice(16), {{}, {.winograd = false}, {.winograd = false}, {.winograd = false}});
  ASSERT_TRUE(c->t.RunPass(BlockedLayoutPass()).ok());
  ExpectLaidOut(*c, hal::kChannelsLast);
}

TEST(WinogradLayoutTest, AConvOutputThatDoesNotFitKeepsTheDevicesLayout) {
  // All Winograd, but one conv writes 24 channels, which nChw16c does not
  // divide (GoogLeNet has such convs): the layout would change there.
  auto c = Build(WinogradDevice(16), {{}, {.oc = 24}, {}});
  ASSERT_TRUE(c->t.RunPass(BlockedLayoutPass()).ok());
  ExpectLaidOut(*c, hal::kChannelsLast);
}

TEST(WinogradLayoutTest, NoWinogradLayoutOnTheDeviceKeepsItsOwn) {
  auto c = Build(WinogradDevice(0), {{}, {}});
  ASSERT_TRUE(c->t.RunPass(BlockedLayoutPass()).ok());
  ExpectLaidOut(*c, hal::kChannelsLast);
}

TEST(WinogradLayoutTest, AnotherTargetKeepsTheTargetsLayout) {
  // --soc_version names an nChw8c CPU: this device's Winograd is not its.
  auto c = Build(WinogradDevice(16), {{}, {}});
  c->t.options.channel_block = 8;
  ASSERT_TRUE(c->t.RunPass(BlockedLayoutPass()).ok());
  ExpectLaidOut(*c, 8);
}

TEST(WinogradLayoutTest, NumbersMatchTheDevicesLayout) {
  // The same chain compiled and run in the Winograd layout and with
  // blocked_layout off: the direct 1x1 runs on the declared nChw16c too.
  const Floats x = Iota(16 * 8 * 8, 1.0f / 500, -0.5f);
  auto laid = CompileAndRun(Build(WinogradDevice(16), {{}, {}, {.k = 1, .winograd = false}})->t.Clone(), {x}, {},
                            WinogradDevice(16));
  ASSERT_TRUE(laid.ok()) << laid.status().ToString();
  auto plain = CompileAndRun(Build(WinogradDevice(16), {{}, {}, {.k = 1, .winograd = false}})->t.Clone(), {x},
                             {"blocked_layout"}, WinogradDevice(16));
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  ASSERT_EQ(laid->outputs[0].size(), plain->outputs[0].size());
  for (size_t i = 0; i < laid->outputs[0].size(); ++i)
    ASSERT_NEAR(laid->outputs[0][i], plain->outputs[0][i], 1e-4f * std::max(1.0f, std::abs(plain->outputs[0][i])))
        << i;
  EXPECT_EQ(laid->counts["TransData"], 0);
}

}  // namespace
}  // namespace ge::test
