// The detection and data-dependent mappers (tf_ops_detection.cc,
// tf_ops_scatter.cc): NonMaxSuppression V1-V5, CropAndResize, Where, Unique,
// ScatterNd, TensorScatter*, the segment reductions, compiled and run
// against values worked out from TensorFlow's op documentation.
#include <limits>

#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

using I64 = std::vector<int64_t>;

// Boxes 0/1 and 2/3 overlap with IoU 0.9 / 1.1 > 0.5; box 5 is box 0 with
// its corners swapped. Best first: 3 (.95), 0 (.9), 1 (.75, under 0),
// 2 (.6, under 3), 5 (.5, under 0), 4 (.3).
TfGraph NmsGraph(const std::string& op, int version) {
  TfGraph g;
  g.ConstF("boxes", {6, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 20, 1, 21, 1, 1, 0, 0});
  g.Placeholder("scores", {6});
  g.ConstI32("max", {}, {4});
  g.ConstF("iou", {}, {0.5f});
  g.ConstF("score_min", {}, {0.4f});
  g.ConstF("sigma", {}, {0.f});
  std::vector<std::string> in = {"boxes", "scores", "max", "iou", "score_min", "sigma"};
  tf::NodeDef* n = g.Node(op, "nms");
  for (int i = 0; i < (version == 5 ? 6 : version == 2 ? 4 : 5); ++i) n->add_input(in[static_cast<size_t>(i)]);
  return g;
}

const Floats kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.3f, 0.5f};

TEST(TfDetectionOps, NonMaxSuppressionV2AndV3) {
  {
    TfGraph g = NmsGraph("NonMaxSuppressionV2", 2);  // no score threshold: box 4 too
    auto r = RunTf(g, {Host<float>({6}, kScores)});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ((*r)[0].as<int32_t>(), (I32{3, 0, 4}));
  }
  TfGraph g = NmsGraph("NonMaxSuppressionV3", 3);
  auto r = RunTf(g, {Host<float>({6}, kScores)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{2}));
  EXPECT_EQ((*r)[0].as<int32_t>(), (I32{3, 0}));
}

TEST(TfDetectionOps, NonMaxSuppressionV4PadsAndCounts) {
  TfGraph g = NmsGraph("NonMaxSuppressionV4", 4);
  SetB(g.def().mutable_node(g.def().node_size() - 1), "pad_to_max_output_size", true);
  auto r = RunTf(g, {Host<float>({6}, kScores)}, Outs({"nms:0", "nms:1"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{4}));
  EXPECT_EQ((*r)[0].as<int32_t>(), (I32{3, 0, 0, 0}));
  EXPECT_EQ((*r)[1].dims, (Ints{}));
  EXPECT_EQ((*r)[1].as<int32_t>(), (I32{2}));
}

TEST(TfDetectionOps, NonMaxSuppressionV5ScoresAndSoftNmsRefused) {
  TfGraph g = NmsGraph("NonMaxSuppressionV5", 5);
  auto r = RunTf(g, {Host<float>({6}, kScores)}, Outs({"nms:0", "nms:1", "nms:2"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].as<int32_t>(), (I32{3, 0}));
  EXPECT_EQ((*r)[1].f(), (Floats{0.95f, 0.9f}));
  EXPECT_EQ((*r)[2].as<int32_t>(), (I32{2}));

  TfGraph soft = NmsGraph("NonMaxSuppressionV5", 5);
  soft.def().mutable_node(5)->mutable_attr()->at("value").mutable_tensor()->set_tensor_content(
      std::string("\0\0\0\77", 4));  // 0.5f
  auto bad = Parse(soft);
  ASSERT_TRUE(Refused(bad, StatusCode::kUnsupported, "nms (NonMaxSuppressionV5): soft_nms_sigma"));
}

// image 2 x 3 x 4 x 1: image 0 pixel (y, x) = 4y + x, image 1 = 100 + that.
TfGraph CropGraph(const std::string& method, Floats boxes, const Ints& crop) {
  TfGraph g;
  g.Placeholder("image", {2, 3, 4, 1});
  g.ConstF("boxes", {static_cast<int64_t>(boxes.size() / 4), 4}, boxes);
  I32 ind;
  for (size_t i = 0; i < boxes.size() / 4; ++i) ind.push_back(static_cast<int32_t>(i % 2));
  g.ConstI32("ind", {static_cast<int64_t>(ind.size())}, ind);
  g.ConstI32("crop", {2}, {static_cast<int32_t>(crop[0]), static_cast<int32_t>(crop[1])});
  auto* n = g.Node("CropAndResize", "crops", {"image", "boxes", "ind", "crop"});
  SetS(n, "method", method);
  SetF(n, "extrapolation_value", -1.f);
  return g;
}

Floats Image() {
  Floats v;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 12; ++i) v.push_back(static_cast<float>(100 * b + i));
  return v;
}

TEST(TfDetectionOps, CropAndResizeBilinearNearestAndExtrapolation) {
  // Box 0 (image 0) is the whole image; box 1 (image 1) its middle row at
  // x 0 and 1.5 (of 3: 4.5 is outside).
  TfGraph g = CropGraph("bilinear", {0, 0, 1, 1, 0.5f, 0, 0.5f, 0.5f}, {3, 2});
  auto r = RunTf(g, {Host<float>({2, 3, 4, 1}, Image())});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{2, 3, 2, 1}));
  // Box 0: x = 0, 3; box 1: crop_height 3 from y 1 to 1 (row 1), x = 0, 1.5.
  ExpectNear((*r)[0].f(), {0, 3, 4, 7, 8, 11, 104, 105.5f, 104, 105.5f, 104, 105.5f});

  TfGraph out = CropGraph("bilinear", {0, 0.5f, 1, 1.5f}, {2, 2});
  auto e = RunTf(out, {Host<float>({2, 3, 4, 1}, Image())});
  ASSERT_TRUE(e.ok()) << e.status().message();
  ExpectNear((*e)[0].f(), {1.5f, -1, 9.5f, -1});
  TfGraph nearest = CropGraph("nearest", {0, 0.5f, 1, 1.5f}, {2, 2});
  auto nr = RunTf(nearest, {Host<float>({2, 3, 4, 1}, Image())});
  ASSERT_TRUE(nr.ok()) << nr.status().message();
  ExpectNear((*nr)[0].f(), {2, -1, 10, -1});  // roundf(1.5) = 2
}

