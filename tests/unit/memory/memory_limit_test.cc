// ge/plan/memory_limit.h: the one limit the compiler and the loader apply,
// naming the tensor or segment that does not fit.
#include "ge/plan/memory_limit.h"

#include <gtest/gtest.h>

#include "ge/ir/tensor_desc.h"
#include "tests/common/refusal.h"

namespace ge {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

TEST(MemoryLimitTest, MachineMemoryIsPositiveAndWithinTheCeiling) {
  const int64_t m = MachineMemoryBytes();
  EXPECT_GT(m, 0);
  EXPECT_LE(m, kMaxMemoryLimit);
  EXPECT_EQ(EffectiveMemoryLimit(0), m);
  EXPECT_EQ(EffectiveMemoryLimit(kGiB), kGiB);
  EXPECT_EQ(EffectiveMemoryLimit(kMaxMemoryLimit + 1), m);
}

TEST(MemoryLimitTest, HumanBytes) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(1023), "1023 B");
  EXPECT_EQ(HumanBytes(12288), "12.0 KiB");
  EXPECT_EQ(HumanBytes(64 * kGiB), "64.0 GiB");
  EXPECT_EQ(HumanBytes(kMaxMemoryLimit), "1.0 TiB");
}

TEST(MemoryLimitTest, TensorsAboveTheLimitOrTooLargeAreNamed) {
  EXPECT_TRUE(CheckTensorSize(TensorDesc(DataType::kFloat32, {1024, 1024}), "tensor a:0", 4 << 20).ok());
  Status over = CheckTensorSize(TensorDesc(DataType::kFloat32, {1024, 1025}), "tensor a:0", 4 << 20);
  EXPECT_EQ(over.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(over.message(), "tensor a:0 f32[1024,1025] needs 4.0 MiB, more than the memory limit of 4.0 MiB (--max_memory)");
  const TensorDesc huge(DataType::kFloat32, {int64_t{1} << 32, int64_t{1} << 32});
  EXPECT_TRUE(huge.too_large());
  EXPECT_FALSE(TensorDesc(DataType::kFloat32, {-1, 3}).too_large());
  EXPECT_NE(CheckTensorSize(huge, "tensor b:1", kMaxMemoryLimit).message().find("tensor b:1 f32[4294967296,4294967296] is too large"),
            std::string::npos);
  // Dynamic shapes are another check's business.
  EXPECT_TRUE(CheckTensorSize(TensorDesc(DataType::kFloat32, {-1, 3}), "tensor c:0", 1).ok());
}

TEST(MemoryLimitTest, ADimTheOmCannotHoldIsRefusedEvenWithZeroElements) {
  // Found by the onnx fuzzer: Pad of a [0,2,3,3] input gave a dim of 4.6e13
  // in a tensor of zero bytes, which ge-atc wrote and the .om reader refused.
  const TensorDesc empty(DataType::kFloat32, {0, kMaxDim + 1});
  EXPECT_EQ(empty.Bytes(), 0);
  const Status s = CheckTensorSize(empty, "tensor p:0", kMaxMemoryLimit);
  EXPECT_TRUE(Refused(s, StatusCode::kInvalidArgument,
                      "tensor p:0 f32[0,1099511627777] has a dim of 1099511627777, more than the largest a .om holds"));
  EXPECT_TRUE(CheckTensorSize(TensorDesc(DataType::kFloat32, {0, kMaxDim}), "tensor q:0", kMaxMemoryLimit).ok());
}

TEST(MemoryLimitTest, SegmentsAndTheirTotal) {
  MemoryPlan p;
  p.weights_size = kGiB;
  p.feature_map_size = 2 * kGiB;
  EXPECT_TRUE(CheckMemoryLimit(p, 3 * kGiB).ok());
  Status segment = CheckMemoryLimit(p, kGiB + kGiB / 2);
  EXPECT_NE(segment.message().find("the feature_map segment needs 2.0 GiB"), std::string::npos) << segment.message();
  p.output_size = kGiB;
  Status total = CheckMemoryLimit(p, 3 * kGiB);
  EXPECT_NE(total.message().find("the model (weights 1.0 GiB, feature map 2.0 GiB, input 0 B, output 1.0 GiB) needs 4.0 GiB"),
            std::string::npos)
      << total.message();
}

TEST(MemoryLimitTest, ModelIoComesFirst) {
  Model m;
  m.inputs.push_back({"x", TensorDesc(DataType::kFloat32, {1 << 20})});
  Status s = CheckMemoryLimit(m, 1 << 20);
  EXPECT_NE(s.message().find("input 0 (x) f32[1048576] needs 4.0 MiB"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ge
