// layernorm_fusion and gelu_fusion on the decomposed patterns PyTorch exports.
#include <cmath>

#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

struct LnOptions {
  std::vector<int64_t> axes1 = {-1}, axes2 = {-1};
  float exponent = 2.f;
  float eps = 1e-5f;
  bool eps_from_data = false;
  bool affine = true;
  bool extra_sub_consumer = false;
  std::vector<int64_t> x_dims = {2, 3, 8};
};

// x [2,3,8] -> the 9-node LayerNorm pattern -> out
Tiny LayerNormGraph(const LnOptions& o = {}) {
  Tiny t;
  Node* x = t.Data("x", F32(o.x_dims));
  Node* m = t.Op("ReduceMean", "mean", {x}, {{"axes", o.axes1}});
  Node* d = t.Op("Sub", "sub", {x, m});
  Node* p = t.Op("Pow", "pow", {d, t.Const("two", Scalar(o.exponent))});
  Node* v = t.Op("ReduceMean", "var", {p}, {{"axes", o.axes2}});
  Node* e = o.eps_from_data ? t.Data("eps", F32({})) : t.Const("eps", Scalar(o.eps));
  Node* s = t.Op("Sqrt", "sqrt", {t.Op("Add", "add_eps", {v, e})});
  Node* y = t.Op("Div", "div", {d, s});
  if (o.affine) {
    y = t.Op("Mul", "mul", {y, t.Const("gamma", F32s({8}, Pseudo(8, 0.3f, -1.f)))});
    y = t.Op("Add", "add", {t.Const("beta", F32s({8}, Pseudo(8, 0.1f, -0.2f, 1))), y});
  }
  if (o.extra_sub_consumer)
    t.Output({y, d});
  else
    t.Output({y});
  return t;
}

std::vector<Floats> LnInputs(const LnOptions& o = {}) {
  std::vector<Floats> in = {Pseudo(48, 0.4f, -2.f)};
  if (o.eps_from_data) in.push_back({o.eps});
  return in;
}

TEST(FusionLayerNorm, FusesThePatternIntoOneNode) {
  Tiny t = LayerNormGraph();
  ASSERT_TRUE(t.RunPass(LayerNormFusionPass()).ok());
  EXPECT_EQ(t.Count("LayerNormalization"), 1);
  EXPECT_EQ(t.Count("ReduceMean") + t.Count("Sub") + t.Count("Pow") + t.Count("Sqrt") + t.Count("Div") +
                t.Count("Mul") + t.Count("Add"),
            0);
  Node* ln = t.Find("LayerNormalization");
  EXPECT_EQ(ln->GetInt("axis"), -1);
  EXPECT_FLOAT_EQ(ln->GetFloat("epsilon"), 1e-5f);
  EXPECT_EQ(ln->num_inputs(), 3u);
  auto counts = ExpectSameNumerics(LayerNormGraph(), LnInputs(), 1e-4f);
  EXPECT_EQ(counts["LayerNormalization"], 1);
}

TEST(FusionLayerNorm, CarriesItsEpsilonAndWorksWithoutAffine) {
  LnOptions o;
  o.eps = 0.5f;  // large enough to matter in the result
  o.affine = false;
  Tiny t = LayerNormGraph(o);
  ASSERT_TRUE(t.RunPass(LayerNormFusionPass()).ok());
  ASSERT_EQ(t.Count("LayerNormalization"), 1);
  EXPECT_FLOAT_EQ(t.Find("LayerNormalization")->GetFloat("epsilon"), 0.5f);
  ExpectSameNumerics(LayerNormGraph(o), LnInputs(o), 1e-4f);
}

// A dynamic model (batch and sequence unknown): the normalised dim is known,
// so the pattern still fuses.
TEST(FusionLayerNorm, FusesWithUnknownLeadingDims) {
  LnOptions o;
  o.x_dims = {-1, -1, 8};
  Tiny t = LayerNormGraph(o);
  ASSERT_TRUE(t.RunPass(LayerNormFusionPass()).ok());
  EXPECT_EQ(t.Count("LayerNormalization"), 1);
  o.x_dims = {-1, 3, -1};  // the normalised dim itself unknown: left alone
  Tiny u = LayerNormGraph(o);
  ASSERT_TRUE(u.RunPass(LayerNormFusionPass()).ok());
  EXPECT_EQ(u.Count("LayerNormalization"), 0);
}

TEST(FusionLayerNorm, NotWithDifferentOrNonLastAxes) {
  for (auto [a1, a2] : {std::pair<std::vector<int64_t>, std::vector<int64_t>>{{-1}, {1}},
                        {{1}, {1}},
                        {{-2, -1}, {-2, -1}}}) {
    LnOptions o;
    o.axes1 = a1;
    o.axes2 = a2;
    Tiny t = LayerNormGraph(o);
    ASSERT_TRUE(t.RunPass(LayerNormFusionPass()).ok());
    EXPECT_EQ(t.Count("LayerNormalization"), 0) << a1.size() << " " << a1[0] << " / " << a2[0];
  }
  LnOptions o;
  o.axes2 = {1};
  auto counts = ExpectSameNumerics(LayerNormGraph(o), LnInputs(o), 1e-4f);
  EXPECT_EQ(counts["LayerNormalization"], 0);
}

