// GatherElements: either axis, negative indices, indices smaller than data
// off the axis, dtypes by size, and out-of-range indices (refused when
// constant, a run-time error otherwise).
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(GatherElementsKernel, OnnxExamples) {
  RUN_OK(a1, "GatherElements", Attr("axis", int64_t{1}),
         {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({2, 2}, {0, 0, 1, 0})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(a1[0].as<float>(), (std::vector<float>{1, 1, 4, 3}));
  RUN_OK(a0, "GatherElements", Attr("axis", int64_t{0}),
         {HostTensor::F32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), HostTensor::I64({2, 3}, {1, 2, 0, 2, 0, 0})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(a0[0].as<float>(), (std::vector<float>{4, 8, 3, 7, 2, 3}));
}

TEST(GatherElementsKernel, NegativeIndicesWrapOnce) {
  RUN_OK(out, "GatherElements", {},
         {HostTensor::F32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), I32({2, 3}, {-1, -2, 0, -2, 0, 0})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{7, 5, 3, 4, 2, 3}));
}

TEST(GatherElementsKernel, IndicesSmallerThanDataOffTheAxis) {
  // data [2,2,3] = 0..11, axis 1, indices [2,1,2]: out[a,0,c] = data[a, idx, c].
  RUN_OK(out, "GatherElements", Attr("axis", int64_t{1}),
         {HostTensor::I64({2, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), HostTensor::I64({2, 1, 2}, {1, 0, 0, 1})},
         {{DataType::kInt64, {2, 1, 2}}});
  EXPECT_EQ(out[0].as<int64_t>(), (std::vector<int64_t>{3, 1, 6, 10}));
  RUN_OK(last, "GatherElements", Attr("axis", int64_t{-1}),
         {HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::I64({1, 4}, {2, 0, 2, 1})},
         {{DataType::kFloat32, {1, 4}}});
  EXPECT_EQ(last[0].as<float>(), (std::vector<float>{3, 1, 3, 2}));
}

TEST(GatherElementsKernel, OtherDtypes) {
  RUN_OK(b, "GatherElements", {}, {Bool({3}, {1, 0, 0}), HostTensor::I64({4}, {0, 1, -3, 2})},
         {{DataType::kBool, {4}}});
  EXPECT_EQ(b[0].as<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 0}));
  RUN_OK(d, "GatherElements", Attr("axis", int64_t{1}),
         {HostTensor::Of<double>(DataType::kFloat64, {1, 2}, {0.5, -2.25}), I32({1, 3}, {1, 1, 0})},
         {{DataType::kFloat64, {1, 3}}});
  EXPECT_EQ(d[0].as<double>(), (std::vector<double>{-2.25, -2.25, 0.5}));
}

TEST(GatherElementsKernel, OutOfRangeIndices) {
  auto run = RunKernel("GatherElements", {}, {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({1, 2}, {0, 2})},
                       {{DataType::kFloat32, {1, 2}}});
  ASSERT_TRUE(Refused(run, StatusCode::kInvalidArgument, "index 2 is out of range for axis size 2"));
  auto low = RunKernel("GatherElements", {}, {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({1, 2}, {-3, 0})},
                       {{DataType::kFloat32, {1, 2}}});
  EXPECT_TRUE(Refused(low, StatusCode::kInvalidArgument, "index -3 is out of range for axis size 2"));
  // Constant indices are refused before any run.
  hal::KernelSpec spec;
  spec.op = "GatherElements";
  spec.name = "ge";
  spec.inputs = {{DataType::kFloat32, {2}}, {DataType::kInt64, {1}}};
  spec.outputs = {{DataType::kFloat32, {1}}};
  const int64_t bad = 5;
  spec.const_inputs = {nullptr, &bad};
  const Status s = Cpu().kernels().Supports(spec);
  ASSERT_TRUE(Refused(s, StatusCode::kInvalidArgument, "index 5 is out of range"));
}

TEST(GatherElementsKernel, RejectsLargerIndicesOffTheAxis) {
  auto r = RunKernel("GatherElements", {}, {HostTensor::F32({2, 1}, {1, 2}), HostTensor::I64({1, 2}, {0, 0})},
                     {{DataType::kFloat32, {1, 2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "larger than data"));
}

}  // namespace
}  // namespace ge::test
