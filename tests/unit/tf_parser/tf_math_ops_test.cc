// Activations, binary arithmetic (with broadcasting, also on NCHW-held
// values), MatMul, reductions, Softmax and Cast, compiled and run.
#include "tf_test_util.h"

namespace ge::test {
namespace {

TEST(TfMathOps, Activations) {
  const Floats x = {-7, -1, -0.5f, 0, 0.5f, 3, 6.5f, 9};
  const std::map<std::string, std::function<float(float)>> ops = {
      {"Relu", [](float v) { return std::max(v, 0.f); }},
      {"Relu6", [](float v) { return std::min(std::max(v, 0.f), 6.f); }},
      {"Sigmoid", [](float v) { return 1.f / (1.f + std::exp(-v)); }},
      {"Tanh", [](float v) { return std::tanh(v); }},
      {"Abs", [](float v) { return std::fabs(v); }},
      {"Neg", [](float v) { return -v; }}};
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    TfGraph g;
    g.Placeholder("x", {2, 4});
    g.Node(op, "y", {"x"});
    auto out = RunTf(g, {Host<float>({2, 4}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want;
    for (float v : x) want.push_back(f(v));
    ExpectNear((*out)[0].f(), want, 1e-5f);
  }
}

TEST(TfMathOps, BinaryOpsBroadcast) {
  const Floats a = {1, 2, 3, 4, 5, 6}, b = {2, 4, 8};
  const std::map<std::string, std::function<float(float, float)>> ops = {
      {"Add", std::plus<float>()},      {"AddV2", std::plus<float>()}, {"Sub", std::minus<float>()},
      {"Mul", std::multiplies<float>()}, {"RealDiv", std::divides<float>()},
      {"Maximum", [](float x, float y) { return std::max(x, y); }}};
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    auto out = RunWithConst(op, {2, 3}, a, {3}, b);
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want;
    for (size_t i = 0; i < 6; ++i) want.push_back(f(a[i], b[i % 3]));
    ExpectNear((*out)[0].f(), want);
  }
}

TEST(TfMathOps, ElementwiseOnNchwHeldValuesBroadcastLikeNhwc) {
  // held [1,2,2,3] (NCHW inside) with: a [3] const, a [1,1,1,3] const, a scalar,
  // a 4-D NHWC placeholder and a [2,1,3] placeholder (reshaped and transposed).
  const Floats x = Iota(12), other = Iota(12, 0.3f, 0.5f), mid = {1, 2, 3, 4, 5, 6};
  TfGraph g;
  g.Placeholder("x", {1, 2, 2, 3});
  g.Placeholder("other", {1, 2, 2, 3});
  g.Placeholder("mid", {2, 1, 3});
  NchwHeld(g, "held", "x", 3);
  g.ConstF("c3", {3}, {1, 2, 3});
  g.ConstF("c1113", {1, 1, 1, 3}, {10, 20, 30});
  g.ConstF("two", {}, {2});
  g.Node("AddV2", "e1", {"held", "c3"});
  g.Node("Mul", "e2", {"c1113", "e1"});
  g.Node("RealDiv", "e3", {"e2", "two"});
  g.Node("Sub", "e4", {"e3", "other"});
  g.Node("AddV2", "e5", {"e4", "mid"});
  auto out = RunTf(g, {Host<float>({}, x), Host<float>({}, other), Host<float>({}, mid)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats want(12);
  for (size_t i = 0; i < 12; ++i) {
    const size_t c = i % 3, h = i / 6;
    want[i] = (x[i] + (c + 1)) * (10.f * (c + 1)) / 2 - other[i] + mid[h * 3 + c];
  }
  ExpectNear((*out)[0].f(), want, 1e-4f);
}

TEST(TfMathOps, MatMulWithTransposes) {
  const Floats a = {1, 2, 3, 4, 5, 6};      // [2,3]
  const Floats b = {1, 0, 2, 1, 0, 3};      // [3,2]
  const Floats ab = {5, 11, 14, 23};        // a @ b
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      TfGraph g;
      // Store the operands transposed when the attribute says so.
      g.Placeholder("a", ta ? Ints{3, 2} : Ints{2, 3});
      g.ConstF("b", tb ? Ints{2, 3} : Ints{3, 2}, tb ? Floats{1, 2, 0, 0, 1, 3} : b);
      auto* mm = g.Node("MatMul", "y", {"a", "b"});
      SetB(mm, "transpose_a", ta);
      SetB(mm, "transpose_b", tb);
      auto out = RunTf(g, {Host<float>({}, ta ? Floats{1, 4, 2, 5, 3, 6} : a)});
      ASSERT_TRUE(out.ok()) << out.status().message();
      ExpectNear((*out)[0].f(), ab);
      auto graph = Parse(g);
      ASSERT_TRUE(graph.ok());
      EXPECT_EQ((*graph)->FindNode("y")->type(), ta || tb ? "Gemm" : "MatMul");
    }
}

struct ReduceCase {
  std::string op;
  std::vector<int32_t> axes;
  bool keep;
};

// x NHWC [1,2,3,2] reduced on the host.
Floats ReduceRef(const Floats& x, const ReduceCase& c, Ints* dims) {
  const Ints xd = {1, 2, 3, 2};
  std::vector<bool> red(4, false);
  for (int32_t a : c.axes) red[(a + 4) % 4] = true;
  dims->clear();
  for (size_t i = 0; i < 4; ++i)
    if (!red[i]) dims->push_back(xd[i]);
    else if (c.keep) dims->push_back(1);
  Ints od;
  for (size_t i = 0; i < 4; ++i) od.push_back(red[i] ? 1 : xd[i]);
  const int64_t n = NumElements(od);
  Floats acc(static_cast<size_t>(n), c.op == "Max" ? -1e30f : 0.f);
  Floats count(static_cast<size_t>(n), 0.f);
  for (int64_t i = 0; i < 12; ++i) {
    Ints idx = {0, i / 6, (i / 2) % 3, i % 2};
    int64_t o = 0;
    for (size_t k = 0; k < 4; ++k) o = o * od[k] + (red[k] ? 0 : idx[k]);
    acc[o] = c.op == "Max" ? std::max(acc[o], x[i]) : acc[o] + x[i];
    count[o] += 1;
  }
  if (c.op == "Mean")
    for (size_t i = 0; i < acc.size(); ++i) acc[i] /= count[i];
  return acc;
}

TEST(TfMathOps, ReductionsRemapAxesOnNchwHeldValues) {
  const Floats x = Iota(12);
  for (const ReduceCase& c : {ReduceCase{"Mean", {1, 2}, false}, ReduceCase{"Mean", {1, 2}, true},
                              ReduceCase{"Sum", {3}, false}, ReduceCase{"Sum", {-1}, true},
                              ReduceCase{"Max", {2}, false}, ReduceCase{"Max", {0, 1, 2, 3}, false}})
    for (bool held : {false, true}) {
      SCOPED_TRACE(c.op + " keep=" + std::to_string(c.keep) + " held=" + std::to_string(held));
      TfGraph g;
      g.Placeholder("x", {1, 2, 3, 2});
      if (held) NchwHeld(g, "h", "x", 2);
      g.ConstI32("axes", {static_cast<int64_t>(c.axes.size())}, c.axes);
      auto* r = g.Node(c.op, "y", {held ? "h" : "x", "axes"});
      SetB(r, "keep_dims", c.keep);
      Ints dims;
      const Floats want = ReduceRef(x, c, &dims);
      auto out = RunTf(g, {Host<float>({}, x)});
      ASSERT_TRUE(out.ok()) << out.status().message();
      EXPECT_EQ((*out)[0].dims, dims);
      ExpectNear((*out)[0].f(), want, 1e-5f);
    }
}

TEST(TfMathOps, GlobalMeanAfterConvNeedsNoTransposeBack) {
  TfGraph g;
  g.Placeholder("x", {1, 2, 3, 2});
  NchwHeld(g, "h", "x", 2);
  g.ConstI32("axes", {2}, {1, 2});
  g.Node("Mean", "gap", {"h", "axes"});
  auto graph = Parse(g);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(CountOps(**graph, "Transpose"), 1);  // only the input's
  EXPECT_EQ((*graph)->FindNode("gap")->GetInts("axes"), (Ints{2, 3}));
}

TEST(TfMathOps, SoftmaxOverTheLastAxisAlsoWhenHeldAsNchw) {
  const Floats x = Iota(12);
  for (bool held : {false, true}) {
    TfGraph g;
    g.Placeholder("x", {1, 2, 2, 3});
    if (held) NchwHeld(g, "h", "x", 3);
    g.Node("Softmax", "y", {held ? "h" : "x"});
    auto out = RunTf(g, {Host<float>({}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    Floats want(12);
    for (size_t r = 0; r < 4; ++r) {
      float s = 0;
      for (size_t c = 0; c < 3; ++c) s += std::exp(x[r * 3 + c]);
      for (size_t c = 0; c < 3; ++c) want[r * 3 + c] = std::exp(x[r * 3 + c]) / s;
    }
    ExpectNear((*out)[0].f(), want, 1e-5f);
  }
}

TEST(TfMathOps, CastToInt32) {
  TfGraph g;
  g.Placeholder("x", {4});
  auto* c = g.Node("Cast", "y", {"x"});
  SetType(c, "SrcT", tf::DT_FLOAT);
  SetType(c, "DstT", tf::DT_INT32);
  auto out = RunTf(g, {Host<float>({4}, {1.7f, -2.2f, 0.f, 5.f})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].as<int32_t>(), (std::vector<int32_t>{1, -2, 0, 5}));
}

}  // namespace
}  // namespace ge::test
