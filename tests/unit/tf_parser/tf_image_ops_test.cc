// The image and batched-matrix mappers (Conv2DBackpropInput, ResizeBilinear,
// ResizeNearestNeighbor, ResizeBicubic, ResizeArea, DepthToSpace, SpaceToDepth, SpaceToBatchND,
// BatchToSpaceND, BatchMatMul*, ClipByValue), compiled and run against
// references written from TensorFlow's op documentation, in NHWC.
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

// TF's Conv2DBackpropInput: the transpose of a Conv2D of an input of
// `out` [N,H,W,C] (filter [kh,kw,C,M]) applied to dy [N,oh,ow,M].
Floats ConvBackpropInputNhwc(const Floats& dy, const Ints& dyd, const Floats& f, const Ints& fd, const Ints& out,
                             const Window& win) {
  const int64_t N = out[0], H = out[1], W = out[2], C = out[3], M = fd[3];
  Floats x(static_cast<size_t>(N * H * W * C), 0.f);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < dyd[1]; ++oh)
      for (int64_t ow = 0; ow < dyd[2]; ++ow)
        for (int64_t i = 0; i < win.kh; ++i)
          for (int64_t j = 0; j < win.kw; ++j) {
            const int64_t ih = oh * win.sh + i * win.dh - win.pt, iw = ow * win.sw + j * win.dw - win.pl;
            if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
            for (int64_t c = 0; c < C; ++c)
              for (int64_t m = 0; m < M; ++m)
                x[((n * H + ih) * W + iw) * C + c] +=
                    dy[((n * dyd[1] + oh) * dyd[2] + ow) * M + m] * f[((i * win.kw + j) * C + c) * M + m];
          }
  return x;
}

TEST(TfImageOps, Conv2DBackpropInputSameAndValidStrided) {
  for (const char* padding : {"SAME", "VALID"}) {
    SCOPED_TRACE(padding);
    const Ints out = {1, 7, 6, 2}, fd = {3, 3, 2, 3};
    Window win = std::string(padding) == "SAME" ? SameWindow(7, 6, 3, 3, 2, 2) : Window{3, 3, 2, 2};
    const Ints dyd = {1, win.OutH(7), win.OutW(6), 3};
    TfGraph g;
    g.Placeholder("dy", dyd);
    g.ConstI32("sizes", {4}, {1, 7, 6, 2});
    const Floats f = Iota(54, 0.05f, -0.4f);
    g.ConstF("f", fd, f);
    auto* n = g.Node("Conv2DBackpropInput", "y", {"sizes", "f", "dy"});
    SetS(n, "padding", padding);
    SetList(n, "strides", {1, 2, 2, 1});
    const Floats dy = Iota(static_cast<size_t>(dyd[1] * dyd[2] * 3), 0.1f, -1.f);
    auto r = RunTf(g, {Host<float>(dyd, dy)});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ((*r)[0].dims, out);
    ExpectNear((*r)[0].f(), ConvBackpropInputNhwc(dy, dyd, f, fd, out, win));
  }
}

TEST(TfImageOps, Conv2DBackpropInputNchwWithDilation) {
  const Ints out = {1, 7, 6, 2}, fd = {3, 3, 2, 3};
  const Window win = SameWindow(7, 6, 3, 3, 1, 1, 2, 2);
  const Ints dyd = {1, win.OutH(7), win.OutW(6), 3};
  const Floats f = Iota(54, 0.05f, -0.4f);
  const Floats dy = Iota(static_cast<size_t>(dyd[1] * dyd[2] * 3), 0.1f, -1.f);
  TfGraph g;
  g.Placeholder("dy", {1, 3, dyd[1], dyd[2]});
  g.ConstI32("sizes", {4}, {1, 2, 7, 6});
  g.ConstF("f", fd, f);
  auto* n = g.Node("Conv2DBackpropInput", "y", {"sizes", "f", "dy"});
  SetS(n, "padding", "SAME");
  SetS(n, "data_format", "NCHW");
  SetList(n, "strides", {1, 1, 1, 1});
  SetList(n, "dilations", {1, 1, 2, 2});
  auto r = RunTf(g, {Host<float>({1, 3, dyd[1], dyd[2]}, NhwcToNchw(dy, dyd))});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{1, 2, 7, 6}));
  ExpectNear((*r)[0].f(), NhwcToNchw(ConvBackpropInputNhwc(dy, dyd, f, fd, out, win), out));
}

