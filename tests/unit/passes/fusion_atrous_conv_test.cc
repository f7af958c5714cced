// atrous_conv on tiny graphs: SpaceToBatchND → Conv → BatchToSpaceND as TF
// builds a dilated conv becomes one Conv with dilations and pads; the
// numbers match the unfused graph (which runs the SpaceToBatchND and
// BatchToSpaceND kernels). Mismatched blocks, a strided or padded inner conv,
// or crops beyond the pads keep the pattern.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

using I = std::vector<int64_t>;

// x [1,2,h,w] -> SpaceToBatchND(block, pads) -> Conv 3x3 -> BatchToSpaceND(block2, crops)
struct Atrous {
  Tiny t;
  Node *x, *s2b, *conv, *b2s;
  Atrous(int64_t h, int64_t w, I block, I pads, I crops, I block2 = {}, std::vector<std::pair<std::string, AttrValue>> conv_attrs = {}) {
    x = t.Data("x", F32({1, 2, h, w}));
    s2b = t.Op("SpaceToBatchND", "s2b", {x}, {{"block_shape", block}, {"pads", pads}});
    conv = t.Op("Conv", "conv", {s2b, t.Const("w", F32s({3, 2, 3, 3}, Pseudo(54, 0.1f, -0.5f))),
                                 t.Const("b", F32s({3}, {0.1f, -0.2f, 0.3f}))}, std::move(conv_attrs));
    b2s = t.Op("BatchToSpaceND", "b2s", {conv}, {{"block_shape", block2.empty() ? block : block2}, {"crops", crops}});
  }
};

// TF's SAME atrous conv of a 7x8 input, rate 2: pads (2,3)x(2,2), crops (0,1)x(0,0).
TEST(FusionAtrousConv, BecomesOneDilatedConv) {
  Atrous a(7, 8, {2, 2}, {2, 2, 3, 2}, {0, 0, 1, 0});
  a.t.Output({a.b2s});
  ASSERT_TRUE(a.t.Infer().ok());
  ASSERT_TRUE(a.t.RunPass(AtrousConvPass()).ok());
  EXPECT_EQ(a.t.Count("SpaceToBatchND"), 0);
  EXPECT_EQ(a.t.Count("BatchToSpaceND"), 0);
  EXPECT_EQ(a.conv->GetInts("dilations"), (I{2, 2}));
  EXPECT_EQ(a.conv->GetInts("pads"), (I{2, 2, 2, 2}));
  EXPECT_EQ(a.conv->output_desc(0).dims, (I{1, 3, 7, 8}));
  Atrous b(7, 8, {2, 2}, {2, 2, 3, 2}, {0, 0, 1, 0});
  b.t.Output({b.b2s});
  auto counts = ExpectSameNumerics(b.t, {Pseudo(112, 0.2f, -1.f)});
  EXPECT_EQ(counts["SpaceToBatchND"], 0);
  EXPECT_EQ(counts["Conv"], 1);
}

TEST(FusionAtrousConv, ValidAtrousWithDifferentRatesPerAxis) {
  Atrous a(9, 8, {3, 2}, {0, 0, 0, 0}, {0, 0, 0, 0});
  a.t.Output({a.b2s});
  auto counts = ExpectSameNumerics(a.t, {Pseudo(144, 0.2f, -1.f)});
  EXPECT_EQ(counts["BatchToSpaceND"], 0);
}

TEST(FusionAtrousConv, NotWithDifferentBlocks) {
  Atrous a(8, 8, {2, 2}, {2, 2, 2, 2}, {0, 0, 0, 0}, {2, 1});
  a.t.Output({a.b2s});
  ASSERT_TRUE(a.t.RunPass(AtrousConvPass()).ok());
  EXPECT_EQ(a.t.Count("SpaceToBatchND"), 1);
  EXPECT_EQ(a.t.Count("BatchToSpaceND"), 1);
}

TEST(FusionAtrousConv, NotWithAStridedOrPaddedInnerConv) {
  for (auto attrs : {std::vector<std::pair<std::string, AttrValue>>{{"strides", I{2, 2}}},
                     std::vector<std::pair<std::string, AttrValue>>{{"pads", I{1, 1, 1, 1}}}}) {
    Atrous a(8, 8, {2, 2}, {2, 2, 2, 2}, {0, 0, 0, 0}, {}, attrs);
    a.t.Output({a.b2s});
    ASSERT_TRUE(a.t.RunPass(AtrousConvPass()).ok());
    EXPECT_EQ(a.t.Count("SpaceToBatchND"), 1);
  }
}

TEST(FusionAtrousConv, NotWhenCropsExceedThePads) {
  Atrous a(8, 8, {2, 2}, {0, 0, 0, 0}, {2, 2, 0, 0});
  a.t.Output({a.b2s});
  ASSERT_TRUE(a.t.RunPass(AtrousConvPass()).ok());
  EXPECT_EQ(a.t.Count("SpaceToBatchND"), 1);
  auto counts = ExpectSameNumerics(a.t, {Pseudo(128, 0.2f, -1.f)});
  EXPECT_EQ(counts["SpaceToBatchND"], 1);
}

TEST(FusionAtrousConv, NotWhenTheConvOutputHasASecondConsumer) {
  Atrous a(8, 8, {2, 2}, {2, 2, 2, 2}, {0, 0, 0, 0});
  a.t.Output({a.b2s, a.t.Op("Relu", "r", {a.conv})});
  ASSERT_TRUE(a.t.RunPass(AtrousConvPass()).ok());
  EXPECT_EQ(a.t.Count("BatchToSpaceND"), 1);
}

}  // namespace
}  // namespace ge::fusion_test
