// The ops with memory semantics on tiny inputs: each computes its value; the
// sharing of memory with the variable is the memory plan's (tested in
// tests/unit/passes/memory_ops_run_test.cc).
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

TEST(MemoryKernels, VariableStartsFromItsInitialValue) {
  RUN_OK(v, "Variable", {}, {HostTensor::F32({3}, {1, 2, 3})}, {{DataType::kFloat32, {3}}});
  EXPECT_EQ(v[0].as<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(MemoryKernels, AssignWritesTheValue) {
  RUN_OK(a, "Assign", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {7, 8})}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(a[0].as<float>(), (std::vector<float>{7, 8}));
  // A value of another size is refused at creation.
  EXPECT_TRUE(Refused(RunKernel("Assign", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::F32({3}, {7, 8, 9})},
                                {{DataType::kFloat32, {2}}}),
                      StatusCode::kInvalidArgument, "output [2] must be input 1 [3]"));
}

TEST(MemoryKernels, AssignAddAdds) {
  RUN_OK(a, "AssignAdd", {}, {HostTensor::I64({2}, {1, 2}), HostTensor::I64({2}, {10, 20})},
         {{DataType::kInt64, {2}}});
  EXPECT_EQ(a[0].as<int64_t>(), (std::vector<int64_t>{11, 22}));
}

TEST(MemoryKernels, ScatterAddAccumulatesRepeatedRowsFromZero) {
  RUN_OK(s, "ScatterAdd", {}, {HostTensor::I64({3}, {2, 0, 2}), HostTensor::F32({3, 2}, {1, 2, 3, 4, 5, 6})},
         {{DataType::kFloat32, {3, 2}}});
  EXPECT_EQ(s[0].as<float>(), (std::vector<float>{3, 4, 0, 0, 6, 8}));
  // An index outside the rows is a run-time error, never a write outside.
  EXPECT_TRUE(Refused(RunKernel("ScatterAdd", {}, {HostTensor::I64({1}, {3}), HostTensor::F32({1, 2}, {1, 2})},
                                {{DataType::kFloat32, {3, 2}}}),
                      StatusCode::kInvalidArgument, "index 3 is outside [0, 3)"));
}

TEST(MemoryKernels, ScatterAddWithAnAccumulatorAddsIntoIt) {
  // The accumulator is the AtomicAddrClean node's zeroed memory in a model;
  // here its non-zero contents show that the kernel adds to what it holds.
  RUN_OK(s, "ScatterAdd", {},
         {HostTensor::I64({2}, {1, 1}), HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::F32({2, 2}, {10, 20, 30, 40})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(s[0].as<float>(), (std::vector<float>{10, 20, 34, 46}));
  EXPECT_TRUE(
      Refused(RunKernel("ScatterAdd", {},
                        {HostTensor::I64({1}, {0}), HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({3}, {0, 0, 0})},
                        {{DataType::kFloat32, {2, 2}}}),
              StatusCode::kInvalidArgument, "the accumulator [3] must be the output [2,2]"));
}

TEST(MemoryKernels, AtomicAddrCleanZeroesEveryOutput) {
  RUN_OK(z, "AtomicAddrClean", {}, {}, {{DataType::kFloat32, {2, 3}}, {DataType::kInt32, {4}}});
  ASSERT_EQ(z.size(), 2u);
  EXPECT_EQ(z[0].as<float>(), std::vector<float>(6, 0.f));
  EXPECT_EQ(z[1].as<int32_t>(), std::vector<int32_t>(4, 0));
}

TEST(MemoryKernels, CollectivesOnOneRankAreTheInput) {
  RUN_OK(r, "HcomAllReduce", {}, {HostTensor::F32({2}, {4, 5})}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(r[0].as<float>(), (std::vector<float>{4, 5}));
  RUN_OK(b, "HcomBroadcast", {}, {HostTensor::F32({2}, {6, 7})}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{6, 7}));
}

}  // namespace
}  // namespace ge::test
