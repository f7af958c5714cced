// TF breadth, tranche 3, through the tools: a detection head
// (CropAndResize, NonMaxSuppressionV4/V5, Where, Unique, the segment sums,
// ScatterNd) whose shapes depend on the data, run in v2; and a video block
// (Conv3D, MaxPool3D, AvgPool3D, LRN, ResizeBicubic, ResizeArea, Einsum,
// GatherV2 with batch_dims, MatrixBandPart), static, run in v2 and sink.
// Each is converted with ge-atc --framework 3 and checked by ge-run against
// numpy goldens from tf_breadth3_golden.py.
#include <gtest/gtest.h>

#include "tests/e2e/tf_golden_fixture.h"

namespace ge::test {
namespace {

class TfBreadth3Test : public TfGoldenTest {
 protected:
  TfBreadth3Test() : TfGoldenTest("tf_breadth3_golden.py") {}
};

TEST_F(TfBreadth3Test, DetectionHeadMatchesNumpyInV2) {
  TfGraph g;
  g.Placeholder("image", {1, 6, 6, 2});
  Save("image", DataType::kFloat32, {1, 6, 6, 2}, Ramp(72, 0.07f, -0.6f, 11, 29));
  // Four boxes (y1, x1, y2, x2), one past the right edge, one flipped.
  ConstF(g, "boxes", {4, 4}, {0.0f, 0.0f, 0.5f, 0.5f, 0.1f, 0.1f, 0.6f, 0.6f, 0.5f, 0.6f, 1.0f, 1.2f, 1.0f, 0.9f, 0.3f, 0.2f});
  ConstI(g, "box_ind", {4}, {0, 0, 0, 0});
  ConstI(g, "crop_size", {2}, {3, 3});
  auto* crop = g.Node("CropAndResize", "crops", {"image", "boxes", "box_ind", "crop_size"});
  SetF(crop, "extrapolation_value", 0.25f);
  ConstI(g, "hw", {2}, {1, 2});
  g.Node("Mean", "crop_means", {"crops", "hw"});  // [4, 2]
  ConstI(g, "last", {1}, {1});
  g.Node("Mean", "scores", {"crop_means", "last"});  // [4]
  ConstI(g, "max_out", {}, {4});  // one box is suppressed: V4 pads one zero
  ConstF(g, "iou", {}, {0.3f});
  ConstF(g, "score_min", {}, {-10.0f});
  ConstF(g, "sigma", {}, {0.0f});
  SetB(g.Node("NonMaxSuppressionV4", "nms", {"boxes", "scores", "max_out", "iou", "score_min"}),
       "pad_to_max_output_size", true);
  g.Node("NonMaxSuppressionV5", "nms5", {"boxes", "scores", "max_out", "iou", "score_min", "sigma"});
  ConstF(g, "fg_min", {}, {0.0f});
  g.Node("Greater", "fg_mask", {"crop_means", "fg_min"});
  g.Node("Where", "fg", {"fg_mask"});
  ConstF(g, "bins", {}, {3.0f});
  g.Node("Mul", "scaled", {"scores", "bins"});
  g.Node("Floor", "binned", {"scaled"});
  g.Node("Unique", "uniq", {"binned"});
  ConstI(g, "num_segments", {}, {4});
  g.Node("UnsortedSegmentSum", "useg", {"crop_means", "uniq:1", "num_segments"});
  ConstI(g, "sorted_ids", {4}, {0, 0, 1, 3});
  g.Node("SegmentSum", "seg", {"crop_means", "sorted_ids"});
  ConstI(g, "minus_one", {}, {-1});
  g.Node("ExpandDims", "picked", {"nms5", "minus_one"});
  ConstI(g, "shape4", {1}, {4});
  g.Node("ScatterNd", "scatter", {"picked", "nms5:1", "shape4"});
  ConvertRunCompare(g, "detection", {"image"},
                    {"crops", "nms:0", "nms:1", "nms5:0", "nms5:1", "fg", "uniq:0", "uniq:1", "useg", "seg",
                     "scatter"},
                    {"v2"});
}

TEST_F(TfBreadth3Test, VideoBlockMatchesNumpyInBothModes) {
  TfGraph g;
  g.Placeholder("clip", {1, 4, 6, 6, 2});
  Save("clip", DataType::kFloat32, {1, 4, 6, 6, 2}, Ramp(288, 0.05f, -0.7f, 13, 31));
  ConstF(g, "w3", {3, 3, 3, 2, 4}, Ramp(216, 0.02f, -0.2f, 7, 23));
  auto* conv = g.Node("Conv3D", "conv", {"clip", "w3"});
  SetS(conv, "padding", "SAME");
  SetList(conv, "strides", {1, 1, 1, 1, 1});
  g.Node("Relu", "act", {"conv"});
  auto* mp = g.Node("MaxPool3D", "mp", {"act"});
  SetS(mp, "padding", "VALID");
  SetList(mp, "ksize", {1, 2, 2, 2, 1});
  SetList(mp, "strides", {1, 2, 2, 2, 1});
  auto* ap = g.Node("AvgPool3D", "pooled", {"mp"});  // [1, 2, 3, 3, 4]
  SetS(ap, "padding", "SAME");
  SetList(ap, "ksize", {1, 1, 3, 3, 1});
  SetList(ap, "strides", {1, 1, 1, 1, 1});
  ConstI(g, "frames_shape", {4}, {2, 3, 3, 4});
  g.Node("Reshape", "frames", {"pooled", "frames_shape"});
  auto* lrn = g.Node("LRN", "normed", {"frames"});
  SetI(lrn, "depth_radius", 1);
  SetF(lrn, "alpha", 0.5f);
  SetF(lrn, "beta", 0.75f);
  ConstI(g, "up_size", {2}, {5, 5});
  SetB(g.Node("ResizeBicubic", "up", {"normed", "up_size"}), "half_pixel_centers", true);
  ConstI(g, "down_size", {2}, {2, 2});
  g.Node("ResizeArea", "area", {"normed", "down_size"});
  ConstF(g, "proj_w", {4, 3}, Ramp(12, 0.1f, -0.5f, 5, 11));
  SetS(g.Node("Einsum", "proj", {"up", "proj_w"}), "equation", "nhwc,cd->nhwd");
  ConstI(g, "tokens_shape", {3}, {2, 25, 3});
  g.Node("Reshape", "tokens", {"proj", "tokens_shape"});
  ConstI(g, "token_idx", {2, 4}, {0, 24, 12, 7, 3, 3, 20, 11});
  ConstI(g, "axis1", {}, {1});
  SetI(g.Node("GatherV2", "picked", {"tokens", "token_idx", "axis1"}), "batch_dims", 1);
  SetB(g.Node("BatchMatMulV2", "gram", {"picked", "picked"}), "adj_y", true);
  ConstI(g, "one", {}, {1});
  ConstI(g, "zero", {}, {0});
  g.Node("MatrixBandPart", "band", {"gram", "one", "zero"});
  ConvertRunCompare(g, "video", {"clip"}, {"pooled", "up", "area", "picked", "band"});
}

// Special functions TF graphs use, with TF's edge cases: Expm1 and Log1p
// near 0 (where Exp - 1 and Log(1 + x) lose every digit), Erfc in the tail,
// and Xlogy / Xdivy giving 0 wherever x is 0, even for y = 0.
TEST_F(TfBreadth3Test, SpecialFunctionsMatchNumpyInBothModes) {
  TfGraph g;
  g.Placeholder("x", {8});
  Save("x", DataType::kFloat32, {8}, std::vector<float>{0.0f, 1e-6f, -1e-6f, 0.5f, -0.5f, 2.0f, 3.5f, -3.0f});
  ConstF(g, "y", {8}, {0.0f, 2.0f, 0.5f, 1.5f, 3.0f, 0.25f, 4.0f, 2.0f});
  g.Node("Expm1", "expm1", {"x"});
  g.Node("Abs", "ax", {"x"});
  g.Node("Log1p", "log1p", {"ax"});
  g.Node("Erfc", "erfc", {"x"});
  g.Node("Xlogy", "xlogy", {"x", "y"});
  g.Node("Xdivy", "xdivy", {"x", "y"});
  ConvertRunCompare(g, "special", {"x"}, {"expm1", "log1p", "erfc", "xlogy", "xdivy"});
}

}  // namespace
}  // namespace ge::test