TEST(TfImageOps, Conv2DBackpropInputRefusesAComputedSize) {
  TfGraph g;
  g.Placeholder("dy", {1, 4, 4, 3});
  g.Placeholder("sizes", {4}, tf::DT_INT32);
  g.ConstF("f", {3, 3, 2, 3}, Iota(54));
  auto* n = g.Node("Conv2DBackpropInput", "y", {"sizes", "f", "dy"});
  SetS(n, "padding", "SAME");
  SetList(n, "strides", {1, 2, 2, 1});
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "input_sizes (input 0) must be a constant"));
}

// tf.image.resize (bilinear) as TF computes it: in = (out + 0.5) * scale - 0.5
// with half_pixel_centers, out * scale otherwise; scale = (in-1)/(out-1) when
// align_corners; the lower index clamps to 0, the upper to in - 1.
Floats ResizeBilinearNhwc(const Floats& x, const Ints& d, int64_t oh, int64_t ow, bool align, bool half) {
  const int64_t N = d[0], H = d[1], W = d[2], C = d[3];
  auto scale = [&](int64_t in, int64_t out) {
    return align && out > 1 ? static_cast<float>(in - 1) / (out - 1) : static_cast<float>(in) / out;
  };
  const float sh = scale(H, oh), sw = scale(W, ow);
  Floats y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t c = 0; c < C; ++c) {
          const float fy = half ? (i + 0.5f) * sh - 0.5f : i * sh, fx = half ? (j + 0.5f) * sw - 0.5f : j * sw;
          const int64_t y0 = std::max<int64_t>(static_cast<int64_t>(std::floor(fy)), 0),
                        x0 = std::max<int64_t>(static_cast<int64_t>(std::floor(fx)), 0);
          const int64_t y1 = std::min<int64_t>(static_cast<int64_t>(std::ceil(fy)), H - 1),
                        x1 = std::min<int64_t>(static_cast<int64_t>(std::ceil(fx)), W - 1);
          const float ly = fy - std::floor(fy), lx = fx - std::floor(fx);
          auto at = [&](int64_t yy, int64_t xx) { return x[((n * H + yy) * W + xx) * C + c]; };
          const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * lx;
          const float bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * lx;
          y.push_back(top + (bottom - top) * ly);
        }
  return y;
}

Floats ResizeNearestNhwc(const Floats& x, const Ints& d, int64_t oh, int64_t ow, bool align, bool half) {
  const int64_t N = d[0], H = d[1], W = d[2], C = d[3];
  auto index = [&](int64_t o, int64_t in, int64_t out) {
    const float s = align && out > 1 ? static_cast<float>(in - 1) / (out - 1) : static_cast<float>(in) / out;
    const int64_t i = align ? static_cast<int64_t>(std::round(o * s))
                      : half ? static_cast<int64_t>(std::floor((o + 0.5f) * s))
                             : static_cast<int64_t>(std::floor(o * s));
    return std::min(i, in - 1);
  };
  Floats y;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t c = 0; c < C; ++c) y.push_back(x[((n * H + index(i, H, oh)) * W + index(j, W, ow)) * C + c]);
  return y;
}

