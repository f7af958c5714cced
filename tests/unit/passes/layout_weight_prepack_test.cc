// weight_prepack on tiny graphs: convolutions and matrix products get their
// constant weights packed into the layout their kernel picks on this CPU,
// stored as node attributes; the numbers stay the same with the pass off;
// nothing is packed for another target or for nodes whose shapes are only
// known at run time.
#include "compiler/passes/layout_passes.h"
#include "ge/ops/kernel_spec.h"
#include "pass_test_util.h"

namespace ge::test {
namespace {

struct Net {
  TinyGraph t;
  Node* conv = nullptr;
  Node* matmul = nullptr;
};

// x [1,16,8,8] → Conv 3x3 (32) → Flatten → MatMul [2048,64]
std::unique_ptr<Net> ConvMatMul(int64_t batch = 1) {
  auto n = std::make_unique<Net>();
  TinyGraph& t = n->t;
  Node* x = t.Data("x", F32({batch, 16, 8, 8}));
  n->conv = t.Op("Conv", "conv",
                 {x, t.Const("w", F32s({32, 16, 3, 3}, Iota(32 * 16 * 9, 0.01f, -0.05f))),
                  t.Const("b", F32s({32}, Iota(32, 0.1f, -0.3f)))},
                 {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  Node* flat = t.Op("Flatten", "flat", {n->conv});
  n->matmul = t.Op("MatMul", "mm", {flat, t.Const("b2", F32s({2048, 64}, Iota(2048 * 64, 0.002f, -0.01f)))});
  t.Output({n->matmul});
  return n;
}

TEST(WeightPrepackTest, ConvWeightsArePackedForThisCpu) {
  auto n = ConvMatMul();
  ASSERT_TRUE(n->t.RunPass(WeightPrepackPass()).ok());
  const Tensor* packed = n->conv->GetTensor(PackedInputAttr(1));
  ASSERT_NE(packed, nullptr) << "oneDNN's convolutions compute with blocked weights on every x86 ISA";
  EXPECT_EQ(packed->desc().dtype, DataType::kUInt8);
  EXPECT_GE(packed->size(), size_t{32 * 16 * 9 * 4});  // blocked layouts pad, never shrink
  EXPECT_EQ(n->conv->GetString(PackedInputAttr(1) + "_format", "").rfind("dnnl", 0), 0u);
  EXPECT_EQ(n->conv->GetTensor(PackedInputAttr(0)), nullptr) << "the activation is not a constant";
  EXPECT_EQ(n->conv->GetTensor(PackedInputAttr(2)), nullptr) << "the bias stays plain";
  // The spec the runtime builds carries the packing, not as an attribute.
  const hal::KernelSpec spec = BuildKernelSpec(*n->conv);
  ASSERT_NE(spec.Packed(1), nullptr);
  EXPECT_EQ(spec.Packed(1)->data, packed->data());
  EXPECT_FALSE(spec.attrs.Has(PackedInputAttr(1)));
}

TEST(WeightPrepackTest, OutputsAreTheSameWithThePassOff) {
  const Floats x = Iota(16 * 8 * 8, 0.1f, -0.5f);
  auto on = CompileAndRun(ConvMatMul()->t.Clone(), {x});
  ASSERT_TRUE(on.ok()) << on.status().ToString();
  auto off = CompileAndRun(ConvMatMul()->t.Clone(), {x}, {"weight_prepack"});
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  EXPECT_EQ(on->outputs, off->outputs);
  int packed_on = 0, packed_off = 0;
  for (Node* n : on->model.graph->nodes()) packed_on += n->GetTensor(PackedInputAttr(1)) != nullptr;
  for (Node* n : off->model.graph->nodes()) packed_off += n->GetTensor(PackedInputAttr(1)) != nullptr;
  EXPECT_GE(packed_on, 1);
  EXPECT_EQ(packed_off, 0);
}

TEST(WeightPrepackTest, NothingIsPackedForAnotherTarget) {
  auto n = ConvMatMul();
  auto dev = hal::GetDevice("");
  ASSERT_TRUE(dev.ok());
  // A --soc_version whose activation layout is not this CPU's: its kernels pack at load.
  n->t.options.channel_block = (*dev)->capabilities().channel_block == 8 ? 16 : 8;
  ASSERT_TRUE(n->t.RunPass(WeightPrepackPass()).ok());
  EXPECT_EQ(n->conv->GetTensor(PackedInputAttr(1)), nullptr);
  EXPECT_EQ(n->matmul->GetTensor(PackedInputAttr(1)), nullptr);
}

TEST(WeightPrepackTest, NodesWithUnknownShapesAreLeftToRunTime) {
  auto n = ConvMatMul(kUnknownDim);
  ASSERT_TRUE(n->t.RunPass(WeightPrepackPass()).ok());
  EXPECT_EQ(n->conv->GetTensor(PackedInputAttr(1)), nullptr);
  EXPECT_EQ(n->matmul->GetTensor(PackedInputAttr(1)), nullptr);
}

}  // namespace
}  // namespace ge::test
