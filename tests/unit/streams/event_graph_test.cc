// The event graph on hand-made schedules: the cycle check, malformed events,
// redundant-wait removal and happens-before.
#include <gtest/gtest.h>

#include "compiler/streams/streams.h"
#include "ge/plan/happens_before.h"
#include "tests/common/refusal.h"
#include "tests/unit/streams/graph_builder.h"

namespace ge::streams::test {
namespace {

using V = std::vector<std::string>;

TEST(EventGraph, AcceptsAForwardSchedule) {
  auto s = Streams({{K("a"), R(0), K("b"), W(1), K("d")}, {W(0), K("c"), R(1)}});
  EXPECT_TRUE(CheckEventGraph(s).ok()) << CheckEventGraph(s).ToString();
}

TEST(EventGraph, RejectsACycleNamingTheStreamsAndEvents) {
  // Stream 0 waits for event 1 before recording event 0; stream 1 waits for
  // event 0 before recording event 1: a deadlock.
  auto s = Streams({{W(1), K("a"), R(0)}, {W(0), K("b"), R(1)}});
  Status st = CheckEventGraph(s);
  ASSERT_TRUE(
      Refused(st, StatusCode::kInvalidArgument, "event graph: the streams would deadlock, the waits form a cycle"));
  const std::string m = st.message();
  EXPECT_NE(m.find("cycle"), std::string::npos) << m;
  EXPECT_NE(m.find("stream 0 task 0 waits for event 1 recorded at stream 1 task 2"), std::string::npos) << m;
  EXPECT_NE(m.find("stream 1 task 0 waits for event 0 recorded at stream 0 task 2"), std::string::npos) << m;
  // The schedule builders refuse it too.
  EXPECT_TRUE(Refused(HappensBefore::Build(s), StatusCode::kInvalidArgument,
                      "event graph: the streams would deadlock, the waits form a cycle"));
  EXPECT_TRUE(Refused(RemoveRedundantWaits(s), StatusCode::kInvalidArgument,
                      "event graph: the streams would deadlock, the waits form a cycle"));
}

TEST(EventGraph, RejectsACycleThroughThreeStreamsAndLeavesOthersOut) {
  // 0 -> 1 -> 2 -> 0 deadlock; stream 3 only waits on the stuck stream 0.
  auto s = Streams({{W(2), K("a"), R(0)}, {W(0), K("b"), R(1)}, {W(1), K("c"), R(2)}, {K("d")}});
  Status st = CheckEventGraph(s);
  ASSERT_TRUE(Refused(st, StatusCode::kInvalidArgument, "event 2"));
  EXPECT_EQ(st.message().find("stream 3"), std::string::npos) << st.message();
}

TEST(EventGraph, RejectsAWaitBeforeItsOwnStreamsRecord) {
  Status st = CheckEventGraph(Streams({{W(0), K("a"), R(0)}}));
  ASSERT_TRUE(
      Refused(st, StatusCode::kInvalidArgument, "stream 0 task 0 waits for event 0 recorded at stream 0 task 2"));
}

TEST(EventGraph, RejectsMalformedEvents) {
  Status unrecorded = CheckEventGraph(Streams({{K("a")}, {W(3), K("b")}}));
  ASSERT_TRUE(Refused(unrecorded, StatusCode::kInvalidArgument, "waits for event 3, which no stream records"));
  Status twice = CheckEventGraph(Streams({{K("a"), R(0)}, {K("b"), R(0)}}));
  ASSERT_TRUE(Refused(twice, StatusCode::kInvalidArgument, "recorded twice"));
  EXPECT_TRUE(Refused(CheckEventGraph(Streams({{K("a"), R(-1)}})), StatusCode::kInvalidArgument,
                      "event graph: stream 0 task 1 has the bad event id -1"));
  auto misnumbered = Streams({{K("a")}, {K("b")}});
  misnumbered[1].stream = 5;
  EXPECT_TRUE(Refused(CheckEventGraph(misnumbered), StatusCode::kInvalidArgument,
                      "event graph: stream 5 is listed at position 1 (streams are numbered"));
}

TEST(RedundantWaits, AWaitImpliedByALaterRecordOnTheSameStreamGoes) {
  // Stream 1 waits for event 1 (after b), then for event 0 (after a, which
  // precedes b on stream 0): the second wait is implied.
  auto s = Streams({{K("a"), R(0), K("b"), R(1)}, {W(1), K("c"), W(0), K("d")}});
  auto removed = RemoveRedundantWaits(s);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(*removed, 1);
  EXPECT_EQ(Describe(s[0]), (V{"K:a", "K:b", "R0"}));  // event 1 renumbered 0
  EXPECT_EQ(Describe(s[1]), (V{"W0", "K:c", "K:d"}));
}

TEST(RedundantWaits, AWaitImpliedThroughAThirdStreamGoes) {
  // Stream 1 waits for event 2 (the last task of stream 0); stream 2 waits
  // for stream 1 (event 1), so it already knows all of stream 0: its wait for
  // event 0 is implied. Event 0's record then has no wait and goes too.
  auto t = Streams({{K("a"), R(0), R(2)}, {W(2), K("b"), R(1)}, {W(1), K("c"), W(0), K("d")}});
  auto removed = RemoveRedundantWaits(t);
  ASSERT_TRUE(removed.ok()) << removed.status().ToString();
  EXPECT_EQ(*removed, 1);
  EXPECT_EQ(Describe(t[0]), (V{"K:a", "R1"}));  // old 2 -> 1
  EXPECT_EQ(Describe(t[1]), (V{"W1", "K:b", "R0"}));  // old 1 -> 0
  EXPECT_EQ(Describe(t[2]), (V{"W0", "K:c", "K:d"}));
}

TEST(RedundantWaits, MustNotFireWhenTheKnownPointIsBeforeTheRecord) {
  // Stream 2 knows stream 0 only up to R0 (through stream 1); R2 is later.
  auto s = Streams({{K("a"), R(0), K("e"), R(2)}, {W(0), K("b"), R(1)}, {W(1), K("c"), W(2), K("d")}});
  auto removed = RemoveRedundantWaits(s);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 0);
}

TEST(RedundantWaits, MustNotFireOnIndependentWaits) {
  auto s = Streams({{K("a"), R(0), K("b"), R(1)}, {W(0), K("c"), W(1), K("d")}});
  const auto before = s;
  auto removed = RemoveRedundantWaits(s);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 0);
  EXPECT_EQ(Describe(s[0]), Describe(before[0]));
  EXPECT_EQ(Describe(s[1]), Describe(before[1]));
}

TEST(HappensBefore, FollowsStreamOrderAndEventsOnly) {
  auto s = Streams({{K("a"), R(0), K("b"), K("e")}, {K("x"), W(0), K("c")}});
  auto hb = HappensBefore::Build(s);
  ASSERT_TRUE(hb.ok()) << hb.status().ToString();
  auto pos = [&](const char* n) { return *hb->Find(n); };
  EXPECT_TRUE(hb->Before(pos("a"), pos("b")));
  EXPECT_TRUE(hb->Before(pos("a"), pos("c")));   // through event 0
  EXPECT_FALSE(hb->Before(pos("b"), pos("c")));  // b is after the record
  EXPECT_FALSE(hb->Before(pos("x"), pos("e")));  // no event from stream 1
  EXPECT_FALSE(hb->Before(pos("c"), pos("c")));
  EXPECT_FALSE(hb->Find("nope").has_value());
}

}  // namespace
}  // namespace ge::streams::test
