// Weights packed ahead (KernelRegistry::Pack, stored in a .om by the
// weight_prepack pass): a kernel given them computes with those very bytes,
// and one given bytes packed for another layout packs its plain weights again.
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

struct Op {
  std::string type;
  hal::Attrs attrs;
  std::vector<HostTensor> inputs;  // input 1 is the constant weights
  hal::TensorInfo out;
};

Op Conv() {
  Op o;
  o.type = "Conv";
  o.attrs.Set("kernel_shape", std::vector<int64_t>{3, 3});
  o.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  o.inputs = {HostTensor::F32({1, 32, 14, 14}, Random(32 * 14 * 14, 1)),
              HostTensor::F32({64, 32, 3, 3}, Random(64 * 32 * 9, 2), true)};
  o.out = {DataType::kFloat32, {1, 64, 14, 14}};
  return o;
}

Op MatMul() {
  Op o;
  o.type = "MatMul";
  o.inputs = {HostTensor::F32({16, 256}, Random(16 * 256, 3)), HostTensor::F32({256, 384}, Random(256 * 384, 4), true)};
  o.out = {DataType::kFloat32, {16, 384}};
  return o;
}

// The spec the registry packs for: what CreateKernel hands to Create.
Result<std::vector<hal::PackedConstant>> PackOf(const Op& o) {
  hal::KernelSpec spec;
  spec.op = o.type;
  spec.name = "packed_" + o.type;
  spec.attrs = o.attrs;
  for (const auto& t : o.inputs) {
    spec.inputs.push_back(t.info());
    spec.const_inputs.push_back(t.is_const ? t.bytes.data() : nullptr);
  }
  spec.outputs = {o.out};
  return Cpu().kernels().Pack(spec);
}

Result<std::vector<float>> Run(const Op& o, const hal::PackedConstant* packed, const std::string& format = "") {
  auto edit = [&](hal::KernelSpec& spec) {
    if (!packed) return;
    spec.packed_inputs.resize(spec.inputs.size());
    spec.packed_inputs[packed->input] = {packed->bytes.data(), packed->bytes.size(),
                                         format.empty() ? packed->format : format};
  };
  GE_ASSIGN_OR_RETURN(KernelCall c, CreateKernel(o.type, o.attrs, o.inputs, {o.out}, edit));
  GE_ASSIGN_OR_RETURN(auto out, RunInto(c, {o.out}));
  return out[0].as<float>();
}

void CheckPackedAhead(const Op& o) {
  auto packed = PackOf(o);
  ASSERT_TRUE(packed.ok()) << packed.status().ToString();
  if (packed->empty()) GTEST_SKIP() << o.type << ": oneDNN keeps these weights plain on this CPU; nothing to pack";
  ASSERT_EQ(packed->size(), 1u);
  hal::PackedConstant& w = (*packed)[0];
  EXPECT_EQ(w.input, 1u);
  EXPECT_EQ(w.format.rfind("dnnl", 0), 0u) << w.format;  // names oneDNN's version and the layout

  auto plain = Run(o, nullptr);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  auto ahead = Run(o, &w);
  ASSERT_TRUE(ahead.ok()) << ahead.status().ToString();
  EXPECT_EQ(*ahead, *plain);  // the same layout, the same bytes: bit for bit

  // The kernel reads the packed bytes themselves: zeroed, the result is 0.
  std::fill(w.bytes.begin(), w.bytes.end(), 0);
  auto zeros = Run(o, &w);
  ASSERT_TRUE(zeros.ok()) << zeros.status().ToString();
  EXPECT_EQ(*zeros, std::vector<float>(plain->size(), 0.0f));

  // Packed for another machine: the format differs, the plain weights are packed again.
  auto other = Run(o, &w, "dnnl0.0.0:another-cpu");
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_EQ(*other, *plain);
}

TEST(PackedWeights, ConvUsesWeightsPackedAheadInPlace) { CheckPackedAhead(Conv()); }
TEST(PackedWeights, MatMulUsesWeightsPackedAheadInPlace) { CheckPackedAhead(MatMul()); }

// Winograd's transformed weights are packed ahead too (they cost most to
// make at load), under a format of their own.
TEST(PackedWeights, WinogradConvUsesWeightsPackedAheadInPlace) {
  if (!Cpu().capabilities().winograd_conv) GTEST_SKIP() << "this CPU has no Winograd convolution (oneDNN: AVX-512 only)";
  Op o = Conv();
  o.attrs.Set("conv_algorithm", std::string("winograd"));
  auto direct = PackOf(Conv());
  auto wino = PackOf(o);
  ASSERT_TRUE(direct.ok() && wino.ok());
  ASSERT_EQ(wino->size(), 1u);
  if (!direct->empty()) {
    EXPECT_NE((*wino)[0].format, (*direct)[0].format);
  }
  CheckPackedAhead(o);
}

TEST(PackedWeights, VariableWeightsAreNotPacked) {
  Op o = Conv();
  o.inputs[1].is_const = false;
  auto packed = PackOf(o);
  ASSERT_TRUE(packed.ok()) << packed.status().ToString();
  EXPECT_TRUE(packed->empty());
}

TEST(PackedWeights, OpsWithoutAPackerPackNothing) {
  Op o;
  o.type = "Relu";
  o.inputs = {HostTensor::F32({4}, {1, -1, 2, -2}, true)};
  o.out = {DataType::kFloat32, {4}};
  auto packed = PackOf(o);
  ASSERT_TRUE(packed.ok()) << packed.status().ToString();
  EXPECT_TRUE(packed->empty());
}

}  // namespace
}  // namespace ge::test
