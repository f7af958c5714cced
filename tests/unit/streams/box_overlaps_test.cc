// IntersectingBoxes, the sweep behind the memory check's overlap rule: the
// same pairs as comparing every two boxes, and the cap.
#include "plan/box_overlaps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace ge::verify {
namespace {

std::vector<std::pair<int, int>> EveryPair(const std::vector<Box>& boxes) {
  std::vector<std::pair<int, int>> out;
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const Box& a = boxes[i];
      const Box& b = boxes[j];
      const bool memory = a.segment == b.segment && a.offset < b.offset + b.size && b.offset < a.offset + a.size;
      const bool time = a.start < b.end && b.start < a.end;
      const bool real = a.size > 0 && b.size > 0 && a.start < a.end && b.start < b.end;
      if (memory && time && real) out.push_back({static_cast<int>(i), static_cast<int>(j)});
    }
  return out;
}

std::vector<std::pair<int, int>> Sorted(std::vector<std::pair<int, int>> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(BoxOverlaps, FindsWhatComparingEveryPairFinds) {
  std::mt19937 rng(46);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 200; ++round) {
    std::vector<Box> boxes(pick(0, 60));
    for (Box& b : boxes) {
      b.segment = pick(0, 2);
      b.offset = pick(0, 40) * 8;
      b.size = pick(0, 6) == 0 ? pick(0, 400) : pick(0, 3) * 8;  // some huge, some empty
      b.start = pick(0, 5) == 0 ? INT64_MIN : pick(-3, 30);
      b.end = pick(0, 5) == 0 ? INT64_MAX : b.start == INT64_MIN ? pick(-3, 30) : b.start + pick(-1, 8);
    }
    std::vector<std::pair<int, int>> found;
    ASSERT_TRUE(IntersectingBoxes(boxes, 1u << 20, &found));
    ASSERT_EQ(Sorted(found), EveryPair(boxes)) << "round " << round;
  }
}

TEST(BoxOverlaps, ReusedMemoryInDisjointTimesIsNoPair) {
  // A chain reusing two slots: box k lives in [k, k + 2) at offset 64 * (k % 2).
  std::vector<Box> boxes;
  for (int k = 0; k < 1000; ++k) boxes.push_back({0, 64 * (k % 2), 64, k, k + 2});
  std::vector<std::pair<int, int>> found;
  ASSERT_TRUE(IntersectingBoxes(boxes, 10, &found));
  EXPECT_TRUE(found.empty());
  boxes[500].end = 503;  // now read by the task after its slot's next write
  ASSERT_TRUE(IntersectingBoxes(boxes, 10, &found));
  EXPECT_EQ(found, (std::vector<std::pair<int, int>>{{500, 502}}));
}

TEST(BoxOverlaps, StopsPastTheCap) {
  std::vector<Box> boxes(10, Box{0, 0, 16, 0, 5});  // 45 pairs
  std::vector<std::pair<int, int>> found;
  EXPECT_FALSE(IntersectingBoxes(boxes, 44, &found));
  EXPECT_EQ(found.size(), 44u);
  found.clear();
  EXPECT_TRUE(IntersectingBoxes(boxes, 45, &found));
  EXPECT_EQ(found.size(), 45u);
}

}  // namespace
}  // namespace ge::verify
