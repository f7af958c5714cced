// The classification tables of reference 3.3.2 and the checker registry
// (ge/analysis/layout_conflicts.h), without graphs.
#include <set>

#include "tests/unit/conflicts/layout_test_ops.h"

namespace ge::test {
namespace {

using analysis::AnchorAttribute;
using analysis::PairClass;
using analysis::RuleFor;
using A = AnchorAttribute;

std::vector<A> AllAttributes() {
  std::vector<A> v;
  for (int b = 0; b < analysis::kNumAnchorAttributes; ++b) v.push_back(static_cast<A>(1u << b));
  return v;
}

TEST(LayoutRules, TheTwentyTwoCheckersOfTheReferenceAreRegistered) {
  const std::set<std::string> want = {
      "continuous_input_and_continuous_input",
      "continuous_output_and_continuous_input",
      "continuous_out_and_continuous_out",
      "continuous_in_out_and_rts_special_mem_in_out",
      "user_in_and_continuous_in_out_checker",
      "user_in_and_unrefresh_out_checker",
      "user_in_and_rts_special_out_checker",
      "user_out_and_unrefresh_out_checker",
      "user_out_and_unrefresh_in_checker",
      "user_out_and_immutable_out_checker",
      "user_out_and_continuous_input",
      "immutable_out_and_rts_specail_out_checker",
      "immutable_out_and_nopadding_continuous_in_checker",
      "immutable_out_and_continuous_out_checker",
      "nopadding_continuous_input_and_nopadding_continuous_input",
      "nopadding_continuous_input_and_nopadding_continuous_out",
      "nopadding_continuous_out_and_nopadding_continuous_out",
      "rts_special_in_and_rts_special_in_checker",
      "rts_special_in_and_rts_special_out_checker",
      "rts_special_out_and_rts_special_out_checker",
      "unrefresh_in_checker",
      "unrefresh_out_checker",
  };
  const std::vector<std::string> got = analysis::RegisteredCheckerNames();
  EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), want);
  EXPECT_EQ(got.size(), 22u);
}

TEST(LayoutRules, TheFamiliesCoverTheReferencesPairCounts) {
  // continuous_in_out_and_rts_special_mem_in_out: 8 pairs; user_in_and_
  // continuous_in_out_checker: 4; user_out_and_continuous_input and
  // immutable_out_and_continuous_out_checker: 2 each.
  std::map<std::string, int> pairs;
  const std::vector<A> all = AllAttributes();
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i; j < all.size(); ++j) {
      const auto r = RuleFor(all[i], all[j]);
      if (r.kind == PairClass::kChecker) ++pairs[r.name];
    }
  EXPECT_EQ(pairs["continuous_in_out_and_rts_special_mem_in_out"], 8);
  EXPECT_EQ(pairs["user_in_and_continuous_in_out_checker"], 4);
  EXPECT_EQ(pairs["user_out_and_continuous_input"], 2);
  EXPECT_EQ(pairs["immutable_out_and_continuous_out_checker"], 2);
  EXPECT_EQ(pairs["continuous_input_and_continuous_input"], 1);
}

TEST(LayoutRules, LookupIsSymmetric) {
  for (A x : AllAttributes())
    for (A y : AllAttributes()) {
      const auto xy = RuleFor(x, y), yx = RuleFor(y, x);
      EXPECT_EQ(xy.kind, yx.kind) << analysis::AnchorAttributeName(x) << " " << analysis::AnchorAttributeName(y);
      EXPECT_STREQ(xy.name, yx.name);
      // A table entry or a checker has one orientation, whichever way asked.
      if (xy.kind == PairClass::kConflict || xy.kind == PairClass::kChecker) {
        EXPECT_EQ(xy.first, yx.first);
      }
    }
}

TEST(LayoutRules, RegisteringAPairTwiceIsRefused) {
  EXPECT_FALSE(analysis::RegisterLayoutChecker(A::kRtsSpecialTypeInput, A::kContinuousInput, "again",
                                               [](const analysis::LayoutCheckContext&) {
                                                 return analysis::CheckerVerdict{true, analysis::IsolateSide::kA};
                                               }));
  EXPECT_STREQ(RuleFor(A::kContinuousInput, A::kRtsSpecialTypeInput).name,
               "continuous_in_out_and_rts_special_mem_in_out");
}

TEST(LayoutRules, AlwaysCompatiblePairs) {
  EXPECT_EQ(RuleFor(A::kRtsSpecialTypeInput, A::kNormalOutput).kind, PairClass::kCompatible);
  EXPECT_EQ(RuleFor(A::kUserMemoryOutput, A::kUserMemoryOutput).kind, PairClass::kCompatible);
  EXPECT_EQ(RuleFor(A::kUserMemoryInput, A::kUserMemoryOutput).kind, PairClass::kCompatible);
  for (A x : AllAttributes()) EXPECT_EQ(RuleFor(A::kReferenceOutput, x).kind, PairClass::kCompatible);
}

TEST(LayoutRules, AlwaysConflictingPairsAreTheReferenceTable) {
  const std::set<std::pair<uint32_t, uint32_t>> table = {
      {static_cast<uint32_t>(A::kUserMemoryInput), static_cast<uint32_t>(A::kUnsupportedAddressRefreshOperatorInput)},
      {static_cast<uint32_t>(A::kUserMemoryInput), static_cast<uint32_t>(A::kRtsSpecialTypeInput)},
      {static_cast<uint32_t>(A::kUserMemoryOutput), static_cast<uint32_t>(A::kRtsSpecialTypeInput)},
      {static_cast<uint32_t>(A::kUserMemoryOutput), static_cast<uint32_t>(A::kRtsSpecialTypeOutput)},
      {static_cast<uint32_t>(A::kUserMemoryOutput), static_cast<uint32_t>(A::kContinuousOutput)},
      {static_cast<uint32_t>(A::kUserMemoryOutput), static_cast<uint32_t>(A::kNoPaddingContinuousOutput)},
      {static_cast<uint32_t>(A::kImmutableAddressOutput), static_cast<uint32_t>(A::kRtsSpecialTypeInput)},
      {static_cast<uint32_t>(A::kImmutableAddressOutput), static_cast<uint32_t>(A::kContinuousInput)},
      {static_cast<uint32_t>(A::kContinuousInput), static_cast<uint32_t>(A::kNoPaddingContinuousOutput)},
      {static_cast<uint32_t>(A::kContinuousOutput), static_cast<uint32_t>(A::kNoPaddingContinuousInput)},
  };
  int conflicting = 0;
  for (A x : AllAttributes())
    for (A y : AllAttributes()) {
      const uint32_t a = static_cast<uint32_t>(x), b = static_cast<uint32_t>(y);
      const bool listed = table.count({std::min(a, b), std::max(a, b)}) != 0;
      EXPECT_EQ(RuleFor(x, y).kind == PairClass::kConflict, listed)
          << analysis::AnchorAttributeName(x) << " " << analysis::AnchorAttributeName(y);
      conflicting += listed && a <= b;
    }
  EXPECT_EQ(conflicting, 10);
}

TEST(LayoutRules, PairsNoTableNamesAreUnlistedAndReportNothing) {
  EXPECT_EQ(RuleFor(A::kNormalInput, A::kNormalOutput).kind, PairClass::kUnlisted);
  EXPECT_EQ(RuleFor(A::kContinuousInput, A::kNoPaddingContinuousInput).kind, PairClass::kUnlisted);
  EXPECT_EQ(RuleFor(A::kContinuousInput, A::kNormalOutput).kind, PairClass::kUnlisted);
}

}  // namespace
}  // namespace ge::test
