// concat_conv_split end to end on squeezenet1_1 (8 fire modules, each
// ending in a channel Concat read by the next squeeze conv, twice through a
// MaxPool): ge-dump shows no Concat left (8 with --disable_pass), the split
// convs are found by name, and the .om ge-atc writes still passes --compare
// against the golden in sink and v2 modes. Skipped when GE_MODELS_DIR lacks
// the model.
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

class ConcatConvSplitE2e : public ReferenceModelFixture {
 protected:
  ConcatConvSplitE2e() : ReferenceModelFixture("squeezenet1_1") {}
};

TEST_F(ConcatConvSplitE2e, DumpShowsNoConcatUnlessDisabled) {
  const std::string on = DumpOpCounts({});
  EXPECT_EQ(on.find(" Concat="), std::string::npos) << on;
  EXPECT_NE(on.find(" Conv=34 "), std::string::npos) << on << "(26 + one more per split squeeze conv)";
  EXPECT_NE(on.find(" MaxPool=5 "), std::string::npos) << on << "(3 + the 2 pushed through a Concat)";
  const std::string off = DumpOpCounts({"--disable_pass", "concat_conv_split"});
  EXPECT_NE(off.find(" Concat=8 "), std::string::npos) << off;
  EXPECT_NE(off.find(" Conv=26 "), std::string::npos) << off;
}

// The partial convs are named after the conv they replace: --track finds
// them, added by this pass and given the sum and the Relu by conv_post_ops.
TEST_F(ConcatConvSplitE2e, TrackFollowsAPartialConvByItsName) {
  ToolResult r = Run("ge-dump", {"diff", "--model", model_, "--track", "/features/features.4/squeeze/Conv_split0"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  bool added = false, fused = false;
  for (const std::string& l : SplitLines(r.out)) {
    if (l.find("concat_conv_split") != std::string::npos) added = l.find("added") != std::string::npos;
    if (l.find("conv_post_ops") != std::string::npos)
      fused = l.find("fused_sum added") != std::string::npos && l.find("activation added") != std::string::npos;
  }
  EXPECT_TRUE(added) << r.out;
  EXPECT_TRUE(fused) << r.out;
}

TEST_F(ConcatConvSplitE2e, SplitModelMatchesTheGoldenInSinkAndV2) { ExpectGoldenInSinkAndV2("squeezenet"); }

}  // namespace
}  // namespace ge::test