TEST(TfImageOps, ResizeFollowsTfCoordinateRules) {
  const Ints d = {1, 3, 4, 2};
  const Floats x = Iota(24, 0.3f, -2.f);
  for (bool bilinear : {true, false})
    for (auto [align, half] : {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}})
      for (Ints size : {Ints{5, 7}, Ints{2, 3}}) {
        SCOPED_TRACE(std::string(bilinear ? "bilinear" : "nearest") + " align=" + std::to_string(align) +
                     " half=" + std::to_string(half) + " size " + std::to_string(size[0]) + "x" + std::to_string(size[1]));
        TfGraph g;
        g.Placeholder("x", d);
        g.ConstI32("size", {2}, {static_cast<int32_t>(size[0]), static_cast<int32_t>(size[1])});
        auto* n = g.Node(bilinear ? "ResizeBilinear" : "ResizeNearestNeighbor", "y", {"x", "size"});
        SetB(n, "align_corners", align);
        SetB(n, "half_pixel_centers", half);
        auto r = RunTf(g, {Host<float>(d, x)});
        ASSERT_TRUE(r.ok()) << r.status().message();
        EXPECT_EQ((*r)[0].dims, (Ints{1, size[0], size[1], 2}));
        ExpectNear((*r)[0].f(), bilinear ? ResizeBilinearNhwc(x, d, size[0], size[1], align, half)
                                         : ResizeNearestNhwc(x, d, size[0], size[1], align, half),
                   1e-4f);
      }
}

// TF's ResizeBicubic: per axis, the taps at floor(in) - 1 .. + 2 of
// in = (o + 0.5) * scale - 0.5 (half_pixel_centers; Keys' a = -0.5, taps
// outside dropped and the rest renormalised) or o * scale (a = -0.75, the
// edge repeats), weights from a 1024-step table of the fraction.
struct Taps {
  int64_t at[4];
  float w[4];
};
Taps BicubicTaps(int64_t o, int64_t in, int64_t out, bool align, bool half) {
  const float scale = align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                       : static_cast<float>(in) / static_cast<float>(out);
  const float loc = half ? (static_cast<float>(o) + 0.5f) * scale - 0.5f : static_cast<float>(o) * scale;
  const int64_t base = static_cast<int64_t>(std::floor(loc));
  const double t = static_cast<double>(std::lrintf((loc - static_cast<float>(base)) * 1024)) / 1024;
  const double a = half ? -0.5 : -0.75;
  auto near = [a](double s) { return ((a + 2) * s - (a + 3)) * s * s + 1; };
  auto far = [a](double s) { return ((a * s - 5 * a) * s + 8 * a) * s - 4 * a; };
  const double c[4] = {far(1 + t), near(t), near(1 - t), far(2 - t)};
  Taps r{};
  double sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int64_t i = base - 1 + k;
    r.at[k] = std::min(std::max<int64_t>(i, 0), in - 1);
    r.w[k] = half && r.at[k] != i ? 0.f : static_cast<float>(c[k]);
    sum += r.w[k];
  }
  if (half)
    for (float& w : r.w) w = static_cast<float>(w / sum);
  return r;
}

Floats ResizeBicubicNhwc(const Floats& x, const Ints& d, int64_t oh, int64_t ow, bool align, bool half) {
  const int64_t H = d[1], W = d[2], C = d[3];
  Floats y;
  for (int64_t i = 0; i < oh; ++i) {
    const Taps ty = BicubicTaps(i, H, oh, align, half);
    for (int64_t j = 0; j < ow; ++j) {
      const Taps tx = BicubicTaps(j, W, ow, align, half);
      for (int64_t c = 0; c < C; ++c) {
        double acc = 0;
        for (int p = 0; p < 4; ++p)
          for (int q = 0; q < 4; ++q) acc += ty.w[p] * tx.w[q] * x[(ty.at[p] * W + tx.at[q]) * C + c];
        y.push_back(static_cast<float>(acc));
      }
    }
  }
  return y;
}