TEST(FusionLayerNorm, NotWithAnotherExponentANonConstantEpsilonOrASharedIntermediate) {
  LnOptions e3;
  e3.exponent = 3.f;
  LnOptions dyn;
  dyn.eps_from_data = true;
  LnOptions shared;
  shared.extra_sub_consumer = true;
  for (const LnOptions& o : {e3, dyn, shared}) {
    Tiny t = LayerNormGraph(o);
    ASSERT_TRUE(t.RunPass(LayerNormFusionPass()).ok());
    EXPECT_EQ(t.Count("LayerNormalization"), 0);
  }
  auto counts = ExpectSameNumerics(LayerNormGraph(dyn), LnInputs(dyn), 1e-4f);
  EXPECT_EQ(counts["LayerNormalization"], 0);
}

// The erf GELU in the operand orders exporters produce.
enum class GeluForm { kDivHalfAfter, kMulHalfFirst, kHalfOnTheSum, kSwappedOperands };

Tiny GeluGraph(GeluForm f, bool share_erf = false) {
  Tiny t;
  Node* x0 = t.Data("x", F32({2, 5}));
  Node* x = t.Op("Relu", "pre", {x0});  // x comes from a node, as in a network
  Node* scaled = f == GeluForm::kSwappedOperands
                     ? t.Op("Mul", "scale", {t.Const("rsqrt2", Scalar(0.70710677f)), x})
                     : t.Op("Div", "scale", {x, t.Const("sqrt2", Scalar(1.4142135f))});
  Node* erf = t.Op("Erf", "erf", {scaled});
  Node* one = t.Const("one", Scalar(1.f));
  Node* sum = f == GeluForm::kSwappedOperands ? t.Op("Add", "add", {one, erf}) : t.Op("Add", "add", {erf, one});
  Node* half = t.Const("half", Scalar(0.5f));
  Node* y = nullptr;
  switch (f) {
    case GeluForm::kDivHalfAfter:
      y = t.Op("Mul", "mul2", {t.Op("Mul", "mul1", {x, sum}), half});
      break;
    case GeluForm::kMulHalfFirst:
      y = t.Op("Mul", "mul2", {t.Op("Mul", "mul1", {x, half}), sum});
      break;
    case GeluForm::kHalfOnTheSum:
      y = t.Op("Mul", "mul2", {x, t.Op("Mul", "mul1", {sum, half})});
      break;
    case GeluForm::kSwappedOperands:
      y = t.Op("Mul", "mul2", {half, t.Op("Mul", "mul1", {sum, x})});
      break;
  }
  if (share_erf)
    t.Output({y, erf});
  else
    t.Output({y});
  return t;
}

TEST(FusionGelu, FusesEveryOperandOrder) {
  for (GeluForm f : {GeluForm::kDivHalfAfter, GeluForm::kMulHalfFirst, GeluForm::kHalfOnTheSum,
                     GeluForm::kSwappedOperands}) {
    Tiny t = GeluGraph(f);
    ASSERT_TRUE(t.RunPass(GeluFusionPass()).ok());
    EXPECT_EQ(t.Count("Gelu"), 1) << static_cast<int>(f);
    EXPECT_EQ(t.Count("Erf") + t.Count("Mul") + t.Count("Div") + t.Count("Add"), 0) << static_cast<int>(f);
    Node* gelu = t.Find("Gelu");
    ASSERT_NE(gelu, nullptr);
    EXPECT_EQ(gelu->InputNode(0)->name(), "pre");
    ExpectSameNumerics(GeluGraph(f), {Pseudo(10, 0.5f, -2.5f)}, 1e-5f);
  }
}

TEST(FusionGelu, NotWhenAnIntermediateHasASecondConsumer) {
  Tiny t = GeluGraph(GeluForm::kDivHalfAfter, true);
  ASSERT_TRUE(t.RunPass(GeluFusionPass()).ok());
  EXPECT_EQ(t.Count("Gelu"), 0);
  EXPECT_EQ(t.Count("Erf"), 1);
}

TEST(FusionGelu, NotWithAnotherConstant) {
  Tiny t;
  Node* x = t.Data("x", F32({4}));
  Node* erf = t.Op("Erf", "erf", {t.Op("Div", "scale", {x, t.Const("c", Scalar(2.f))})});
  Node* sum = t.Op("Add", "add", {erf, t.Const("one", Scalar(1.f))});
  t.Output({t.Op("Mul", "mul2", {t.Op("Mul", "mul1", {x, sum}), t.Const("half", Scalar(0.5f))})});
  ASSERT_TRUE(t.RunPass(GeluFusionPass()).ok());
  EXPECT_EQ(t.Count("Gelu"), 0);
}

}  // namespace
}  // namespace ge::fusion_test
