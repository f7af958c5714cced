// attention_fusion on tiny attention graphs in the two layouts PyTorch
// exports: GPT/BERT style [B,S,H,D] -> Transpose [0,2,1,3] (4-D) and
// nn.MultiheadAttention style [S,B*H,D] -> Transpose [1,0,2] (3-D).
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

constexpr int64_t kS = 6, kH = 2, kD = 4;

struct AttnOptions {
  bool four_d = true;
  std::string scale_on = "product";  // "q", "k", "product", "none"
  std::string scale_op = "Div";      // Div or Mul
  bool scalar_scale = true;          // false: a per-D (or per-Sk) constant
  std::string mask = "const";        // "const", "data", "none"
  int64_t softmax_axis = -1;
  bool q_transpose_also_output = false;
  bool pv_also_output = false;
};

// Transpose perms of the two layouts.
Dims QPerm(bool four_d) { return four_d ? Dims{0, 2, 1, 3} : Dims{1, 0, 2}; }
Dims KPerm(bool four_d) { return four_d ? Dims{0, 2, 3, 1} : Dims{1, 2, 0}; }

Dims InDims(bool four_d) { return four_d ? Dims{1, kS, kH, kD} : Dims{kS, kH, kD}; }

Tiny AttentionGraph(const AttnOptions& o = {}) {
  Tiny t;
  const Dims in = InDims(o.four_d);
  Node* q = t.Data("q", F32(in));
  Node* k = t.Data("k", F32(in));
  Node* v = t.Data("v", F32(in));
  Node* mask = nullptr;
  if (o.mask == "data") mask = t.Data("mask", F32({kS, kS}));
  if (o.mask == "const") mask = t.Const("mask", F32s({kS, kS}, Pseudo(kS * kS, 0.3f, -1.5f, 2)));
  auto scale = [&](Node* x, const std::string& name, int64_t last) {
    Tensor c = o.scalar_scale ? Scalar(o.scale_op == "Div" ? 2.f : 0.5f) : F32s({last}, Pseudo(last, 0.1f, 0.7f));
    return t.Op(o.scale_op, name, {x, t.Const(name + "_c", std::move(c))});
  };
  Node* qt = t.Op("Transpose", "q_t", {q}, {{"perm", QPerm(o.four_d)}});
  Node* kt = t.Op("Transpose", "k_t", {k}, {{"perm", KPerm(o.four_d)}});
  Node* vt = t.Op("Transpose", "v_t", {v}, {{"perm", QPerm(o.four_d)}});
  Node* qs = o.scale_on == "q" ? scale(qt, "q_scale", kD) : qt;
  Node* ks = o.scale_on == "k" ? scale(kt, "k_scale", kS) : kt;
  Node* s = t.Op("MatMul", "qk", {qs, ks});
  if (o.scale_on == "product") s = scale(s, "scale", kS);
  if (mask) s = t.Op("Add", "add_mask", {s, mask});
  Node* p = t.Op("Softmax", "softmax", {s}, {{"axis", o.softmax_axis}});
  Node* pv = t.Op("MatMul", "pv", {p, vt});
  Node* y = t.Op("Transpose", "out_t", {pv}, {{"perm", QPerm(o.four_d)}});
  std::vector<Node*> outs = {y};
  if (o.q_transpose_also_output) outs.push_back(qt);
  if (o.pv_also_output) outs.push_back(pv);
  t.Output(outs);
  return t;
}

std::vector<Floats> AttnInputs(const AttnOptions& o = {}) {
  const size_t n = kS * kH * kD;
  std::vector<Floats> in = {Pseudo(n, 0.2f, -1.f, 1), Pseudo(n, 0.15f, -0.7f, 2), Pseudo(n, 0.3f, -1.2f, 3)};
  if (o.mask == "data") in.push_back(Pseudo(kS * kS, 0.4f, -2.f, 4));
  return in;
}

int ChainNodes(const Tiny& t) {
  return t.Count("MatMul") + t.Count("Softmax") + t.Count("Transpose") + t.Count("Div") + t.Count("Mul") +
         t.Count("Add");
}

TEST(FusionAttention, FusesTheGptChainIncludingEveryTranspose) {
  Tiny t = AttentionGraph();
  ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
  ASSERT_EQ(t.Count("FusedAttention"), 1);
  EXPECT_EQ(ChainNodes(t), 0);
  Node* a = t.Find("FusedAttention");
  EXPECT_FLOAT_EQ(a->GetFloat("scale"), 0.5f);
  EXPECT_EQ(a->GetInts("q_perm"), QPerm(true));
  EXPECT_EQ(a->GetInts("k_perm"), KPerm(true));
  EXPECT_EQ(a->GetInts("v_perm"), QPerm(true));
  EXPECT_EQ(a->GetInts("out_perm"), QPerm(true));
  EXPECT_EQ(a->num_inputs(), 4u);
  EXPECT_EQ(a->InputNode(3)->name(), "mask");
  EXPECT_EQ(a->output_desc(0).dims, InDims(true));
  auto counts = ExpectSameNumerics(AttentionGraph(), AttnInputs(), 1e-5f);
  EXPECT_EQ(counts["FusedAttention"], 1);
}