// TF's ResizeArea: output (i, j) averages the input cells that
// [i * sh, (i + 1) * sh) x [j * sw, (j + 1) * sw) covers, weighted by the
// part covered (indices past the end read the last cell).
Floats ResizeAreaNhwc(const Floats& x, const Ints& d, int64_t oh, int64_t ow, bool align) {
  const int64_t H = d[1], W = d[2], C = d[3];
  auto scale_of = [align](int64_t in, int64_t out) {
    return align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                            : static_cast<float>(in) / static_cast<float>(out);
  };
  const float sh = scale_of(H, oh), sw = scale_of(W, ow);
  auto part = [](int64_t k, float lo, float hi, float s) {
    const float fk = static_cast<float>(k);
    return fk < lo ? (fk + 1 > hi ? s : fk + 1 - lo) : (fk + 1 > hi ? hi - fk : 1.f);
  };
  Floats y;
  for (int64_t i = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j)
      for (int64_t c = 0; c < C; ++c) {
        const float y0 = static_cast<float>(i) * sh, y1 = static_cast<float>(i + 1) * sh;
        const float x0 = static_cast<float>(j) * sw, x1 = static_cast<float>(j + 1) * sw;
        double acc = 0;
        for (auto k = static_cast<int64_t>(std::floor(y0)); k < static_cast<int64_t>(std::ceil(y1)); ++k)
          for (auto l = static_cast<int64_t>(std::floor(x0)); l < static_cast<int64_t>(std::ceil(x1)); ++l)
            acc += part(k, y0, y1, sh) * part(l, x0, x1, sw) *
                   x[(std::min(k, H - 1) * W + std::min(l, W - 1)) * C + c];
        y.push_back(static_cast<float>(acc / (sh * sw)));
      }
  return y;
}

TEST(TfImageOps, ResizeBicubicAndAreaFollowTf) {
  const Ints d = {1, 4, 5, 2};
  const Floats x = Iota(40, 0.3f, -2.f);
  for (auto [align, half] : {std::pair{false, false}, std::pair{true, false}, std::pair{false, true}})
    for (Ints size : {Ints{7, 9}, Ints{3, 2}}) {
      SCOPED_TRACE("align=" + std::to_string(align) + " half=" + std::to_string(half) + " size " +
                   std::to_string(size[0]) + "x" + std::to_string(size[1]));
      TfGraph g;
      g.Placeholder("x", d);
      g.ConstI32("size", {2}, {static_cast<int32_t>(size[0]), static_cast<int32_t>(size[1])});
      auto* n = g.Node("ResizeBicubic", "cubic", {"x", "size"});
      SetB(n, "align_corners", align);
      SetB(n, "half_pixel_centers", half);
      SetB(g.Node("ResizeArea", "area", {"x", "size"}), "align_corners", align);
      auto r = RunTf(g, {Host<float>(d, x)}, Outs({"cubic", "area"}));
      ASSERT_TRUE(r.ok()) << r.status().message();
      EXPECT_EQ((*r)[0].dims, (Ints{1, size[0], size[1], 2}));
      ExpectNear((*r)[0].f(), ResizeBicubicNhwc(x, d, size[0], size[1], align, half), 1e-4f);
      ExpectNear((*r)[1].f(), ResizeAreaNhwc(x, d, size[0], size[1], align), 1e-4f);
    }
}

