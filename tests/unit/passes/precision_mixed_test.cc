// mixed_precision (--precision_mode allow_mix_precision) on tiny graphs: which
// nodes go bf16, where the Casts go, the lists and --keep_dtype, and the
// numerics against the float32 compile.
#include <cmath>

#include "compiler/passes/layout_passes.h"
#include "ge/ops/op_registry.h"
#include "hal/device.h"
#include "tests/unit/passes/fusion_test_util.h"

namespace ge::fusion_test {
namespace {

bool DeviceHasBf16() {
  auto d = hal::GetDevice("");
  return d.ok() && (*d)->capabilities().bf16;
}

#define SKIP_WITHOUT_BF16() \
  if (!DeviceHasBf16()) GTEST_SKIP() << "this CPU has no native bf16 (AVX512-BF16 or AMX): mixed precision is refused"

// x -> Conv [-> Relu] -> MaxPool -> Flatten -> Gemm -> Softmax -> out
Node* Build(Tiny& t, bool relu = false) {
  Node* x = t.Data("x", F32({1, 16, 8, 8}));
  Node* conv = t.Op("Conv", "conv",
                    {x, t.Const("w", F32s({16, 16, 3, 3}, Pseudo(16 * 16 * 9, 0.02f, -0.1f))),
                     t.Const("b", F32s({16}, Pseudo(16, 0.01f)))},
                    {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  Node* pool = t.Op("MaxPool", "pool", {relu ? t.Op("Relu", "relu", {conv}) : conv}, {{"kernel_shape", std::vector<int64_t>{2, 2}},
                                                {"strides", std::vector<int64_t>{2, 2}}});
  Node* flat = t.Op("Flatten", "flat", {pool});
  Node* gemm = t.Op("Gemm", "fc", {flat, t.Const("fw", F32s({10, 256}, Pseudo(2560, 0.01f, -0.05f))),
                                   t.Const("fb", F32s({10}, Pseudo(10, 0.01f)))},
                    {{"transB", int64_t{1}}});
  t.Output({t.Op("Softmax", "softmax", {gemm})});
  return conv;
}

CompileOptions Mixed() {
  CompileOptions o;
  o.precision.mode = CompileOptions::Precision::kMixBf16;
  return o;
}

std::string PrecisionOf(const Node* n) { return n ? n->GetString(kPrecisionAttr, "f32") : "missing"; }

TEST(MixedPrecision, WhiteOpsAndTheGrayOpsAfterThemRunInBf16WithCastsAtTheBorders) {
  SKIP_WITHOUT_BF16();
  Tiny t;
  t.options = Mixed();
  Build(t);
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  auto find = [&](const std::string& name) -> Node* {
    for (Node* n : t.g().nodes())
      if (n->name() == name) return n;
    return nullptr;
  };
  EXPECT_EQ(PrecisionOf(find("conv")), "bf16");
  EXPECT_EQ(PrecisionOf(find("pool")), "bf16");
  EXPECT_EQ(PrecisionOf(find("flat")), "bf16");
  // Its only consumer (Softmax, black) reads f32: the Gemm converts on the way out.
  EXPECT_EQ(PrecisionOf(find("fc")), "bf16_f32_out");
  EXPECT_EQ(PrecisionOf(find("softmax")), "f32");
  EXPECT_EQ(find("fc")->output_desc(0).dtype, DataType::kFloat32);
  EXPECT_EQ(find("pool")->output_desc(0).dtype, DataType::kBFloat16);
  // One Cast: the model input into the bf16 region. Weights stay f32 constants.
  EXPECT_EQ(t.Count("Cast"), 1);
  EXPECT_EQ(find("conv")->InputNode(0)->type(), "Cast");
  EXPECT_EQ(find("conv")->SourceDesc(1)->dtype, DataType::kFloat32);
}

TEST(MixedPrecision, AnOpWithoutABf16KernelStaysF32AndEndsTheRegion) {
  SKIP_WITHOUT_BF16();
  Tiny t;
  t.options = Mixed();
  Build(t, /*relu=*/true);
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  Node* relu = nullptr;
  for (Node* n : t.g().nodes())
    if (n->name() == "relu") relu = n;
  ASSERT_NE(relu, nullptr);
  // Unfused, the Relu (no bf16 kernel) reads f32: the conv writes f32 for it
  // itself (no Cast), and the gray pool after the f32 Relu stays f32.
  EXPECT_EQ(PrecisionOf(relu), "f32");
  EXPECT_EQ(relu->InputNode(0)->name(), "conv");
  EXPECT_EQ(PrecisionOf(relu->InputNode(0)), "bf16_f32_out");
  EXPECT_EQ(relu->InputNode(0)->InputNode(0)->type(), "Cast");
  for (Node* n : t.g().nodes())
    if (n->type() == "MaxPool") {
      EXPECT_EQ(PrecisionOf(n), "f32");
    }
}

TEST(MixedPrecision, KeepDtypeAndTheMixListPinNodesToF32) {
  SKIP_WITHOUT_BF16();
  for (int variant = 0; variant < 3; ++variant) {
    Tiny t;
    t.options = Mixed();
    if (variant == 0) t.options.precision.keep_nodes = {"conv"};
    if (variant == 1) t.options.precision.keep_types = {"Conv"};
    if (variant == 2) t.options.precision.white_remove = {"Conv"};
    Node* conv = Build(t);
    ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
    EXPECT_EQ(PrecisionOf(conv), "f32") << "variant " << variant;
    EXPECT_EQ(conv->output_desc(0).dtype, DataType::kFloat32);
  }
  Tiny t;
  t.options = Mixed();
  t.options.precision.black_add = {"Gemm"};
  Build(t);
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  for (Node* n : t.g().nodes())
    if (n->type() == "Gemm") {
      EXPECT_EQ(PrecisionOf(n), "f32");
    }
}

// Attention: the projections' bf16 results reach FusedAttention through a
// Slice and Reshapes (gray), so Q, K and V are read as bf16 with no Cast;
// the mask stays f32.
TEST(MixedPrecision, AttentionReadsItsProjectionsInBf16AndTheMaskInF32) {
  SKIP_WITHOUT_BF16();
  Tiny t;
  t.options = Mixed();
  Node* x = t.Data("x", F32({8, 16}));
  Node* qkv = t.Op("MatMul", "qkv", {x, t.Const("w", F32s({16, 48}, Pseudo(16 * 48, 0.03f, -0.2f)))});
  auto slice = [&](int i) {
    Node* s = t.Op("Slice", "slice" + std::to_string(i),
                   {qkv, t.Const("b" + std::to_string(i), test::I64s({16 * i})),
                    t.Const("e" + std::to_string(i), test::I64s({16 * (i + 1)})),
                    t.Const("a" + std::to_string(i), test::I64s({1}))});
    return t.Op("Reshape", "reshape" + std::to_string(i), {s, t.Const("shape" + std::to_string(i), test::I64s({8, 2, 8}))});
  };
  Node* q = slice(0);
  Node* k = slice(1);
  Node* v = slice(2);
  Node* attn = t.Op("FusedAttention", "attn", {q, k, v, t.Data("mask", F32({8, 8}))},
                    {{"q_perm", std::vector<int64_t>{1, 0, 2}}, {"k_perm", std::vector<int64_t>{1, 2, 0}},
                     {"v_perm", std::vector<int64_t>{1, 0, 2}}, {"out_perm", std::vector<int64_t>{1, 0, 2}},
                     {"scale", 0.35f}});
  t.Output({attn});
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  EXPECT_EQ(PrecisionOf(attn), "bf16_f32_out");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(attn->SourceDesc(i)->dtype, DataType::kBFloat16) << "input " << i;
  EXPECT_EQ(attn->SourceDesc(3)->dtype, DataType::kFloat32);
  EXPECT_EQ(attn->output_desc(0).dtype, DataType::kFloat32);
  EXPECT_EQ(t.Count("Cast"), 1);  // x into the projection only
}

// A gray op with no bf16 reader after it stays f32: the conv writes f32
// (free) instead of bf16 and a Cast after the pool.
TEST(MixedPrecision, AGrayOpThatFeedsOnlyF32StaysF32) {
  SKIP_WITHOUT_BF16();
  Tiny t;
  t.options = Mixed();
  Node* x = t.Data("x", F32({1, 16, 8, 8}));
  Node* conv = t.Op("Conv", "conv", {x, t.Const("w", F32s({16, 16, 3, 3}, Pseudo(16 * 16 * 9, 0.02f, -0.1f)))},
                    {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  Node* pool = t.Op("MaxPool", "pool", {conv}, {{"kernel_shape", std::vector<int64_t>{2, 2}},
                                                {"strides", std::vector<int64_t>{2, 2}}});
  t.Output({t.Op("Softmax", "softmax", {pool})});
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  EXPECT_EQ(PrecisionOf(conv), "bf16_f32_out");
  EXPECT_EQ(PrecisionOf(pool), "f32");
  EXPECT_EQ(pool->output_desc(0).dtype, DataType::kFloat32);
  EXPECT_EQ(t.Count("Cast"), 1);  // the model input into the conv
}

TEST(MixedPrecision, Fp32ModeChangesNothing) {
  Tiny t;
  Build(t);
  ASSERT_TRUE(t.RunPass(MixedPrecisionPass()).ok());
  EXPECT_EQ(t.Count("Cast"), 0);
  for (Node* n : t.g().nodes()) EXPECT_FALSE(n->HasAttr(kPrecisionAttr)) << n->name();
}

TEST(MixedPrecision, RefusedOnACpuWithoutBf16) {
  if (DeviceHasBf16()) GTEST_SKIP() << "this CPU has native bf16: the refusal is for CPUs without it";
  Tiny t;
  t.options = Mixed();
  Build(t);
  Status s = t.RunPass(MixedPrecisionPass());
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("no native bfloat16"), std::string::npos) << s.message();
}

TEST(MixedPrecision, CompiledModelMatchesFloat32ToBf16Accuracy) {
  SKIP_WITHOUT_BF16();
  Tiny t;
  Build(t);
  const std::vector<Floats> in = {Pseudo(16 * 64, 0.2f, -1.f)};
  auto f32 = test::CompileAndRun(t.Clone(), in);
  ASSERT_TRUE(f32.ok()) << f32.status().message();
  auto bf = test::CompileAndRunWith(t.Clone(), in, Mixed());
  ASSERT_TRUE(bf.ok()) << bf.status().message();
  EXPECT_GE(bf->counts["Cast"], 1);
  double dot = 0, na = 0, nb = 0, worst = 0;
  for (size_t i = 0; i < f32->outputs[0].size(); ++i) {
    const double a = f32->outputs[0][i], b = bf->outputs[0][i];
    dot += a * b;
    na += a * a;
    nb += b * b;
    worst = std::max(worst, std::abs(a - b));
  }
  EXPECT_GT(dot / std::sqrt(na * nb), 0.999);
  EXPECT_LT(worst, 0.02);  // softmax probabilities; bf16 keeps ~3 significant digits
  EXPECT_GT(worst, 0.0);   // it did compute in bf16
}

}  // namespace
}  // namespace ge::fusion_test