TEST(FusionAttention, TakesTheScaleOnQOrKOrTheProductAsDivOrMul) {
  for (const char* on : {"q", "k", "product", "none"}) {
    for (const char* op : {"Div", "Mul"}) {
      AttnOptions o;
      o.scale_on = on;
      o.scale_op = op;
      Tiny t = AttentionGraph(o);
      ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
      ASSERT_EQ(t.Count("FusedAttention"), 1) << on << " " << op;
      EXPECT_EQ(ChainNodes(t), 0) << on << " " << op;
      EXPECT_FLOAT_EQ(t.Find("FusedAttention")->GetFloat("scale"), std::string(on) == "none" ? 1.f : 0.5f);
      ExpectSameNumerics(AttentionGraph(o), AttnInputs(o), 1e-5f);
    }
  }
}

TEST(FusionAttention, ThreeDimensionalMultiheadLayoutWithAVariableMaskOrNone) {
  for (const char* mask : {"data", "none"}) {
    AttnOptions o;
    o.four_d = false;
    o.scale_on = "q";
    o.mask = mask;
    Tiny t = AttentionGraph(o);
    ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
    ASSERT_EQ(t.Count("FusedAttention"), 1) << mask;
    EXPECT_EQ(ChainNodes(t), 0);
    EXPECT_EQ(t.Find("FusedAttention")->GetInts("k_perm"), KPerm(false));
    EXPECT_EQ(t.Find("FusedAttention")->num_inputs(), std::string(mask) == "none" ? 3u : 4u);
    ExpectSameNumerics(AttentionGraph(o), AttnInputs(o), 1e-5f);
  }
}

// A per-element Div on Q is no scale: it stays a node of its own (and the
// Transpose under it with it); on the product it blocks the fusion.
TEST(FusionAttention, ANonScalarScaleIsNotFolded) {
  AttnOptions o;
  o.scalar_scale = false;
  o.scale_on = "product";
  Tiny t = AttentionGraph(o);
  ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
  EXPECT_EQ(t.Count("FusedAttention"), 0);
  EXPECT_EQ(t.Count("Softmax"), 1);

  o.scale_on = "q";
  Tiny tq = AttentionGraph(o);
  ASSERT_TRUE(tq.RunPass(AttentionFusionPass()).ok());
  ASSERT_EQ(tq.Count("FusedAttention"), 1);
  EXPECT_EQ(tq.Count("Div"), 1);
  EXPECT_EQ(tq.Count("Transpose"), 1);  // q_t, under the Div
  EXPECT_FLOAT_EQ(tq.Find("FusedAttention")->GetFloat("scale"), 1.f);
  EXPECT_FALSE(tq.Find("FusedAttention")->HasAttr("q_perm"));
  ExpectSameNumerics(AttentionGraph(o), AttnInputs(o), 1e-5f);
}

TEST(FusionAttention, DoesNotFireWhenSoftmaxIsNotOverTheLastAxis) {
  for (int64_t axis : {1, 2, -2}) {
    AttnOptions o;
    o.softmax_axis = axis;
    Tiny t = AttentionGraph(o);
    ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
    EXPECT_EQ(t.Count("FusedAttention"), 0) << axis;
    EXPECT_EQ(t.Count("Softmax"), 1);
  }
}

// A Transpose another node reads (here the graph output) stays; the fused
// node reads its result as it is.
TEST(FusionAttention, KeepsATransposeWithAnotherConsumer) {
  AttnOptions o;
  o.q_transpose_also_output = true;
  Tiny t = AttentionGraph(o);
  ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
  ASSERT_EQ(t.Count("FusedAttention"), 1);
  Node* a = t.Find("FusedAttention");
  EXPECT_EQ(a->InputNode(0)->name(), "q_t");
  EXPECT_FALSE(a->HasAttr("q_perm"));
  EXPECT_TRUE(a->HasAttr("k_perm"));
  EXPECT_EQ(t.Count("Transpose"), 1);
  ExpectSameNumerics(AttentionGraph(o), AttnInputs(o), 1e-5f);
}

// The P x V result is a graph output too: it must stay a tensor, so the
// output Transpose is not folded and the fused node produces pv.
TEST(FusionAttention, KeepsAResultWithAnotherConsumer) {
  AttnOptions o;
  o.pv_also_output = true;
  Tiny t = AttentionGraph(o);
  ASSERT_TRUE(t.RunPass(AttentionFusionPass()).ok());
  ASSERT_EQ(t.Count("FusedAttention"), 1);
  EXPECT_FALSE(t.Find("FusedAttention")->HasAttr("out_perm"));
  EXPECT_EQ(t.g().FindNode("out_t")->InputNode(0)->type(), "FusedAttention");
  ExpectSameNumerics(AttentionGraph(o), AttnInputs(o), 1e-5f);
}

TEST(FusionAttention, IsSwitchedOffByDisablePass) {
  auto on = CompileAndRun(AttentionGraph().Clone(), AttnInputs());
  ASSERT_TRUE(on.ok()) << on.status().message();
  EXPECT_EQ(on->counts["FusedAttention"], 1);
  auto off = CompileAndRun(AttentionGraph().Clone(), AttnInputs(), {"attention_fusion"});
  ASSERT_TRUE(off.ok()) << off.status().message();
  EXPECT_EQ(off->counts["FusedAttention"], 0);
  EXPECT_EQ(off->counts["Softmax"], 1);
}

}  // namespace
}  // namespace ge::fusion_test
