// ConcatV2, Reshape, Squeeze, ExpandDims, Pad, Transpose, Shape,
// StridedSlice and Pack, compiled and run; on NCHW-held values where the
// parser remaps axes instead of transposing.
#include "tf_test_util.h"

namespace ge::test {
namespace {

// x NHWC [1,2,3,2] -> value at (h, w, c).
float At(const Floats& x, int64_t h, int64_t w, int64_t c) { return x[static_cast<size_t>((h * 3 + w) * 2 + c)]; }

TEST(TfArrayOps, ConcatV2OnHeldAndPlainValues) {
  const Floats x = Iota(12), y = Iota(12, 0.2f, 3.f);
  for (int32_t axis : {3, -1, 1})
    for (bool held : {false, true}) {
      SCOPED_TRACE("axis " + std::to_string(axis) + (held ? " held" : ""));
      TfGraph g;
      g.Placeholder("x", {1, 2, 3, 2});
      g.Placeholder("y", {1, 2, 3, 2});
      if (held) NchwHeld(g, "h", "x", 2);
      g.ConstI32("axis", {}, {axis});
      g.Node("ConcatV2", "cat", {held ? "h" : "x", "y", "axis"});
      auto out = RunTf(g, {Host<float>({}, x), Host<float>({}, y)});
      ASSERT_TRUE(out.ok()) << out.status().message();
      Floats want;
      if (axis == 1) {
        want = x;
        want.insert(want.end(), y.begin(), y.end());
      } else {
        for (size_t p = 0; p < 6; ++p) want.insert(want.end(), {x[2 * p], x[2 * p + 1], y[2 * p], y[2 * p + 1]});
      }
      EXPECT_EQ((*out)[0].dims, (axis == 1 ? Ints{1, 4, 3, 2} : Ints{1, 2, 3, 4}));
      ExpectNear((*out)[0].f(), want);
    }
}

TEST(TfArrayOps, ReshapeReadsTfsElementOrder) {
  const Floats x = Iota(12);
  TfGraph g;
  g.Placeholder("x", {1, 2, 3, 2});
  NchwHeld(g, "h", "x", 2);
  g.ConstI32("shape", {2}, {-1, 4});
  g.Node("Reshape", "r", {"h", "shape"});
  auto out = RunTf(g, {Host<float>({}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].dims, (Ints{3, 4}));
  ExpectNear((*out)[0].f(), x);  // NHWC order, so a transpose back ran first
}

TEST(TfArrayOps, SqueezeAndExpandDims) {
  const Floats x = Iota(6);
  TfGraph g;
  g.Placeholder("x", {1, 1, 3, 2});
  auto* s = g.Node("Squeeze", "s", {"x"});
  SetList(s, "squeeze_dims", {0, 1});
  g.ConstI32("dim", {}, {-1});
  g.Node("ExpandDims", "e", {"s", "dim"});
  g.Node("Squeeze", "all", {"x"});
  ParseOptions o;
  o.out_nodes = {"e", "all"};
  auto out = RunTf(g, {Host<float>({}, x)}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].dims, (Ints{3, 2, 1}));
  EXPECT_EQ((*out)[1].dims, (Ints{3, 2}));
  ExpectNear((*out)[0].f(), x);

  // [1,1,1,C] held as NCHW squeezes to [1,C] without a transpose back.
  TfGraph h;
  h.Placeholder("x", {1, 1, 1, 3});
  NchwHeld(h, "held", "x", 3);
  auto* sq = h.Node("Squeeze", "s", {"held"});
  SetList(sq, "squeeze_dims", {1, 2});
  auto graph = Parse(h);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "Transpose"), 1);
  auto o2 = RunTf(h, {Host<float>({}, Floats{1, 2, 3})});
  ASSERT_TRUE(o2.ok()) << o2.status().message();
  ExpectNear((*o2)[0].f(), {1, 2, 3});
}

