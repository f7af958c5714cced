// conv_input_scale on tiny graphs: a squeeze-excitation gate's Mul read by
// a Conv becomes the Conv's input 4 (the weights scaled per run), and only
// where the weights are small beside the gated tensor, with one image, one
// group, a per-channel gate and no other reader of the product.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

struct SeShape {
  int64_t n = 1, c = 16, hw = 12, out = 8, group = 1;
  bool full_gate = false;  // the gate has x's shape (not per channel)
  bool second_reader = false;  // the product is also a graph output
  bool residual = false;  // the output is project + x (out == c)
};

// x -> GlobalAveragePool -> 1x1 Conv -> Relu -> 1x1 Conv -> Sigmoid = gate;
// Mul(x, gate) -> 1x1 Conv (`out` channels).
struct Se {
  Tiny t;
  Node *mul = nullptr, *gate = nullptr, *x = nullptr, *project = nullptr;
};

std::unique_ptr<Se> BuildSe(const SeShape& s) {
  auto se = std::make_unique<Se>();
  Tiny& t = se->t;
  const int64_t mid = 4, cg = s.c / s.group;
  se->x = t.Data("x", F32({s.n, s.c, s.hw, s.hw}));
  Node* pooled = t.Op("GlobalAveragePool", "gap", {se->x});
  Node* fc1 = t.Op("Conv", "fc1",
                   {pooled, t.Const("w1", F32s({mid, s.c, 1, 1}, Pseudo(mid * s.c, 0.05f, -0.25f, 1))),
                    t.Const("b1", F32s({mid}, Pseudo(mid, 0.1f, -0.2f, 2)))});
  Node* fc2 = t.Op("Conv", "fc2",
                   {t.Op("Relu", "relu", {fc1}), t.Const("w2", F32s({s.c, mid, 1, 1}, Pseudo(s.c * mid, 0.2f, -1.f, 3))),
                    t.Const("b2", F32s({s.c}, Pseudo(s.c, 0.1f, -0.3f, 4)))});
  se->gate = t.Op("Sigmoid", "gate", {fc2});
  Node* gate = se->gate;
  if (s.full_gate) gate = t.Op("Add", "full_gate", {se->gate, t.Op("Mul", "zero", {se->x, t.Const("z", Scalar(0.f))})});
  se->mul = t.Op("Mul", "scale", {se->x, gate});
  se->project = t.Op("Conv", "project",
                     {se->mul, t.Const("w3", F32s({s.out, cg, 1, 1}, Pseudo(s.out * cg, 0.1f, -0.5f, 5))),
                      t.Const("b3", F32s({s.out}, Pseudo(s.out, 0.1f, -0.4f, 6)))},
                     {{"group", s.group}});
  std::vector<Node*> outs = {s.residual ? t.Op("Add", "res", {se->project, se->x}) : se->project};
  if (s.second_reader) outs.push_back(se->mul);
  t.Output(outs);
  return se;
}

TEST(FusionConvInputScale, TheGateBecomesTheConvsInputScale) {
  auto se = BuildSe({});
  ASSERT_TRUE(se->t.RunPass(ConvInputScalePass()).ok());
  EXPECT_EQ(se->t.Count("Mul"), 0);
  ASSERT_EQ(se->project->num_inputs(), 5u);
  EXPECT_EQ(se->project->InputNode(0), se->x);
  EXPECT_FALSE(se->project->HasInput(3));
  EXPECT_EQ(se->project->InputNode(4), se->gate);
}

TEST(FusionConvInputScale, LeavesTheOthers) {
  const std::vector<std::pair<const char*, SeShape>> cases = {
      {"weights more than a quarter of x", {.c = 16, .hw = 4, .out = 16}},
      {"two images", {.n = 2}},
      {"grouped conv", {.group = 2}},
      {"gate not per channel", {.full_gate = true}},
      {"the product read elsewhere too", {.second_reader = true}},
  };
  for (const auto& [why, shape] : cases) {
    auto se = BuildSe(shape);
    ASSERT_TRUE(se->t.RunPass(ConvInputScalePass()).ok()) << why;
    EXPECT_EQ(se->project->InputNode(0), se->mul) << why;
    EXPECT_FALSE(se->project->HasInput(4)) << why;
  }
}

TEST(FusionConvInputScale, OutputsMatchTheMul) {
  // With a residual after the projection (conv_post_ops fuses it as input 3
  // first) and without.
  for (bool residual : {false, true}) {
    auto se = BuildSe({.c = 32, .hw = 16, .out = 32, .residual = residual});
    auto counts = ExpectSameNumerics(se->t, {Pseudo(32 * 16 * 16, 0.3f, -1.5f)});
    EXPECT_EQ(counts["Mul"], 0) << "residual " << residual;
  }
}

}  // namespace
}  // namespace ge::fusion_test
