// The 3-D window mappers (tf_ops_volume.cc: Conv3D, MaxPool3D, AvgPool3D)
// in both data formats, and LRN, against NDHWC / NHWC references written
// from TensorFlow's op documentation.
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

struct Vol {
  int64_t n, d, h, w, c;
  int64_t At(int64_t b, int64_t z, int64_t y, int64_t x, int64_t ch) const {
    return (((b * d + z) * h + y) * w + x) * c + ch;
  }
};

// TF's SAME (or VALID) window on x NDHWC: conv with filter [k,k,k,C,M]
// (pool: M = C, max or the average of the in-bounds elements).
enum class Kind { kConv, kMax, kAvg };
Floats Window3dNdhwc(const Floats& x, const Vol& v, const Floats& f, int64_t m, int64_t k, int64_t s, bool same,
                     Kind kind, Vol* out) {
  int64_t pads[3] = {0, 0, 0}, outs[3];
  const int64_t ins[3] = {v.d, v.h, v.w};
  for (int i = 0; i < 3; ++i) {
    if (same) pads[i] = TfSame(ins[i], k, s).first;
    outs[i] = same ? (ins[i] + s - 1) / s : (ins[i] - k) / s + 1;
  }
  const int64_t oc = kind == Kind::kConv ? m : v.c;
  *out = Vol{v.n, outs[0], outs[1], outs[2], oc};
  Floats y(static_cast<size_t>(v.n * outs[0] * outs[1] * outs[2] * oc));
  for (int64_t b = 0; b < v.n; ++b)
    for (int64_t z = 0; z < outs[0]; ++z)
      for (int64_t yy = 0; yy < outs[1]; ++yy)
        for (int64_t xx = 0; xx < outs[2]; ++xx)
          for (int64_t o = 0; o < oc; ++o) {
            double acc = kind == Kind::kMax ? -1e30 : 0;
            int count = 0;
            for (int64_t i = 0; i < k; ++i)
              for (int64_t j = 0; j < k; ++j)
                for (int64_t l = 0; l < k; ++l) {
                  const int64_t iz = z * s + i - pads[0], iy = yy * s + j - pads[1], ix = xx * s + l - pads[2];
                  if (iz < 0 || iz >= v.d || iy < 0 || iy >= v.h || ix < 0 || ix >= v.w) continue;
                  ++count;
                  if (kind == Kind::kConv) {
                    for (int64_t ch = 0; ch < v.c; ++ch)
                      acc += x[v.At(b, iz, iy, ix, ch)] * f[(((i * k + j) * k + l) * v.c + ch) * m + o];
                  } else {
                    const double e = x[v.At(b, iz, iy, ix, o)];
                    acc = kind == Kind::kMax ? std::max(acc, e) : acc + e;
                  }
                }
            y[out->At(b, z, yy, xx, o)] = static_cast<float>(kind == Kind::kAvg ? acc / count : acc);
          }
  return y;
}

Floats NdhwcToNcdhw(const Floats& x, const Vol& v) {
  Floats y(x.size());
  for (int64_t b = 0; b < v.n; ++b)
    for (int64_t z = 0; z < v.d; ++z)
      for (int64_t yy = 0; yy < v.h; ++yy)
        for (int64_t xx = 0; xx < v.w; ++xx)
          for (int64_t ch = 0; ch < v.c; ++ch)
            y[static_cast<size_t>((((b * v.c + ch) * v.d + z) * v.h + yy) * v.w + xx)] = x[v.At(b, z, yy, xx, ch)];
  return y;
}

tf::NodeDef* Window(TfGraph& g, const std::string& op, const std::string& name, std::initializer_list<std::string> in,
                    const char* padding, int64_t s, bool ndhwc) {
  tf::NodeDef* n = g.Node(op, name, in);
  SetS(n, "padding", padding);
  SetList(n, "strides", ndhwc ? Ints{1, s, s, s, 1} : Ints{1, 1, s, s, s});
  if (!ndhwc) SetS(n, "data_format", "NCDHW");
  return n;
}

