// matmul_slice_split on tiny graphs: a packed QKV projection (x W + b read
// only by column Slices) becomes one product per Slice over its columns of
// W and b, and nothing else does.
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

struct PackedShape {
  int64_t seq = 6, e = 8;
  bool fused = true;           // FusedMatMul with a bias, else MatMul
  bool extra_reader = false;   // the product is also a graph output
  bool fourth = false;         // a fourth Slice, of q's columns again: more columns than the product
  int64_t axis = -1;           // the Slices' axis
  bool negative_ends = false;  // the last window as [-e, large)
};

struct Packed {
  Tiny t;
  Node* mm = nullptr;
  std::vector<Node*> slices;
};

// x [1, seq, e] -> x W[e, 3e] (+ b) -> three Slices of e columns -> Add(q, k) * v.
std::unique_ptr<Packed> BuildPacked(const PackedShape& s) {
  auto p = std::make_unique<Packed>();
  Tiny& t = p->t;
  const int64_t e = s.e, n = 3 * e;
  Node* x = t.Data("x", F32({1, s.seq, e}));
  Node* w = t.Const("w", F32s({e, n}, Pseudo(static_cast<size_t>(e * n), 0.05f, -0.25f, 1)));
  p->mm = s.fused ? t.Op("FusedMatMul", "qkv", {x, w, t.Const("b", F32s({n}, Pseudo(n, 0.1f, -0.5f, 2)))})
                  : t.Op("MatMul", "qkv", {x, w});
  for (int64_t i = 0; i < (s.fourth ? 4 : 3); ++i) {
    int64_t b = (i % 3) * e, end = (i % 3 + 1) * e;
    if (s.negative_ends && i == 2) {
      b = -e;
      end = 1 << 30;
    }
    p->slices.push_back(t.Op("Slice", "slice" + std::to_string(i),
                             {p->mm, t.Const("st" + std::to_string(i), test::I64s({b})),
                              t.Const("en" + std::to_string(i), test::I64s({end})),
                              t.Const("ax" + std::to_string(i), test::I64s({s.axis}))}));
  }
  Node* y = t.Op("Mul", "mix", {t.Op("Add", "qk", {p->slices[0], p->slices[1]}), p->slices[2]});
  if (s.fourth) y = t.Op("Add", "again", {y, p->slices[3]});
  std::vector<Node*> outs = {y};
  if (s.extra_reader) outs.push_back(p->mm);
  t.Output(outs);
  return p;
}

TEST(FusionMatMulSliceSplit, EachSliceBecomesAProductOverItsColumns) {
  for (bool fused : {true, false}) {
    auto p = BuildPacked({.fused = fused, .negative_ends = true});
    ASSERT_TRUE(p->t.RunPass(MatMulSliceSplitPass()).ok());
    EXPECT_EQ(p->t.Count("Slice"), 0) << "fused " << fused;
    const char* type = fused ? "FusedMatMul" : "MatMul";
    ASSERT_EQ(p->t.Count(type), 3) << "fused " << fused;
    for (Node* n : p->t.g().nodes()) {
      if (n->type() != type) continue;
      EXPECT_EQ(n->InputNode(0)->name(), "x");
      ASSERT_EQ(n->InputNode(1)->type(), op::kConst);
      EXPECT_EQ(n->InputNode(1)->output_desc(0).dims, (Dims{8, 8})) << n->name();
      if (fused) {
        ASSERT_EQ(n->InputNode(2)->type(), op::kConst);
        EXPECT_EQ(n->InputNode(2)->output_desc(0).dims, (Dims{8})) << n->name();
      }
      EXPECT_EQ(n->output_desc(0).dims, (Dims{1, 6, 8})) << n->name();
    }
  }
}

TEST(FusionMatMulSliceSplit, LeavesTheOthers) {
  const std::vector<std::pair<const char*, PackedShape>> cases = {
      {"the product read elsewhere too", {.extra_reader = true}},
      {"more columns than the product", {.fourth = true}},
      {"a slice of another axis", {.seq = 18, .e = 6, .axis = 1}},
  };
  for (const auto& [why, shape] : cases) {
    auto p = BuildPacked(shape);
    ASSERT_TRUE(p->t.RunPass(MatMulSliceSplitPass()).ok()) << why;
    EXPECT_EQ(p->t.Count("Slice"), shape.fourth ? 4 : 3) << why;
    EXPECT_EQ(p->t.Count(shape.fused ? "FusedMatMul" : "MatMul"), 1) << why;
  }
}

TEST(FusionMatMulSliceSplit, OutputsMatchTheSlices) {
  for (bool fused : {true, false}) {
    auto p = BuildPacked({.seq = 5, .e = 16, .fused = fused, .negative_ends = true});
    auto counts = ExpectSameNumerics(p->t, {Pseudo(5 * 16, 0.3f, -1.5f)});
    EXPECT_EQ(counts["Slice"], 0) << "fused " << fused;
  }
}

}  // namespace
}  // namespace ge::fusion_test
