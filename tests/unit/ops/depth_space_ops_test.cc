// Inference of DepthToSpace / SpaceToDepth on NCHW, and what they refuse.
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(DepthSpaceOps, ShapesBothWays) {
  OpGraph d2s("DepthToSpace");
  d2s.In(F32({1, 8, 2, 3})).Int("blocksize", 2).Attr("mode", std::string("CRD"));
  EXPECT_EQ(InferOut(d2s), "f32[1,2,4,6]");
  OpGraph s2d("SpaceToDepth");
  s2d.In(F32({2, 3, 6, -1})).Int("blocksize", 3);
  EXPECT_EQ(InferOut(s2d), "f32[2,27,2,?]");
}

TEST(DepthSpaceOps, RefusesWhatTheBlockDoesNotDivide) {
  OpGraph channels("DepthToSpace");
  channels.In(F32({1, 6, 2, 2})).Int("blocksize", 2);
  EXPECT_TRUE(FailsWith(channels, {"channels 6", "blocksize^2 4"}));
  OpGraph spatial("SpaceToDepth");
  spatial.In(F32({1, 1, 5, 4})).Int("blocksize", 2);
  EXPECT_TRUE(FailsWith(spatial, {"not a multiple of blocksize 2"}));
  OpGraph mode("DepthToSpace");
  mode.In(F32({1, 4, 1, 1})).Int("blocksize", 2).Attr("mode", std::string("XYZ"));
  EXPECT_TRUE(FailsWith(mode, {"DCR or CRD"}));
  OpGraph rank("SpaceToDepth");
  rank.In(F32({4, 4})).Int("blocksize", 2);
  EXPECT_TRUE(FailsWith(rank, {"4-D NCHW"}));
}

}  // namespace
}  // namespace ge::test
