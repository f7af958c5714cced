// attention_fusion end to end on bert_encoder (4 layers of
// nn.MultiheadAttention): ge-dump shows one FusedAttention per layer and no
// Softmax left (none with --disable_pass), and the .om ge-atc writes still
// passes --compare against the golden in sink and v2 modes. Skipped when
// GE_MODELS_DIR lacks the model.
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

class AttentionFusionE2e : public ReferenceModelFixture {
 protected:
  AttentionFusionE2e() : ReferenceModelFixture("bert_encoder") {}
};

TEST_F(AttentionFusionE2e, DumpShowsOneFusedAttentionPerLayerUnlessDisabled) {
  const std::string on = DumpOpCounts({});
  EXPECT_NE(on.find(" FusedAttention=4 "), std::string::npos) << on;
  EXPECT_EQ(on.find(" Softmax="), std::string::npos) << on;
  EXPECT_EQ(on.find(" MatMul="), std::string::npos) << on;
  const std::string off = DumpOpCounts({"--disable_pass", "attention_fusion"});
  EXPECT_EQ(off.find("FusedAttention"), std::string::npos) << off;
  EXPECT_NE(off.find(" Softmax=4 "), std::string::npos) << off;
}

TEST_F(AttentionFusionE2e, FusedModelMatchesTheGoldenInSinkAndV2) { ExpectGoldenInSinkAndV2("bert"); }

}  // namespace
}  // namespace ge::test