TEST(TfDetectionOps, CropAndResizeRefusesBadMethodAndBoxIndex) {
  TfGraph g = CropGraph("bicubic", {0, 0, 1, 1}, {2, 2});
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "crops (CropAndResize): method 'bicubic'"));
  TfGraph far = CropGraph("bilinear", {0, 0, 1, 1}, {2, 2});
  far.def().mutable_node(2)->mutable_attr()->at("value").mutable_tensor()->set_tensor_content(
      std::string("\3\0\0\0", 4));
  auto run = RunTf(far, {Host<float>({2, 3, 4, 1}, Image())});
  ASSERT_TRUE(Refused(run, StatusCode::kInvalidArgument, "box index 3 is out of range"));
}

TEST(TfDetectionOps, WhereListsTheTrueCoordinates) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.Node("Where", "w", {"x"});
  auto r = RunTf(g, {Host<float>({2, 3}, Floats{0, 1.5f, 0, 2, 0, -3})});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{3, 2}));
  EXPECT_EQ((*r)[0].as<int64_t>(), (I64{0, 1, 1, 0, 1, 2}));
}

TEST(TfDetectionOps, UniqueKeepsFirstOccurrenceOrder) {
  TfGraph g;
  g.Placeholder("x", {9});
  g.Node("Unique", "u", {"x"});
  SetType(g.Node("UniqueWithCounts", "uc", {"x"}), "out_idx", tf::DT_INT64);
  auto r = RunTf(g, {Host<float>({9}, Floats{4, 1, 1, 2, 4, 4, 7, 8, 8})}, Outs({"u:0", "u:1", "uc:1", "uc:2"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{4, 1, 2, 7, 8}));
  EXPECT_EQ((*r)[1].as<int32_t>(), (I32{0, 1, 1, 2, 0, 0, 3, 4, 4}));
  EXPECT_EQ((*r)[2].as<int64_t>(), (I64{0, 1, 1, 2, 0, 0, 3, 4, 4}));
  EXPECT_EQ((*r)[3].as<int64_t>(), (I64{3, 2, 1, 1, 2}));
}

TEST(TfScatterOps, ScatterNdSumsDuplicates) {
  TfGraph g;
  g.ConstI32("idx", {5, 1}, {4, 3, 1, 7, 4});
  g.Placeholder("upd", {5});
  g.ConstI32("shape", {1}, {8});
  g.Node("ScatterNd", "s", {"idx", "upd", "shape"});
  auto r = RunTf(g, {Host<float>({5}, Floats{9, 10, 11, 12, 1})});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{0, 11, 0, 10, 10, 0, 0, 12}));
}