TEST(TfVolumeOps, Conv3DSameStridedNdhwcAndValidNcdhw) {
  const Vol v{1, 5, 4, 6, 2};
  const Floats x = Iota(240, 0.1f, -1.f), f = Iota(27 * 2 * 3, 0.05f, -0.5f);
  for (bool ndhwc : {true, false}) {
    SCOPED_TRACE(ndhwc ? "NDHWC" : "NCDHW");
    TfGraph g;
    g.Placeholder("x", ndhwc ? Ints{1, 5, 4, 6, 2} : Ints{1, 2, 5, 4, 6});
    g.ConstF("f", {3, 3, 3, 2, 3}, f);
    Window(g, "Conv3D", "y", {"x", "f"}, ndhwc ? "SAME" : "VALID", ndhwc ? 2 : 1, ndhwc);
    auto r = RunTf(g, {Host<float>(ndhwc ? Ints{1, 5, 4, 6, 2} : Ints{1, 2, 5, 4, 6}, ndhwc ? x : NdhwcToNcdhw(x, v))});
    ASSERT_TRUE(r.ok()) << r.status().message();
    Vol o{};
    const Floats want = Window3dNdhwc(x, v, f, 3, 3, ndhwc ? 2 : 1, ndhwc, Kind::kConv, &o);
    ExpectNear((*r)[0].f(), ndhwc ? want : NdhwcToNcdhw(want, o), 1e-3f);
  }
}

TEST(TfVolumeOps, Pools3DAverageOnlyTheInBoundsElements) {
  const Vol v{1, 3, 4, 5, 2};
  const Floats x = Iota(120, 0.2f, -2.f);
  TfGraph g;
  g.Placeholder("x", {1, 3, 4, 5, 2});
  for (const char* op : {"MaxPool3D", "AvgPool3D"}) {
    tf::NodeDef* n = Window(g, op, op, {"x"}, "SAME", 2, true);
    SetList(n, "ksize", {1, 3, 3, 3, 1});
  }
  auto r = RunTf(g, {Host<float>({1, 3, 4, 5, 2}, x)}, Outs({"MaxPool3D", "AvgPool3D"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  Vol o{};
  ExpectNear((*r)[0].f(), Window3dNdhwc(x, v, {}, 0, 3, 2, true, Kind::kMax, &o));
  ExpectNear((*r)[1].f(), Window3dNdhwc(x, v, {}, 0, 3, 2, true, Kind::kAvg, &o));
  EXPECT_EQ((*r)[0].dims, (Ints{1, 2, 2, 3, 2}));
}

TEST(TfVolumeOps, Window3DRefusesExplicitPaddingAndChannelStrides) {
  TfGraph g;
  g.Placeholder("x", {1, 3, 4, 5, 2});
  SetList(Window(g, "MaxPool3D", "pool", {"x"}, "EXPLICIT", 1, true), "ksize", {1, 2, 2, 2, 1});
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "pool (MaxPool3D): padding 'EXPLICIT'"));
  TfGraph c;
  c.Placeholder("x", {1, 3, 4, 5, 2});
  tf::NodeDef* n = Window(c, "AvgPool3D", "pool", {"x"}, "SAME", 1, true);
  SetList(n, "ksize", {1, 2, 2, 2, 2});
  r = Parse(c);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "attribute 'ksize' must be 1 on the batch and channel dims"));
}

TEST(TfVolumeOps, LrnOverTheLastAxis) {
  const Ints d = {1, 2, 2, 5};
  const Floats x = Iota(20, 0.3f, -2.f);
  TfGraph g;
  g.Placeholder("x", d);
  auto* n = g.Node("LRN", "y", {"x"});
  SetI(n, "depth_radius", 1);
  SetF(n, "bias", 2.f);
  SetF(n, "alpha", 0.5f);
  SetF(n, "beta", 0.75f);
  g.Node("LRN", "defaults", {"x"});  // depth_radius 5, bias 1, alpha 1, beta 0.5
  auto r = RunTf(g, {Host<float>(d, x)}, Outs({"y", "defaults"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto lrn = [&](int64_t radius, double bias, double alpha, double beta) {
    Floats y(x.size());
    for (int64_t p = 0; p < 4; ++p)
      for (int64_t c = 0; c < 5; ++c) {
        double sq = 0;
        for (int64_t k = std::max<int64_t>(c - radius, 0); k <= std::min<int64_t>(c + radius, 4); ++k)
          sq += x[p * 5 + k] * x[p * 5 + k];
        y[p * 5 + c] = static_cast<float>(x[p * 5 + c] / std::pow(bias + alpha * sq, beta));
      }
    return y;
  };
  ExpectNear((*r)[0].f(), lrn(1, 2, 0.5, 0.75));
  ExpectNear((*r)[1].f(), lrn(5, 1, 1, 0.5));
}

}  // namespace
}  // namespace ge::test
