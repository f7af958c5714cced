// The packer and the lower bound with a conflict relation wider than
// lifetime overlap (multi-stream plans), on hand-computed intervals.
#include <gtest/gtest.h>

#include "compiler/memory/memory_planner.h"

namespace ge::memory {
namespace {

bool Overlap(const Interval& a, const Interval& b) { return a.first <= b.last && b.first <= a.last; }

TEST(ConflictPacking, WithOverlapAsTheRelationItIsPackIntervals) {
  const std::vector<Interval> iv = {{128, 0, 1}, {64, 0, 4}, {64, 2, 3}, {64, 2, 3}, {192, 5, 6}};
  const Conflict overlap = [&](size_t a, size_t b) { return Overlap(iv[a], iv[b]); };
  const Packing p = PackIntervals(iv, 64, true);
  const Packing q = PackWithConflicts(iv, 64, true, overlap, LowerBound(iv, 64));
  EXPECT_EQ(p.offsets, q.offsets);
  EXPECT_EQ(p.peak, q.peak);
  EXPECT_EQ(LowerBoundWithConflicts(iv, 64, overlap), LowerBound(iv, 64));
}

TEST(ConflictPacking, AnExtraConflictKeepsTwoDisjointLifetimesApart) {
  // 0 and 2 do not overlap in time (0 dies at step 1, 2 starts at 2), so one
  // stream would reuse 0's memory for 2; another stream still reading 0 makes
  // them conflict.
  const std::vector<Interval> iv = {{64, 0, 1}, {64, 0, 3}, {64, 2, 3}};
  auto conflict = [&](size_t a, size_t b) {
    const bool extra = (a == 0 && b == 2) || (a == 2 && b == 0);
    return extra || Overlap(iv[a], iv[b]);
  };
  EXPECT_EQ(PackIntervals(iv, 64, true).peak, 128);
  const Packing p = PackWithConflicts(iv, 64, true, conflict, 192);
  EXPECT_EQ(p.peak, 192);
  EXPECT_NE(p.offsets[0], p.offsets[2]);
  // The bound sees the clique {0, 1, 2}.
  EXPECT_EQ(LowerBound(iv, 64), 128);
  EXPECT_EQ(LowerBoundWithConflicts(iv, 64, conflict), 192);
}

TEST(ConflictPacking, TheBoundOnlyAddsIntervalsConflictingWithAll) {
  // At step 0: {0, 1}. Interval 2 conflicts with 0 but not 1: not added.
  const std::vector<Interval> iv = {{64, 0, 0}, {64, 0, 0}, {64, 1, 1}};
  auto conflict = [&](size_t a, size_t b) {
    const bool extra = (a == 0 && b == 2) || (a == 2 && b == 0);
    return extra || Overlap(iv[a], iv[b]);
  };
  EXPECT_EQ(LowerBoundWithConflicts(iv, 64, conflict), 128);
  EXPECT_EQ(PackWithConflicts(iv, 64, true, conflict, 128).peak, 128);
}

}  // namespace
}  // namespace ge::memory