TEST(TfArrayOps, PadNhwcPaddingsOnAHeldValue) {
  const Floats x = Iota(12);
  for (bool v2 : {false, true}) {
    TfGraph g;
    g.Placeholder("x", {1, 2, 3, 2});
    NchwHeld(g, "h", "x", 2);
    g.ConstI32("p", {4, 2}, {0, 0, 1, 0, 0, 2, 0, 1});  // H +1 before, W +2 after, C +1 after
    g.ConstF("v", {}, {1.5f});
    if (v2) g.Node("PadV2", "y", {"h", "p", "v"});
    else g.Node("Pad", "y", {"h", "p"});
    auto out = RunTf(g, {Host<float>({}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].dims, (Ints{1, 3, 5, 3}));
    const float fill = v2 ? 1.5f : 0.f;
    Floats want;
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t w = 0; w < 5; ++w)
        for (int64_t c = 0; c < 3; ++c)
          want.push_back(h >= 1 && w < 3 && c < 2 ? At(x, h - 1, w, c) : fill);
    ExpectNear((*out)[0].f(), want);
  }
}

TEST(TfArrayOps, TransposeComposesWithTheNchwHold) {
  const Floats x = Iota(12);
  for (const Ints& perm : {Ints{0, 3, 1, 2}, Ints{0, 2, 1, 3}}) {
    TfGraph g;
    g.Placeholder("x", {1, 2, 3, 2});
    NchwHeld(g, "h", "x", 2);
    g.ConstI32("perm", {4}, {static_cast<int32_t>(perm[0]), static_cast<int32_t>(perm[1]),
                             static_cast<int32_t>(perm[2]), static_cast<int32_t>(perm[3])});
    g.Node("Transpose", "t", {"h", "perm"});
    auto out = RunTf(g, {Host<float>({}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const Ints d = {1, 2, 3, 2};
    EXPECT_EQ((*out)[0].dims, (Ints{1, d[perm[1]], d[perm[2]], d[perm[3]]}));
    Floats want;
    if (perm[1] == 3) {
      want = NhwcToNchw(x, d);
    } else {
      for (int64_t w = 0; w < 3; ++w)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t c = 0; c < 2; ++c) want.push_back(At(x, h, w, c));
    }
    ExpectNear((*out)[0].f(), want);
    auto graph = Parse(g);
    ASSERT_TRUE(graph.ok());
    // NHWC -> NCHW of a value held as NCHW is no data movement at all.
    EXPECT_EQ(CountOps(**graph, "Transpose"), perm[1] == 3 ? 1 : 2);
  }
}

TEST(TfArrayOps, ShapeGivesTfsDims) {
  for (bool held : {false, true})
    for (tf::DataType t : {tf::DT_INT32, tf::DT_INT64}) {
      TfGraph g;
      g.Placeholder("x", {1, 2, 3, 2});
      if (held) NchwHeld(g, "h", "x", 2);
      auto* s = g.Node("Shape", "s", {held ? "h" : "x"});
      SetType(s, "out_type", t);
      auto out = RunTf(g, {Host<float>({}, Iota(12))});
      ASSERT_TRUE(out.ok()) << out.status().message();
      if (t == tf::DT_INT32) EXPECT_EQ((*out)[0].as<int32_t>(), (std::vector<int32_t>{1, 2, 3, 2}));
      else EXPECT_EQ((*out)[0].as<int64_t>(), (std::vector<int64_t>{1, 2, 3, 2}));
    }
}

TEST(TfArrayOps, PackStacksAlongANewAxis) {
  const Floats a = {1, 2, 3, 4, 5, 6}, b = {7, 8, 9, 10, 11, 12};
  for (int64_t axis : {0, 1, -1}) {
    TfGraph g;
    g.Placeholder("a", {2, 3});
    g.Placeholder("b", {2, 3});
    auto* p = g.Node("Pack", "p", {"a", "b"});
    SetI(p, "axis", axis);
    SetI(p, "N", 2);
    auto out = RunTf(g, {Host<float>({}, a), Host<float>({}, b)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want;
    if (axis == 0) {
      want = a;
      want.insert(want.end(), b.begin(), b.end());
      EXPECT_EQ((*out)[0].dims, (Ints{2, 2, 3}));
    } else if (axis == 1) {
      want = {1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12};
      EXPECT_EQ((*out)[0].dims, (Ints{2, 2, 3}));
    } else {
      for (size_t i = 0; i < 6; ++i) want.insert(want.end(), {a[i], b[i]});
      EXPECT_EQ((*out)[0].dims, (Ints{2, 3, 2}));
    }
    ExpectNear((*out)[0].f(), want);
  }
}

struct SliceCase {
  std::string what;
  std::vector<int32_t> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_mask = 0;
  Ints dims;
  std::function<float(const Floats&, const Ints&)> at;  // output index -> value
};

TEST(TfArrayOps, StridedSliceWithEveryMask) {
  // x [2,3,4], x[i][j][k] = 100 i + 10 j + k.
  Floats x;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) x.push_back(100.f * i + 10.f * j + k);
  auto X = [](int64_t i, int64_t j, int64_t k) { return 100.f * i + 10.f * j + k; };
  const std::vector<SliceCase> cases = {
      {"x[:,1:3,::2]", {0, 1, 0}, {2, 3, 4}, {1, 1, 2}, 0, 0, 0, 0, 0, {2, 2, 2},
       [&](const Floats&, const Ints& o) { return X(o[0], o[1] + 1, o[2] * 2); }},
      {"x[1]", {1}, {2}, {1}, 0, 0, 0, 0, 1, {3, 4}, [&](const Floats&, const Ints& o) { return X(1, o[0], o[1]); }},
      {"x[:, ::-1]", {0, 0}, {0, 0}, {1, -1}, 3, 3, 0, 0, 0, {2, 3, 4},
       [&](const Floats&, const Ints& o) { return X(o[0], 2 - o[1], o[2]); }},
      {"x[..., None, 1]", {0, 0, 1}, {0, 0, 2}, {1, 1, 1}, 0, 0, 1, 2, 4, {2, 3, 1},
       [&](const Floats&, const Ints& o) { return X(o[0], o[1], 1); }},
      {"x[:, -2:, -1]", {0, -2, -1}, {0, 0, 0}, {1, 1, 1}, 1, 3, 0, 0, 4, {2, 2},
       [&](const Floats&, const Ints& o) { return X(o[0], o[1] + 1, 3); }},
      {"x[1, 2:0:-1, 3:0:-2]", {1, 2, 3}, {2, 0, 0}, {1, -1, -2}, 0, 0, 0, 0, 1, {2, 2},
       [&](const Floats&, const Ints& o) { return X(1, 2 - o[0], 3 - 2 * o[1]); }},
  };
  for (const SliceCase& c : cases) {
    SCOPED_TRACE(c.what);
    TfGraph g;
    g.Placeholder("x", {2, 3, 4});
    const int64_t n = static_cast<int64_t>(c.begin.size());
    g.ConstI32("b", {n}, c.begin);
    g.ConstI32("e", {n}, c.end);
    g.ConstI32("s", {n}, c.strides);
    auto* ss = g.Node("StridedSlice", "y", {"x", "b", "e", "s"});
    SetType(ss, "Index", tf::DT_INT32);
    SetI(ss, "begin_mask", c.begin_mask);
    SetI(ss, "end_mask", c.end_mask);
    SetI(ss, "ellipsis_mask", c.ellipsis_mask);
    SetI(ss, "new_axis_mask", c.new_axis_mask);
    SetI(ss, "shrink_axis_mask", c.shrink_mask);
    auto out = RunTf(g, {Host<float>({}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    ASSERT_EQ((*out)[0].dims, c.dims);
    Floats want;
    Ints idx(c.dims.size(), 0);
    for (int64_t k = 0; k < NumElements(c.dims); ++k) {
      want.push_back(c.at(x, idx));
      for (size_t a = idx.size(); a-- > 0;) {
        if (++idx[a] < c.dims[a]) break;
        idx[a] = 0;
      }
    }
    ExpectNear((*out)[0].f(), want);
  }
}

}  // namespace
}  // namespace ge::test
