// Zero-sized tensors are legal (issue 46): a kernel whose outputs are all
// empty (batch 0) is created and runs without calling oneDNN, whose MatMul
// and Conv set-up divide by the zero dim (SIGFPE); an empty input that still
// has a non-empty output (a reduction over an empty axis, a product over an
// empty inner dim, a Concat with an empty piece) gives the right values; a
// spec whose sizes cannot exist is refused by the registry.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::TensorInfo F32Out(dims d) { return hal::TensorInfo{DataType::kFloat32, std::move(d)}; }

// Runs op on the inputs into `outs`, expecting success and outputs of those dims.
std::vector<HostTensor> RunEmpty(const std::string& op, const hal::Attrs& a, const std::vector<HostTensor>& in,
                                 const std::vector<hal::TensorInfo>& outs) {
  auto r = RunKernel(op, a, in, outs);
  EXPECT_TRUE(r.ok()) << op << ": " << r.status().ToString();
  if (!r.ok()) return {};
  for (size_t j = 0; j < outs.size(); ++j) EXPECT_EQ((*r)[j].dims, outs[j].dims) << op << " output " << j;
  return std::move(r).value();
}

TEST(EmptyTensorKernel, BatchZeroMatMulGemmConvPoolGiveEmptyOutputs) {
  const HostTensor x = HostTensor::F32({0, 16}, {});
  const HostTensor w = HostTensor::F32({16, 8}, Random(128, 1), true);
  const HostTensor b = HostTensor::F32({8}, Random(8, 2), true);
  EXPECT_TRUE(RunEmpty("MatMul", {}, {x, w}, {F32Out({0, 8})})[0].bytes.empty());
  EXPECT_TRUE(RunEmpty("Gemm", {}, {x, w, b}, {F32Out({0, 8})})[0].bytes.empty());
  hal::Attrs conv;
  conv.Set("pads", dims{1, 1, 1, 1});
  const HostTensor img = HostTensor::F32({0, 3, 8, 8}, {});
  const HostTensor cw = HostTensor::F32({4, 3, 3, 3}, Random(108, 3), true);
  EXPECT_TRUE(RunEmpty("Conv", conv, {img, cw}, {F32Out({0, 4, 8, 8})})[0].bytes.empty());
  hal::Attrs pool;
  pool.Set("kernel_shape", dims{2, 2});
  pool.Set("strides", dims{2, 2});
  for (const char* op : {"MaxPool", "AveragePool"})
    EXPECT_TRUE(RunEmpty(op, pool, {img}, {F32Out({0, 3, 4, 4})})[0].bytes.empty()) << op;
}

TEST(EmptyTensorKernel, ElementwiseOpsOnEmptyInputs) {
  const HostTensor e = HostTensor::F32({0, 4}, {});
  EXPECT_TRUE(RunEmpty("Relu", {}, {e}, {F32Out({0, 4})})[0].bytes.empty());
  EXPECT_TRUE(RunEmpty("Add", {}, {e, HostTensor::F32({4}, {1, 2, 3, 4})}, {F32Out({0, 4})})[0].bytes.empty());
  EXPECT_TRUE(RunEmpty("Add", {}, {e, e}, {F32Out({0, 4})})[0].bytes.empty());
}

// An empty inner dim still makes full outputs: sums over nothing are 0,
// plus Gemm's C.
TEST(EmptyTensorKernel, EmptyInnerDimGivesZerosOrTheBias) {
  const HostTensor a = HostTensor::F32({2, 0}, {});
  const HostTensor w = HostTensor::F32({0, 3}, {}, true);
  const auto mm = RunEmpty("MatMul", {}, {a, w}, {F32Out({2, 3})});
  ASSERT_EQ(mm.size(), 1u);
  EXPECT_EQ(mm[0].as<float>(), std::vector<float>(6, 0.f));
  const auto g = RunEmpty("Gemm", {}, {a, w, HostTensor::F32({3}, {1, 2, 3}, true)}, {F32Out({2, 3})});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].as<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
}

TEST(EmptyTensorKernel, ReductionsOverAnEmptyAxis) {
  hal::Attrs axes;
  axes.Set("axes", dims{0});
  axes.Set("keepdims", int64_t{1});
  const HostTensor e = HostTensor::F32({0, 3}, {});
  const auto sum = RunEmpty("ReduceSum", axes, {e}, {F32Out({1, 3})});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(sum[0].as<float>(), std::vector<float>(3, 0.f));
  const auto prod = RunEmpty("ReduceProd", axes, {e}, {F32Out({1, 3})});
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_EQ(prod[0].as<float>(), std::vector<float>(3, 1.f));
  // Over the non-empty axis of an empty tensor: an empty result.
  axes.Set("axes", dims{1});
  EXPECT_TRUE(RunEmpty("ReduceSum", axes, {e}, {F32Out({0, 1})})[0].bytes.empty());
}

TEST(EmptyTensorKernel, ConcatSkipsAnEmptyPiece) {
  const auto out = RunEmpty("Concat", Attr("axis", int64_t{1}),
                            {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::F32({2, 0}, {}),
                             HostTensor::F32({2, 1}, {5, 6})},
                            {F32Out({2, 3})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  // Every piece empty: an empty output.
  EXPECT_TRUE(RunEmpty("Concat", Attr("axis", int64_t{0}), {HostTensor::F32({0, 2}, {}), HostTensor::F32({0, 2}, {})},
                       {F32Out({0, 2})})[0]
                  .bytes.empty());
}

// Specs whose sizes cannot exist are refused by the registry, naming the
// node and the tensor, before any kernel computes a size from them.
TEST(EmptyTensorKernel, RegistryRefusesSpecsTooLargeOrNegative) {
  hal::KernelSpec spec;
  spec.op = "Relu";
  spec.name = "r0";
  spec.inputs = {hal::TensorInfo{DataType::kFloat32, {int64_t{1} << 61, 2}}};
  spec.outputs = spec.inputs;
  EXPECT_TRUE(Refused(Cpu().kernels().Create(spec).status(), StatusCode::kInvalidArgument,
                      "node r0 (Relu) input 0: f32[2305843009213693952,2] is too large"));
  spec.inputs = {hal::TensorInfo{DataType::kFloat32, {4}}};
  spec.outputs = {hal::TensorInfo{DataType::kFloat32, {-4}}};
  EXPECT_TRUE(Refused(Cpu().kernels().Create(spec).status(), StatusCode::kInvalidArgument,
                      "node r0 (Relu) output 0: f32[-4] has a negative dim"));
  // Supports too (the compiler's check, before ge-atc plans the memory):
  // MatMul's plan multiplies the dims into oneDNN strides, which overflowed.
  spec.op = "MatMul";
  spec.name = "m0";
  spec.inputs = {hal::TensorInfo{DataType::kFloat32, {int64_t{1} << 62, 16}},
                 hal::TensorInfo{DataType::kFloat32, {16, 8}}};
  spec.outputs = {hal::TensorInfo{DataType::kFloat32, {int64_t{1} << 62, 8}}};
  EXPECT_TRUE(Refused(Cpu().kernels().Supports(spec), StatusCode::kInvalidArgument,
                      "node m0 (MatMul) input 0: f32[4611686018427387904,16] is too large"));
  // TensorInfo::Bytes of an impossible shape is 0, never a wrapped count.
  EXPECT_EQ((hal::TensorInfo{DataType::kFloat32, {int64_t{1} << 62, 4}}.Bytes()), 0u);
}

}  // namespace
}  // namespace ge::test
