// The shape and indexing mappers (tf_ops_shape.cc, tf_ops_index.cc),
// compiled and run against values written from TF's op documentation.
#include "tf_test_util.h"

namespace ge::test {
namespace {

Result<std::vector<HostValue>> RunOn(const TfGraph& g, const Ints& dims, std::vector<std::string> outs) {
  ParseOptions o;
  o.out_nodes = std::move(outs);
  return RunTf(g, {Host<float>(dims, Count(static_cast<size_t>(NumElements(dims))))}, o);
}

TEST(TfIndexOps, GatherV2GatherNdOneHot) {
  TfGraph g;
  g.Placeholder("x", {3, 4});
  g.ConstI32("idx", {2}, {2, 0});
  g.ConstI32("axis1", {}, {1});
  g.Node("GatherV2", "g", {"x", "idx", "axis1"});
  g.ConstI32("nd", {2, 2}, {1, 3, 2, 0});
  g.Node("GatherNd", "nd_g", {"x", "nd"});
  g.ConstI32("labels", {3}, {0, 2, 5});  // 5 is out of range: all off
  g.ConstI32("depth", {}, {3});
  g.ConstF("on", {}, {1.f});
  g.ConstF("off", {}, {-1.f});
  g.Node("OneHot", "hot", {"labels", "depth", "on", "off"});
  auto r = RunOn(g, {3, 4}, {"g", "nd_g", "hot"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{2, 0, 6, 4, 10, 8}));
  EXPECT_EQ((*r)[1].f(), (Floats{7, 8}));
  EXPECT_EQ((*r)[2].dims, (Ints{3, 3}));
  EXPECT_EQ((*r)[2].f(), (Floats{1, -1, -1, -1, -1, 1, -1, -1, -1}));
}

TEST(TfIndexOps, TopKV2AndCumsum) {
  TfGraph g;
  g.Placeholder("x", {2, 5});
  g.ConstI32("k", {}, {2});
  g.Node("TopKV2", "top", {"x", "k"});
  g.ConstI32("axis", {}, {1});
  auto* ex = g.Node("Cumsum", "ex_rev", {"x", "axis"});
  SetB(ex, "exclusive", true);
  SetB(ex, "reverse", true);
  g.Node("Cumsum", "cs", {"x", "axis"});
  ParseOptions o;
  o.out_nodes = {"top:0", "top:1", "ex_rev", "cs"};
  auto r = RunTf(g, {Host<float>({2, 5}, Floats{3, 1, 4, 1, 5, 9, 2, 6, 5, 3})}, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{5, 4, 9, 6}));
  EXPECT_EQ((*r)[1].as<int32_t>(), (I32{4, 2, 0, 2}));
  EXPECT_EQ((*r)[2].f(), (Floats{11, 10, 6, 5, 0, 16, 14, 8, 3, 0}));
  EXPECT_EQ((*r)[3].f(), (Floats{3, 4, 8, 9, 14, 9, 11, 17, 22, 25}));
}

TEST(TfIndexOps, SplitSplitVUnpack) {
  TfGraph g;
  g.Placeholder("x", {2, 6});
  g.ConstI32("dim1", {}, {1});
  SetI(g.Node("Split", "s", {"dim1", "x"}), "num_split", 3);
  g.ConstI32("sizes", {3}, {1, -1, 2});
  g.Node("SplitV", "v", {"x", "sizes", "dim1"});
  auto* u = g.Node("Unpack", "u", {"x"});
  SetI(u, "num", 2);
  auto r = RunOn(g, {2, 6}, {"s:2", "v:1", "u:1"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{4, 5, 10, 11}));
  EXPECT_EQ((*r)[1].f(), (Floats{1, 2, 3, 7, 8, 9}));
  EXPECT_EQ((*r)[2].dims, (Ints{6}));
  EXPECT_EQ((*r)[2].f(), (Floats{6, 7, 8, 9, 10, 11}));
}

TEST(TfIndexOps, SliceReverseTileBroadcastTo) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.ConstI32("begin", {2}, {0, 1});
  g.ConstI32("size", {2}, {-1, 2});
  g.Node("Slice", "sl", {"x", "begin", "size"});
  g.ConstI32("axes", {1}, {1});
  g.Node("ReverseV2", "rev", {"x", "axes"});
  g.ConstI32("mult", {2}, {1, 2});
  g.Node("Tile", "tile", {"x", "mult"});
  g.ConstI32("shape", {3}, {2, 2, 3});
  g.Node("BroadcastTo", "bc", {"x", "shape"});
  auto r = RunOn(g, {2, 3}, {"sl", "rev", "tile", "bc"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{1, 2, 4, 5}));
  EXPECT_EQ((*r)[1].f(), (Floats{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ((*r)[2].f(), (Floats{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ((*r)[3].dims, (Ints{2, 2, 3}));
  EXPECT_EQ((*r)[3].f(), (Floats{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}));
}

TEST(TfIndexOps, RangeFillZerosOnesLike) {
  TfGraph g;
  g.Placeholder("x", {2, 2});
  g.ConstF("start", {}, {1.f});
  g.ConstF("limit", {}, {2.f});
  g.ConstF("delta", {}, {0.25f});
  g.Node("Range", "range", {"start", "limit", "delta"});
  g.ConstI32("dims", {2}, {1, 3});
  g.ConstF("seven", {}, {7.f});
  g.Node("Fill", "fill", {"dims", "seven"});
  g.Node("ZerosLike", "z", {"x"});
  g.Node("OnesLike", "o", {"x"});
  g.Node("AddV2", "zo", {"z", "o"});
  g.Node("AddV2", "xo", {"x", "zo"});
  auto r = RunOn(g, {2, 2}, {"range", "fill", "xo"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{1, 1.25f, 1.5f, 1.75f}));
  EXPECT_EQ((*r)[1].f(), (Floats{7, 7, 7}));
  EXPECT_EQ((*r)[2].f(), (Floats{1, 2, 3, 4}));
}

}  // namespace
}  // namespace ge::test