TEST(TfImageOps, DepthToSpaceAndBackIsTheIdentity) {
  // depth index (i*b + j)*C + c of [1,2,3,8] moves to row 2h+i, column 2w+j.
  const Ints d = {1, 2, 3, 8};
  Floats x(48);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  TfGraph g;
  g.Placeholder("x", d);
  SetI(g.Node("DepthToSpace", "d2s", {"x"}), "block_size", 2);
  SetI(g.Node("SpaceToDepth", "s2d", {"d2s"}), "block_size", 2);
  auto r = RunTf(g, {Host<float>(d, x)}, Outs({"d2s", "s2d"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ((*r)[0].dims, (Ints{1, 4, 6, 2}));
  const Floats y = (*r)[0].f();
  for (int64_t h = 0; h < 4; ++h)
    for (int64_t w = 0; w < 6; ++w)
      for (int64_t c = 0; c < 2; ++c) {
        const int64_t src = ((h / 2) * 3 + w / 2) * 8 + ((h % 2) * 2 + w % 2) * 2 + c;
        ASSERT_EQ(y[(h * 6 + w) * 2 + c], x[src]) << h << "," << w << "," << c;
      }
  EXPECT_EQ((*r)[1].f(), x);
}

TEST(TfImageOps, SpaceToBatchThenBatchToSpaceRoundTrips) {
  // [1,5,4,1] padded to 6x4, 2x2 blocks: batch b = i*2 + j holds rows 2h+i-1, columns 2w+j.
  const Ints d = {1, 5, 4, 1};
  Floats x(20);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i + 1);
  TfGraph g;
  g.Placeholder("x", d);
  g.ConstI32("block", {2}, {2, 2});
  g.ConstI32("pads", {2, 2}, {1, 0, 0, 0});
  g.Node("SpaceToBatchND", "s2b", {"x", "block", "pads"});
  g.Node("BatchToSpaceND", "b2s", {"s2b", "block", "pads"});
  auto r = RunTf(g, {Host<float>(d, x)}, Outs({"s2b", "b2s"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ((*r)[0].dims, (Ints{4, 3, 2, 1}));
  const Floats s = (*r)[0].f();
  for (int64_t b = 0; b < 4; ++b)
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t w = 0; w < 2; ++w) {
        const int64_t y = h * 2 + b / 2 - 1, xx = w * 2 + b % 2;
        ASSERT_EQ(s[(b * 3 + h) * 2 + w], y < 0 ? 0.f : x[y * 4 + xx]) << b << "," << h << "," << w;
      }
  EXPECT_EQ((*r)[1].f(), x);
}

TEST(TfImageOps, BatchMatMulV2BroadcastsAndAdjoints) {
  const Ints xd = {2, 1, 3, 4}, yd = {3, 5, 4};  // adj_y: y is [3, 5, 4] read as [3, 4, 5]
  const Floats x = Iota(24, 0.1f, -1.f), y = Iota(60, 0.05f, -0.3f);
  TfGraph g;
  g.Placeholder("x", xd);
  g.ConstF("y", yd, y);
  SetB(g.Node("BatchMatMulV2", "z", {"x", "y"}), "adj_y", true);
  auto r = RunTf(g, {Host<float>(xd, x)});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ((*r)[0].dims, (Ints{2, 3, 3, 5}));
  Floats want;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 5; ++j) {
          double acc = 0;
          for (int64_t k = 0; k < 4; ++k) acc += x[(a * 3 + i) * 4 + k] * y[(b * 5 + j) * 4 + k];
          want.push_back(static_cast<float>(acc));
        }
  ExpectNear((*r)[0].f(), want);
}

TEST(TfImageOps, ClipByValueWithScalarAndBroadcastBounds) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.ConstF("lo", {}, {-0.5f});
  g.ConstF("hi", {}, {0.5f});
  g.ConstF("lo3", {3}, {-1.f, 0.f, 0.2f});
  g.Node("ClipByValue", "a", {"x", "lo", "hi"});
  g.Node("ClipByValue", "b", {"x", "lo3", "hi"});
  const Floats x = {-2, -0.3f, 0.1f, 0.7f, 0.4f, -0.1f};
  auto r = RunTf(g, {Host<float>({2, 3}, x)}, Outs({"a", "b"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  ExpectNear((*r)[0].f(), {-0.5f, -0.3f, 0.1f, 0.5f, 0.4f, -0.1f});
  ExpectNear((*r)[1].f(), {-1.f, 0.f, 0.2f, 0.5f, 0.4f, 0.2f});
}

}  // namespace
}  // namespace ge::test
