// TF breadth, tranche 2, through the tools: a segmentation decoder (Conv2D,
// an atrous conv as TF 1.x writes it with SpaceToBatchND/BatchToSpaceND, an
// unfused batch norm, Conv2DBackpropInput, ResizeBilinear, ArgMax), a
// transformer block (BatchMatMulV2, Softmax, a SquaredDifference/Rsqrt layer
// norm, an Erf GELU, Square) and a mix of the shape and indexing ops, each
// converted with ge-atc --framework 3, run with ge-run in v2 and sink modes
// against numpy goldens from tf_breadth2_golden.py. ge-dump diff shows the
// atrous_conv and conv_mul_add_fold passes firing on the decoder.
#include <gtest/gtest.h>

#include "tests/e2e/tf_golden_fixture.h"

namespace ge::test {
namespace {

class TfBreadth2Test : public TfGoldenTest {
 protected:
  TfBreadth2Test() : TfGoldenTest("tf_breadth2_golden.py") {}
  TfGraph Decoder();
};

tf::NodeDef* Conv(TfGraph& g, const std::string& op, const std::string& name, std::initializer_list<std::string> in,
                  const char* padding, int64_t stride) {
  tf::NodeDef* n = g.Node(op, name, in);
  SetS(n, "padding", padding);
  SetList(n, "strides", {1, stride, stride, 1});
  return n;
}

TfGraph TfBreadth2Test::Decoder() {
  TfGraph g;
  g.Placeholder("x", {1, 8, 8, 3});
  ConstF(g, "w1", {3, 3, 3, 4}, Ramp(108, 0.05f, -0.5f, 5, 19));
  ConstF(g, "b1", {4}, {0.1f, -0.1f, 0.2f, 0.0f});
  Conv(g, "Conv2D", "conv1", {"x", "w1"}, "SAME", 1);
  g.Node("BiasAdd", "conv1/bias", {"conv1", "b1"});
  g.Node("Relu", "c1", {"conv1/bias"});
  // tf.nn.atrous_conv2d(rate=2, SAME) on 8x8: paddings 2 each side, no crops.
  ConstI(g, "block", {2}, {2, 2});
  ConstI(g, "paddings", {2, 2}, {2, 2, 2, 2});
  ConstI(g, "crops", {2, 2}, {0, 0, 0, 0});
  g.Node("SpaceToBatchND", "atrous/s2b", {"c1", "block", "paddings"});
  ConstF(g, "w2", {3, 3, 4, 4}, Ramp(144, 0.04f, -0.3f, 7, 17));
  Conv(g, "Conv2D", "atrous/conv", {"atrous/s2b", "w2"}, "VALID", 1);
  g.Node("BatchToSpaceND", "atrous/b2s", {"atrous/conv", "block", "crops"});
  // The batch norm as constant folding leaves tf.nn.batch_normalization.
  ConstF(g, "bn_scale", {4}, {1.2f, 0.8f, -0.5f, 1.0f});
  ConstF(g, "bn_shift", {4}, {0.05f, -0.2f, 0.1f, 0.3f});
  g.Node("Mul", "bn/mul", {"atrous/b2s", "bn_scale"});
  g.Node("AddV2", "bn/add", {"bn/mul", "bn_shift"});
  g.Node("Relu", "c2", {"bn/add"});
  ConstI(g, "up_size", {4}, {1, 16, 16, 3});
  ConstF(g, "w3", {3, 3, 3, 4}, Ramp(108, 0.06f, -0.6f, 11, 23));
  Conv(g, "Conv2DBackpropInput", "up", {"up_size", "w3", "c2"}, "SAME", 2);
  ConstF(g, "b3", {3}, {0.0f, 0.1f, -0.1f});
  g.Node("BiasAdd", "up/bias", {"up", "b3"});
  ConstI(g, "out_size", {2}, {32, 32});
  SetB(g.Node("ResizeBilinear", "logits", {"up/bias", "out_size"}), "half_pixel_centers", true);
  ConstI(g, "channel", {}, {3});
  g.Node("ArgMax", "labels", {"logits", "channel"});
  return g;
}

TEST_F(TfBreadth2Test, SegmentationDecoderMatchesNumpyAndFoldsTheAtrousConv) {
  TfGraph g = Decoder();
  Save("x", DataType::kFloat32, {1, 8, 8, 3}, Ramp(192, 0.1f, -1.0f));
  ConvertRunCompare(g, "decoder", {"x"}, {"logits", "labels"});

  ToolResult diff = Run("ge-dump", {"diff", "--model", Path("decoder.pb")});
  ASSERT_EQ(diff.exit_code, 0) << diff.Describe();
  EXPECT_NE(diff.out.find("pass atrous_conv: "), std::string::npos) << diff.out;
  EXPECT_EQ(diff.out.find("pass atrous_conv: no change"), std::string::npos) << diff.out;
  EXPECT_EQ(diff.out.find("pass conv_mul_add_fold: no change"), std::string::npos) << diff.out;
  ToolResult dump = Run("ge-dump", {"--model", Path("decoder.om")});
  ASSERT_EQ(dump.exit_code, 0) << dump.Describe();
  for (const char* gone : {"SpaceToBatchND", "BatchToSpaceND", "Mul="})
    EXPECT_EQ(dump.out.find(gone), std::string::npos) << gone << " left in\n" << dump.out;
  EXPECT_NE(dump.out.find("dilations=[2,2]"), std::string::npos) << dump.out;
}

TEST_F(TfBreadth2Test, TransformerBlockMatchesNumpy) {
  TfGraph g;
  g.Placeholder("x", {1, 4, 8});
  Save("x", DataType::kFloat32, {1, 4, 8}, Ramp(32, 0.15f, -1.2f, 5, 13));
  int seed = 3;
  for (const char* w : {"wq", "wk", "wv", "wo"}) ConstF(g, w, {8, 8}, Ramp(64, 0.04f, -0.35f, seed += 2, 19));
  ConstI(g, "heads", {4}, {1, 4, 2, 4});
  ConstI(g, "merged", {3}, {1, 4, 8});
  ConstI(g, "perm", {4}, {0, 2, 1, 3});
  for (const char* p : {"q", "k", "v"}) {
    const std::string s = p;
    g.Node("BatchMatMulV2", s, {"x", "w" + s});
    g.Node("Reshape", s + "/split", {s, "heads"});
    g.Node("Transpose", s + "/heads", {s + "/split", "perm"});
  }
  SetB(g.Node("BatchMatMulV2", "scores", {"q/heads", "k/heads"}), "adj_y", true);
  ConstF(g, "scale", {}, {0.5f});
  g.Node("Mul", "scaled", {"scores", "scale"});
  g.Node("Softmax", "probs", {"scaled"});
  g.Node("BatchMatMulV2", "ctx", {"probs", "v/heads"});
  g.Node("Transpose", "ctx/t", {"ctx", "perm"});
  g.Node("Reshape", "ctx/merged", {"ctx/t", "merged"});
  g.Node("BatchMatMulV2", "attn", {"ctx/merged", "wo"});
  g.Node("AddV2", "h", {"x", "attn"});
  // Layer norm as TF's moments + batch_normalization write it.
  ConstI(g, "last", {1}, {-1});
  SetB(g.Node("Mean", "ln/mean", {"h", "last"}), "keep_dims", true);
  g.Node("SquaredDifference", "ln/sqdiff", {"h", "ln/mean"});
  SetB(g.Node("Mean", "ln/var", {"ln/sqdiff", "last"}), "keep_dims", true);
  ConstF(g, "eps", {}, {1e-5f});
  g.Node("AddV2", "ln/var_eps", {"ln/var", "eps"});
  g.Node("Rsqrt", "ln/rstd", {"ln/var_eps"});
  g.Node("Sub", "ln/centered", {"h", "ln/mean"});
  g.Node("Mul", "ln/normed", {"ln/centered", "ln/rstd"});
  ConstF(g, "gamma", {8}, Ramp(8, 0.1f, 0.7f, 3, 7));
  ConstF(g, "beta", {8}, Ramp(8, 0.05f, -0.1f, 5, 7));
  g.Node("Mul", "ln/scaled", {"ln/normed", "gamma"});
  g.Node("AddV2", "ln", {"ln/scaled", "beta"});
  // FFN with the erf GELU: 0.5 * x * (1 + erf(x / sqrt(2))).
  ConstF(g, "w1", {8, 16}, Ramp(128, 0.03f, -0.3f, 7, 23));
  ConstF(g, "b1", {16}, Ramp(16, 0.02f, -0.1f, 3, 11));
  ConstF(g, "w2", {16, 8}, Ramp(128, 0.03f, -0.25f, 5, 19));
  ConstF(g, "b2", {8}, Ramp(8, 0.02f, -0.05f, 3, 5));
  ConstF(g, "inv_sqrt2", {}, {0.70710678f});
  ConstF(g, "one", {}, {1.0f});
  ConstF(g, "half", {}, {0.5f});
  g.Node("BatchMatMulV2", "ffn/in", {"ln", "w1"});
  g.Node("AddV2", "ffn/in_b", {"ffn/in", "b1"});
  g.Node("Mul", "gelu/scaled", {"ffn/in_b", "inv_sqrt2"});
  g.Node("Erf", "gelu/erf", {"gelu/scaled"});
  g.Node("AddV2", "gelu/one_plus", {"gelu/erf", "one"});
  g.Node("Mul", "gelu/x_times", {"ffn/in_b", "gelu/one_plus"});
  g.Node("Mul", "gelu", {"gelu/x_times", "half"});
  g.Node("BatchMatMulV2", "ffn/out", {"gelu", "w2"});
  g.Node("AddV2", "ffn/out_b", {"ffn/out", "b2"});
  g.Node("AddV2", "y", {"ln", "ffn/out_b"});
  g.Node("Square", "y2", {"y"});
  ConstI(g, "tokens_features", {2}, {1, 2});
  g.Node("Mean", "energy", {"y2", "tokens_features"});
  ConvertRunCompare(g, "transformer", {"x"}, {"y", "energy"});
}

TEST_F(TfBreadth2Test, ShapeAndIndexMixMatchesNumpy) {
  TfGraph g;
  g.Placeholder("x", {2, 3, 4});
  g.Placeholder("labels", {5}, tf::DT_INT32);
  Save("x", DataType::kFloat32, {2, 3, 4}, Ramp(24, 0.25f, -2.0f, 7, 17));
  Save("labels", DataType::kInt32, {5}, std::vector<int32_t>{0, 3, 1, 7, -1});
  ConstI(g, "axis2", {}, {2});
  auto* cs = g.Node("Cumsum", "cs", {"x", "axis2"});
  SetB(cs, "exclusive", true);
  ConstI(g, "axis1v", {1}, {1});
  g.Node("ReverseV2", "rv", {"x", "axis1v"});
  ConstI(g, "mult", {3}, {1, 1, 2});
  g.Node("Tile", "tiled", {"x", "mult"});
  ConstI(g, "begin", {3}, {0, 1, 2});
  ConstI(g, "size", {3}, {-1, 2, 4});
  g.Node("Slice", "sl", {"tiled", "begin", "size"});
  ConstI(g, "idx", {2}, {2, 0});
  ConstI(g, "axis1", {}, {1});
  g.Node("GatherV2", "gathered", {"x", "idx", "axis1"});
  g.Node("AddV2", "moved", {"sl", "gathered"});
  ConstI(g, "nd_idx", {3, 2}, {1, 2, 0, 0, 1, 0});
  g.Node("GatherNd", "nd", {"x", "nd_idx"});
  ConstI(g, "depth", {}, {4});
  ConstF(g, "on", {}, {2.0f});
  ConstF(g, "off", {}, {-0.5f});
  g.Node("OneHot", "hot", {"labels", "depth", "on", "off"});
  ConstI(g, "k", {}, {2});
  g.Node("TopKV2", "topk", {"x", "k"});
  ConstI(g, "size_splits", {2}, {1, -1});
  g.Node("SplitV", "parts", {"x", "size_splits", "axis2"});
  SetI(g.Node("Unpack", "rows", {"parts:1"}), "num", 2);
  g.Node("AddV2", "rows_sum", {"rows", "rows:1"});
  SetI(g.Node("Split", "thirds", {"axis1", "rv"}), "num_split", 3);
  ConstI(g, "dims", {3}, {2, 3, 4});
  ConstF(g, "half", {}, {0.5f});
  g.Node("Fill", "fill", {"dims", "half"});
  g.Node("ZerosLike", "zeros", {"x"});
  g.Node("OnesLike", "ones", {"x"});
  ConstF(g, "r0", {}, {0.0f});
  ConstF(g, "r1", {}, {2.0f});
  ConstF(g, "rd", {}, {0.5f});
  g.Node("Range", "range", {"r0", "r1", "rd"});
  g.Node("BroadcastTo", "ramp", {"range", "dims"});
  auto* sum = g.Node("AddN", "filled", {"cs", "rv", "fill", "zeros", "ones", "ramp"});
  SetI(sum, "N", 6);
  ConstF(g, "lo", {}, {-1.0f});
  ConstF(g, "hi", {}, {3.0f});
  g.Node("ClipByValue", "clipped", {"filled", "lo", "hi"});
  ConvertRunCompare(g, "shape_mix", {"x", "labels"},
                    {"moved", "nd", "hot", "topk:0", "topk:1", "rows_sum", "thirds:2", "clipped"});
}

}  // namespace
}  // namespace ge::test
