// NonMaxSuppression against the ONNX operator examples (the reference
// implementation's answers) and the edges of its rules: strict thresholds,
// ties to the lower box index, absent optional inputs.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using I64s = std::vector<int64_t>;

// The examples' six boxes: two clusters of three overlapping ones and a lone one.
const std::vector<float> kBoxes = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f,
                                   0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101};
const std::vector<float> kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

struct Nms {
  std::vector<float> boxes = kBoxes, scores = kScores;
  dims boxes_dims = {1, 6, 4}, scores_dims = {1, 1, 6};
  std::optional<int64_t> max_out = 3;
  std::optional<float> iou = 0.5f, score;
  int64_t center = 0;

  Result<std::vector<HostTensor>> Run() const {
    std::vector<HostTensor> in = {HostTensor::F32(boxes_dims, boxes), HostTensor::F32(scores_dims, scores)};
    in.push_back(max_out ? HostTensor::I64({1}, {*max_out}) : HostTensor::Absent());
    in.push_back(iou ? HostTensor::F32({1}, {*iou}) : HostTensor::Absent());
    in.push_back(score ? HostTensor::F32({}, {*score}) : HostTensor::Absent());
    return RunComputedKernel("NonMaxSuppression", Attr("center_point_box", center), in, {{DataType::kInt64, {-1, 3}}});
  }
};

// The selected rows as one list.
I64s Selected(const Nms& n) {
  auto r = n.Run();
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {-1};
  EXPECT_EQ((*r)[0].dims.size(), 2u);
  return (*r)[0].as<int64_t>();
}

TEST(NmsKernel, SuppressesByIouBestScoreFirst) {
  Nms n;
  n.score = 0.f;
  EXPECT_EQ(Selected(n), (I64s{0, 0, 3, 0, 0, 0, 0, 0, 5}));
  n.max_out = 2;  // test_nonmaxsuppression_limit_output_size
  EXPECT_EQ(Selected(n), (I64s{0, 0, 3, 0, 0, 0}));
  n.max_out = 3;
  n.score = 0.4f;  // test_nonmaxsuppression_suppress_by_IOU_and_scores
  EXPECT_EQ(Selected(n), (I64s{0, 0, 3, 0, 0, 0}));
}

TEST(NmsKernel, FlippedCornersAndCenterPointBoxes) {
  Nms flipped;
  flipped.boxes = {1, 1, 0, 0, 0, 0.1f, 1, 1.1f, 0, 0.9f, 1, -0.1f, 0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101, 0, 100};
  flipped.score = 0.f;
  EXPECT_EQ(Selected(flipped), (I64s{0, 0, 3, 0, 0, 0, 0, 0, 5}));
  Nms center;
  center.boxes = {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1,
                  0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1};
  center.center = 1;
  center.score = 0.f;
  EXPECT_EQ(Selected(center), (I64s{0, 0, 3, 0, 0, 0, 0, 0, 5}));
}

TEST(NmsKernel, BatchesAndClassesInOrder) {
  Nms two;  // test_nonmaxsuppression_two_batches
  two.boxes = kBoxes;
  two.boxes.insert(two.boxes.end(), kBoxes.begin(), kBoxes.end());
  two.scores = kScores;
  two.scores.insert(two.scores.end(), kScores.begin(), kScores.end());
  two.boxes_dims = {2, 6, 4};
  two.scores_dims = {2, 1, 6};
  two.max_out = 2;
  two.score = 0.f;
  EXPECT_EQ(Selected(two), (I64s{0, 0, 3, 0, 0, 0, 1, 0, 3, 1, 0, 0}));
  two.boxes = kBoxes;  // test_nonmaxsuppression_two_classes
  two.boxes_dims = {1, 6, 4};
  two.scores_dims = {1, 2, 6};
  EXPECT_EQ(Selected(two), (I64s{0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0}));
}

TEST(NmsKernel, StrictThresholdsAndTies) {
  // IoU exactly 0.5 (areas 1 and 2, overlap 1) does not suppress.
  Nms edge;
  edge.boxes = {0, 0, 1, 1, 0, 0, 2, 1};
  edge.boxes_dims = {1, 2, 4};
  edge.scores = {0.9f, 0.8f};
  edge.scores_dims = {1, 1, 2};
  EXPECT_EQ(Selected(edge), (I64s{0, 0, 0, 0, 0, 1}));
  edge.iou = 0.49f;
  EXPECT_EQ(Selected(edge), (I64s{0, 0, 0}));
  // A score equal to the threshold is out.
  edge.score = 0.8f;
  edge.iou = 0.5f;
  EXPECT_EQ(Selected(edge), (I64s{0, 0, 0}));
  // test_nonmaxsuppression_identical_boxes: equal scores, the lowest index wins.
  Nms same;
  same.boxes.clear();
  for (int i = 0; i < 10; ++i) same.boxes.insert(same.boxes.end(), {0, 0, 1, 1});
  same.boxes_dims = {1, 10, 4};
  same.scores = std::vector<float>(10, 0.9f);
  same.scores_dims = {1, 1, 10};
  same.score = 0.f;
  EXPECT_EQ(Selected(same), (I64s{0, 0, 0}));
}

TEST(NmsKernel, AbsentOperands) {
  // No score_threshold: every box is a candidate, negative scores too; no
  // iou_threshold: 0, so any overlap suppresses.
  Nms n;
  n.scores = {-0.9f, -0.75f, -0.6f, -0.95f, -0.5f, -0.3f};
  n.iou.reset();
  n.max_out = 6;
  EXPECT_EQ(Selected(n), (I64s{0, 0, 5, 0, 0, 4, 0, 0, 2}));
  n.max_out.reset();  // no max_output_boxes_per_class: nothing is selected
  auto none = n.Run();
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ((*none)[0].dims, (dims{0, 3}));
  Nms bad;
  bad.boxes_dims = {1, 4, 6};
  EXPECT_TRUE(Refused(bad.Run(), StatusCode::kInvalidArgument, "boxes must be [batches, boxes, 4], got [1,4,6]"));
}

}  // namespace
}  // namespace ge::test
