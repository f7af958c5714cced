// The arithmetic mappers of tf_ops_arith.cc, compiled and run against
// references written from TensorFlow's op documentation (tf.math.*):
// rounding halves to even, FloorMod's sign from the divisor, Mod's from the
// dividend, FloorDiv rounding towards -inf for floats and integers, and
// the attribute defaults (LeakyRelu's alpha 0.2, Elu's alpha 1, SELU's
// constants).
#include <cmath>

#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

// TF's documented SELU constants (tf.nn.selu).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

// Banker's rounding, written out (tf.math.round: "rounds half to even").
float RoundHalfEven(float v) {
  const float f = std::floor(v), d = v - f;
  if (d < 0.5f) return f;
  if (d > 0.5f) return f + 1;
  return std::fmod(f, 2.0f) == 0 ? f : f + 1;
}

TEST(TfArithOps, UnaryOpsMatchTheirDocumentedFormulas) {
  const Floats x = {-2.5f, -1.5f, -0.7f, -0.5f, 0, 0.5f, 1.5f, 2.5f, 3.2f, 0.3f};
  const std::map<std::string, std::function<double(double)>> ops = {
      {"Erf", [](double v) { return std::erf(v); }},
      {"Floor", [](double v) { return std::floor(v); }},
      {"Ceil", [](double v) { return std::ceil(v); }},
      {"Round", [](double v) { return RoundHalfEven(static_cast<float>(v)); }},
      {"Sign", [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; }},
      {"Reciprocal", [](double v) { return 1 / v; }},
      {"Inv", [](double v) { return 1 / v; }},
      {"Elu", [](double v) { return v > 0 ? v : std::exp(v) - 1; }},
      {"Selu", [](double v) { return kSeluScale * (v > 0 ? v : kSeluAlpha * (std::exp(v) - 1)); }},
      {"Softplus", [](double v) { return std::log(1 + std::exp(v)); }},
      {"Softsign", [](double v) { return v / (1 + std::fabs(v)); }},
      {"Square", [](double v) { return v * v; }},
      {"LeakyRelu", [](double v) { return v < 0 ? 0.2 * v : v; }}};  // TF's default alpha
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    TfGraph g;
    g.Placeholder("x", {2, 5});
    g.Node(op, "y", {"x"});
    auto out = RunTf(g, {Host<float>({2, 5}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const Floats y = (*out)[0].f();
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = f(x[i]);
      if (std::isinf(want)) EXPECT_EQ(y[i], static_cast<float>(want)) << x[i];
      else EXPECT_NEAR(y[i], want, 1e-5 * std::max(1.0, std::fabs(want))) << x[i];
    }
  }
}

TEST(TfArithOps, RsqrtIsSqrtThenReciprocal) {
  TfGraph g;
  g.Placeholder("x", {4});
  g.Node("Rsqrt", "y", {"x"});
  auto out = RunTf(g, {Host<float>({4}, {0.25f, 1, 4, 16})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectNear((*out)[0].f(), {2, 1, 0.5f, 0.25f}, 1e-6f);
  auto graph = Parse(g);
  ASSERT_TRUE(graph.ok());
  EXPECT_EQ((*graph)->FindNode("y")->type(), "Reciprocal");
  EXPECT_EQ((*graph)->FindNode("y/sqrt")->type(), "Sqrt");
}

TEST(TfArithOps, LeakyReluAlphaAttributeAndEluOnNchwHeldValues) {
  const Floats x = Iota(12);
  TfGraph g;
  g.Placeholder("x", {1, 2, 2, 3});
  NchwHeld(g, "h", "x", 3);
  auto* l = g.Node("LeakyRelu", "lr", {"h"});
  SetF(l, "alpha", 0.5f);
  g.Node("Elu", "y", {"lr"});
  auto out = RunTf(g, {Host<float>({}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats want;
  for (float v : x) {
    const double lr = v < 0 ? 0.5 * v : v;
    want.push_back(static_cast<float>(lr > 0 ? lr : std::expm1(lr)));
  }
  ExpectNear((*out)[0].f(), want, 1e-5f);
}

TEST(TfArithOps, BinaryOpsBroadcast) {
  const Floats a = {-7, -5.5f, -1, 0, 3, 7.5f}, b = {2, -3, 4};  // a [2,3], b [3]
  auto floor_mod = [](double x, double y) { return x - std::floor(x / y) * y; };  // tf.math.floormod
  const std::map<std::string, std::function<double(double, double)>> ops = {
      {"SquaredDifference", [](double x, double y) { return (x - y) * (x - y); }},
      {"Pow", [](double x, double y) { return std::pow(x, y); }},
      {"FloorMod", floor_mod},
      {"Mod", [](double x, double y) { return std::fmod(x, y); }},  // C semantics: truncating divide
      {"TruncateMod", [](double x, double y) { return std::fmod(x, y); }},
      {"FloorDiv", [](double x, double y) { return std::floor(x / y); }}};
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    auto out = RunWithConst(op, {2, 3}, a, {3}, b);
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want;
    for (size_t i = 0; i < 6; ++i) want.push_back(static_cast<float>(f(a[i], b[i % 3])));
    ExpectNear((*out)[0].f(), want, 1e-4f);
  }
}

// Python's // and % on integers (TF's FloorDiv and FloorMod), C's % (TF's
// Mod and TruncateMod).
TEST(TfArithOps, IntegerModuloAndFloorDivision) {
  const std::vector<int32_t> a = {7, -7, 7, -7, 0, 9}, b = {3, 3, -3, -3, 5, 3};
  auto floor_div = [](int32_t x, int32_t y) {
    const int32_t q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
  };
  const std::map<std::string, std::function<int32_t(int32_t, int32_t)>> ops = {
      {"FloorDiv", floor_div},
      {"FloorMod", [&](int32_t x, int32_t y) { return x - floor_div(x, y) * y; }},
      {"Mod", [](int32_t x, int32_t y) { return x % y; }},
      {"TruncateMod", [](int32_t x, int32_t y) { return x % y; }}};
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    TfGraph g;
    g.Placeholder("a", {6}, tf::DT_INT32);
    g.Placeholder("b", {6}, tf::DT_INT32);
    SetType(g.Node(op, "y", {"a", "b"}), "T", tf::DT_INT32);
    auto out = RunTf(g, {Host<int32_t>({6}, a), Host<int32_t>({6}, b)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    std::vector<int32_t> want;
    for (size_t i = 0; i < a.size(); ++i) want.push_back(f(a[i], b[i]));
    EXPECT_EQ((*out)[0].as<int32_t>(), want);
  }
}

TEST(TfArithOps, AddNSumsEveryInput) {
  TfGraph g;
  g.Placeholder("a", {2, 2});
  g.Placeholder("b", {2, 2});
  g.ConstF("c", {2, 2}, {100, 200, 300, 400});
  auto* s = g.Node("AddN", "y", {"a", "b", "c"});
  SetI(s, "N", 3);
  auto out = RunTf(g, {Host<float>({2, 2}, {1, 2, 3, 4}), Host<float>({2, 2}, {10, 20, 30, 40})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].f(), (Floats{111, 222, 333, 444}));
}

TEST(TfArithOps, SwishAsExportersWriteIt) {  // x * sigmoid(x): tf.nn.silu frozen
  TfGraph g;
  g.Placeholder("x", {4});
  g.Node("Sigmoid", "sig", {"x"});
  g.Node("Mul", "y", {"x", "sig"});
  const Floats x = {-3, -0.5f, 0, 2};
  auto out = RunTf(g, {Host<float>({4}, x)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats want;
  for (float v : x) want.push_back(v / (1 + std::exp(-v)));
  ExpectNear((*out)[0].f(), want, 1e-6f);
}

TEST(TfArithOps, UnsupportedDtypesNameTheNode) {
  TfGraph g;
  g.Placeholder("a", {2}, tf::DT_BOOL);
  SetType(g.Node("FloorDiv", "fd", {"a", "a"}), "T", tf::DT_BOOL);
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "node fd (FloorDiv)"));
  EXPECT_NE(r.status().message().find("bool"), std::string::npos) << r.status().message();
  TfGraph p;
  p.Placeholder("i", {2}, tf::DT_INT32);
  p.ConstI32("e", {2}, {2, -1});
  SetType(p.Node("Pow", "pw", {"i", "e"}), "T", tf::DT_INT32);
  auto pr = Parse(p);
  ASSERT_TRUE(Refused(pr, StatusCode::kUnsupported, "node pw (Pow): an integer base to a negative integer power"));
  TfGraph h;
  h.Placeholder("i", {2}, tf::DT_INT32);
  SetType(h.Node("Softplus", "sp", {"i"}), "T", tf::DT_INT32);
  auto s = Parse(h);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "sp (Softplus)"));
}

TEST(TfArithOps, TrigonometryRintAndFiniteTests) {
  const Floats x = {-0.9f, -0.25f, 0.f, 0.5f, 0.75f};
  TfGraph g;
  g.Placeholder("x", {5});
  const std::vector<std::pair<std::string, double (*)(double)>> unary = {
      {"Sin", std::sin},   {"Cos", std::cos},   {"Tan", std::tan},     {"Asin", std::asin},
      {"Acos", std::acos}, {"Atan", std::atan}, {"Sinh", std::sinh},   {"Cosh", std::cosh},
      {"Asinh", std::asinh}, {"Atanh", std::atanh}};
  std::vector<std::string> outs;
  for (const auto& [op, f] : unary) {
    g.Node(op, op, {"x"});
    outs.push_back(op);
  }
  g.ConstF("two", {}, {2.f});
  g.Node("AddV2", "x2", {"x", "two"});
  g.Node("Acosh", "Acosh", {"x2"});
  g.ConstF("ten", {}, {10.f});
  g.Node("Mul", "x10", {"x", "ten"});
  g.Node("Rint", "rint", {"x10"});  // -9, -2.5 -> -2, 0, 5, 7.5 -> 8: halves to even
  g.ConstF("z", {5}, {1.f, 0.f, 0.f, -1.f, 2.f});
  g.Node("RealDiv", "ratio", {"z", "x"});  // 1/-0.9, 0, nan, -2, 2.67 (0/0 = nan)
  g.Node("Log", "log", {"x"});             // nan, nan, -inf, finite, finite
  for (const char* op : {"IsNan", "IsInf", "IsFinite"}) g.Node(op, op, {"log"});
  g.Node("DivNoNan", "div0", {"x", "z"});
  g.Node("MulNoNan", "mul0", {"log", "z"});
  for (const char* o : {"Acosh", "rint", "IsNan", "IsInf", "IsFinite", "div0", "mul0"}) outs.push_back(o);
  auto r = RunTf(g, {Host<float>({5}, x)}, Outs(outs));
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (size_t k = 0; k < unary.size(); ++k) {
    Floats want;
    for (float v : x) want.push_back(static_cast<float>(unary[k].second(v)));
    SCOPED_TRACE(unary[k].first);
    ExpectNear((*r)[k].f(), want, 1e-5f);
  }
  const size_t k = unary.size();
  Floats acosh;
  for (float v : x) acosh.push_back(static_cast<float>(std::acosh(v + 2.0)));
  ExpectNear((*r)[k].f(), acosh, 1e-5f);
  EXPECT_EQ((*r)[k + 1].f(), (Floats{-9, -2, 0, 5, 8}));
  using B = std::vector<uint8_t>;
  EXPECT_EQ((*r)[k + 2].as<uint8_t>(), (B{1, 1, 0, 0, 0}));
  EXPECT_EQ((*r)[k + 3].as<uint8_t>(), (B{0, 0, 1, 0, 0}));
  EXPECT_EQ((*r)[k + 4].as<uint8_t>(), (B{0, 0, 0, 1, 1}));
  ExpectNear((*r)[k + 5].f(), {-0.9f, 0, 0, -0.5f, 0.375f});
  const Floats mul = (*r)[k + 6].f();  // log(x) * z, 0 where z is 0 even for nan or -inf
  EXPECT_TRUE(std::isnan(mul[0]));
  EXPECT_EQ(mul[1], 0.f);
  EXPECT_EQ(mul[2], 0.f);
  EXPECT_NEAR(mul[3], -std::log(0.5f), 1e-6);
  EXPECT_NEAR(mul[4], 2 * std::log(0.75f), 1e-6);
}

TEST(TfArithOps, SizeRankEuclideanNormAndPassThroughs) {
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.Node("Size", "size", {"x"});
  SetType(g.Node("Size", "size64", {"x"}), "out_type", tf::DT_INT64);
  g.Node("Rank", "rank", {"x"});
  g.ConstI32("last", {1}, {1});
  SetB(g.Node("EuclideanNorm", "norm", {"x", "last"}), "keep_dims", true);
  g.Node("PreventGradient", "pg", {"x"});
  g.Node("CheckNumerics", "cn", {"pg"});
  g.ConstF("default", {2}, {7, 8});
  auto* d = g.Node("PlaceholderWithDefault", "pwd", {"default"});
  d->mutable_attr()->erase("T");
  SetType(d, "dtype", tf::DT_FLOAT);
  auto r = RunTf(g, {Host<float>({2, 3}, Floats{3, 4, 0, 1, 2, 2})},
                 Outs({"size", "size64", "rank", "norm", "cn", "pwd"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].as<int32_t>(), (I32{6}));
  EXPECT_EQ((*r)[1].as<int64_t>(), (std::vector<int64_t>{6}));
  EXPECT_EQ((*r)[2].as<int32_t>(), (I32{2}));
  EXPECT_EQ((*r)[3].dims, (Ints{2, 1}));
  ExpectNear((*r)[3].f(), {5, 3});
  EXPECT_EQ((*r)[4].f(), (Floats{3, 4, 0, 1, 2, 2}));
  EXPECT_EQ((*r)[5].f(), (Floats{7, 8}));
}

// TF's FakeQuant, written from its documentation and fake_quant_ops_functor.h:
// nudge [min, max] so that 0 is on the grid, clamp, round to the grid.
Floats FakeQuantReference(const Floats& x, float min, float max, int bits, bool narrow) {
  const float qmin = narrow ? 1.f : 0.f, qmax = static_cast<float>((1 << bits) - 1);
  const float scale = (max - min) / (qmax - qmin);
  const float zf = qmin - min / scale;
  const float zero = zf < qmin ? qmin : zf > qmax ? qmax : std::round(zf);
  const float nmin = (qmin - zero) * scale, nmax = (qmax - zero) * scale;
  Floats y;
  for (float v : x) {
    const float c = std::min(std::max(v, nmin), nmax) - nmin;
    y.push_back(std::floor(c * (1.f / scale) + 0.5f) * scale + nmin);
  }
  return y;
}

TEST(TfArithOps, FakeQuantNudgesTheRangeAndRoundsToTheGrid) {
  // min -1 / max 1 on 8 bits: the zero point 127.5 is nudged to 128, so the
  // range becomes [-1.0039, 0.9961]; 0 stays exactly 0.
  const Floats x = {-2.f, -1.f, -0.3f, 0.f, 0.3f, 0.996f, 1.5f, 0.0039f};
  TfGraph g;
  g.Placeholder("x", {8});
  auto* args = g.Node("FakeQuantWithMinMaxArgs", "args", {"x"});
  SetF(args, "min", -1.f);
  SetF(args, "max", 1.f);
  g.ConstF("lo", {}, {-0.5f});
  g.ConstF("hi", {}, {3.f});
  auto* vars = g.Node("FakeQuantWithMinMaxVars", "vars", {"x", "lo", "hi"});
  SetI(vars, "num_bits", 4);
  SetB(vars, "narrow_range", true);
  g.Node("FakeQuantWithMinMaxArgs", "defaults", {"x"});  // [-6, 6], 8 bits
  auto r = RunTf(g, {Host<float>({8}, x)}, Outs({"args", "vars", "defaults"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), FakeQuantReference(x, -1.f, 1.f, 8, false));
  EXPECT_EQ((*r)[0].f()[3], 0.f);
  EXPECT_EQ((*r)[1].f(), FakeQuantReference(x, -0.5f, 3.f, 4, true));
  EXPECT_EQ((*r)[2].f(), FakeQuantReference(x, -6.f, 6.f, 8, false));
  // A computed range and min >= max are refused naming the node.
  TfGraph bad;
  bad.Placeholder("x", {2});
  bad.Placeholder("lo", {});
  bad.ConstF("hi", {}, {1.f});
  bad.Node("FakeQuantWithMinMaxVars", "fq", {"x", "lo", "hi"});
  auto e = RunTf(bad, {Host<float>({2}, Floats{0, 1}), Host<float>({}, Floats{0})}, Outs({"fq"}));
  ASSERT_TRUE(Refused(e, StatusCode::kUnsupported, "fq"));
  EXPECT_NE(e.status().message().find("constant"), std::string::npos) << e.status().message();
  TfGraph flipped;
  flipped.Placeholder("x", {2});
  auto* f = flipped.Node("FakeQuantWithMinMaxArgs", "fq", {"x"});
  SetF(f, "min", 1.f);
  SetF(f, "max", -1.f);
  auto fe = RunTf(flipped, {Host<float>({2}, Floats{0, 1})}, Outs({"fq"}));
  ASSERT_TRUE(Refused(fe, StatusCode::kUnsupported, "must be below max"));
}

}  // namespace
}  // namespace ge::test