TEST(TfScatterOps, TensorScatterFamily) {
  TfGraph g;
  g.Placeholder("t", {8});
  g.ConstI32("idx", {4, 1}, {4, 3, 1, 7});
  g.ConstF("upd", {4}, {0, 10, 1, 12});
  for (const char* op : {"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
                         "TensorScatterMin"})
    g.Node(op, op, {"t", "idx", "upd"});
  auto r = RunTf(g, {Host<float>({8}, Floats{1, 2, 3, 4, 5, 6, 7, 8})},
                 Outs({"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
                       "TensorScatterMin"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{1, 1, 3, 10, 0, 6, 7, 12}));
  EXPECT_EQ((*r)[1].f(), (Floats{1, 3, 3, 14, 5, 6, 7, 20}));
  EXPECT_EQ((*r)[2].f(), (Floats{1, 1, 3, -6, 5, 6, 7, -4}));
  EXPECT_EQ((*r)[3].f(), (Floats{1, 2, 3, 10, 5, 6, 7, 12}));
  EXPECT_EQ((*r)[4].f(), (Floats{1, 1, 3, 4, 0, 6, 7, 8}));
}

const Floats kRows = {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1};

TEST(TfScatterOps, UnsortedSegmentsDropNegativeIdsAndFillEmptyOnes) {
  TfGraph g;
  g.Placeholder("data", {3, 4});
  g.ConstI32("ids", {3}, {0, -1, 0});
  g.ConstI32("num", {}, {3});
  g.Node("UnsortedSegmentSum", "sum", {"data", "ids", "num"});
  g.Node("UnsortedSegmentMax", "max", {"data", "ids", "num"});
  g.Node("UnsortedSegmentMin", "min", {"data", "ids", "num"});
  g.Node("UnsortedSegmentProd", "prod", {"data", "ids", "num"});
  auto r = RunTf(g, {Host<float>({3, 4}, kRows)}, Outs({"sum", "max", "min", "prod"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  const float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
  EXPECT_EQ((*r)[0].dims, (Ints{3, 4}));
  EXPECT_EQ((*r)[0].f(), (Floats{5, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ((*r)[1].f(), (Floats{4, 3, 3, 4, lo, lo, lo, lo, lo, lo, lo, lo}));
  EXPECT_EQ((*r)[2].f(), (Floats{1, 2, 2, 1, hi, hi, hi, hi, hi, hi, hi, hi}));
  EXPECT_EQ((*r)[3].f(), (Floats{4, 6, 6, 4, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(TfScatterOps, SortedSegmentsGiveZeroForEmptySegments) {
  TfGraph g;
  g.Placeholder("data", {3, 4});
  g.ConstI32("ids", {3}, {0, 0, 2});
  for (const char* op : {"SegmentSum", "SegmentMax", "SegmentMin", "SegmentProd", "SegmentMean"})
    g.Node(op, op, {"data", "ids"});
  auto r = RunTf(g, {Host<float>({3, 4}, kRows)},
                 Outs({"SegmentSum", "SegmentMax", "SegmentMin", "SegmentProd", "SegmentMean"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{3, 4}));
  EXPECT_EQ((*r)[0].f(), (Floats{6, 8, 10, 12, 0, 0, 0, 0, 4, 3, 2, 1}));
  EXPECT_EQ((*r)[1].f(), (Floats{5, 6, 7, 8, 0, 0, 0, 0, 4, 3, 2, 1}));
  EXPECT_EQ((*r)[2].f(), (Floats{1, 2, 3, 4, 0, 0, 0, 0, 4, 3, 2, 1}));
  EXPECT_EQ((*r)[3].f(), (Floats{5, 12, 21, 32, 1, 1, 1, 1, 4, 3, 2, 1}));
  EXPECT_EQ((*r)[4].f(), (Floats{3, 4, 5, 6, 0, 0, 0, 0, 4, 3, 2, 1}));
}

}  // namespace
}  // namespace ge::test
