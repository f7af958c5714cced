// conv_winograd end to end on resnet18 (its 3x3 stride-1 convs): ge-dump
// --track shows the pass marking a layer1 conv (and not the strided one),
// the .om ge-atc writes passes --compare against the golden in sink and v2,
// and ge-run's kernels run oneDNN's Winograd on weights transformed ahead
// (stored in the .om). Where Winograd reads another layout than the direct
// convs prefer (AVX-512), resnet18 (mostly Winograd) is laid out in it and no
// conv reorders anything. On a CPU without Winograd nothing is marked.
// Skipped when GE_MODELS_DIR lacks the model.
#include <cstdlib>

#include "hal/device.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

bool CpuHasWinograd() {
  auto d = hal::GetDevice("");
  return d.ok() && (*d)->capabilities().winograd_conv;
}

// Winograd's layout is not the one the direct convs prefer.
bool WinogradHasItsOwnLayout() {
  auto d = hal::GetDevice("");
  if (!d.ok()) return false;
  const hal::Capabilities& c = (*d)->capabilities();
  return c.winograd_channel_block > 0 && c.winograd_channel_block != c.channel_block;
}

class ConvWinogradE2e : public ReferenceModelFixture {
 protected:
  ConvWinogradE2e() : ReferenceModelFixture("resnet18") {}

  // ge-atc, then ge-run with GE_KERNEL_VERBOSE: the kernels' log lines.
  std::string KernelLog() {
    ToolResult atc = Run("ge-atc", {"--model", model_, "--framework", "5", "--output", Path("r18")});
    EXPECT_EQ(atc.exit_code, 0) << atc.Describe();
    ::setenv("GE_KERNEL_VERBOSE", "1", 1);
    ToolResult r = Run("ge-run", {"--model", Path("r18.om"), "--input", input_});
    ::unsetenv("GE_KERNEL_VERBOSE");
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return r.err;
  }

  // Of the kernel log's lines holding `line_has`: how many, and how many of
  // those also hold `also_has`.
  static std::pair<int, int> CountLines(const std::string& log, const char* line_has, const char* also_has) {
    int lines = 0, also = 0;
    for (const std::string& l : SplitLines(log)) {
      if (l.find(line_has) == std::string::npos) continue;
      ++lines;
      also += l.find(also_has) != std::string::npos;
    }
    return {lines, also};
  }

  // The line of `ge-dump diff --track node` for conv_winograd ("" if none).
  std::string TrackLine(const std::string& node) {
    ToolResult r = Run("ge-dump", {"diff", "--model", model_, "--track", node});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    for (const std::string& l : SplitLines(r.out))
      if (l.find("conv_winograd") != std::string::npos) return l;
    return "";
  }
};

TEST_F(ConvWinogradE2e, TrackShowsTheStride1ConvsMarked) {
  const std::string layer1 = TrackLine("/layer1/layer1.0/conv1/Conv");
  const std::string strided = TrackLine("/layer2/layer2.0/conv1/Conv");
  EXPECT_EQ(strided.find("conv_algorithm"), std::string::npos) << strided;
  if (!CpuHasWinograd()) {
    EXPECT_EQ(layer1.find("conv_algorithm"), std::string::npos) << layer1;
    GTEST_SKIP() << "this CPU has no Winograd convolution (oneDNN: AVX-512 only); checked that nothing is marked";
  }
  EXPECT_NE(layer1.find("conv_algorithm added"), std::string::npos) << layer1;
}

TEST_F(ConvWinogradE2e, MarkedModelMatchesTheGoldenInSinkAndV2) { ExpectGoldenInSinkAndV2("resnet18"); }

TEST_F(ConvWinogradE2e, KernelsRunWinogradOnWeightsPackedAhead) {
  if (!CpuHasWinograd()) GTEST_SKIP() << "this CPU has no Winograd convolution (oneDNN: AVX-512 only)";
  const std::string err = KernelLog();
  const auto [wino, wino_packed_ahead] = CountLines(err, "wino", "weights:packed-ahead");
  // layer1: 4 convs at 56x56; layer2: 3 of 4 (one is strided) at 28x28;
  // layer4's 3 stride-1 convs at 7x7 with 512 channels. layer3's at 14x14
  // (256 channels) also qualify: 13 in all.
  EXPECT_EQ(wino, 13) << err;
  EXPECT_EQ(wino_packed_ahead, wino) << err;
}

TEST_F(ConvWinogradE2e, MostlyWinogradModelRunsInItsLayoutWithoutReorders) {
  if (!WinogradHasItsOwnLayout())
    GTEST_SKIP() << "Winograd reads the layout the direct convs prefer here (or there is none): nothing to choose";
  const std::string err = KernelLog();
  const auto [convs, reordered] = CountLines(err, " conv: ", "reordered");
  EXPECT_EQ(convs, 20) << err;  // the stem, 16 in the blocks, 3 downsamples
  EXPECT_EQ(reordered, 0) << err;
}

}  // namespace
}  // namespace ge::test
