// The control kernels of linked control flow (hal/cpu/kernels/control_kernels.cc):
// the loop counter and its stop test, a branch index from any condition
// dtype, the boundary copy, and the specs they refuse.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::TensorInfo Scalar(DataType d) { return hal::TensorInfo{d, {}, 0}; }
HostTensor BoolScalar(bool b) { return HostTensor::Of<uint8_t>(DataType::kBool, {}, {static_cast<uint8_t>(b)}); }
HostTensor I64(int64_t v) { return HostTensor::I64({}, {v}); }

int32_t Index(const std::string& op, const std::vector<HostTensor>& in) {
  auto out = RunKernel(op, {}, in, {Scalar(DataType::kInt32)});
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? (*out)[0].as<int32_t>()[0] : -99;
}

TEST(ControlKernels, BranchIndexReadsTheFirstElementOfAnyDtype) {
  EXPECT_EQ(Index("BranchIndex", {BoolScalar(true)}), 0);
  EXPECT_EQ(Index("BranchIndex", {BoolScalar(false)}), 1);
  EXPECT_EQ(Index("BranchIndex", {HostTensor::F32({2}, {0.5f, 0.f})}), 0);
  EXPECT_EQ(Index("BranchIndex", {HostTensor::F32({2}, {-0.f, 1.f})}), 1);  // -0 is false
  EXPECT_EQ(Index("BranchIndex", {HostTensor::Of<uint16_t>(DataType::kFloat16, {}, {0x8000})}), 1);
  EXPECT_EQ(Index("BranchIndex", {HostTensor::Of<uint16_t>(DataType::kFloat16, {}, {0x3c00})}), 0);
  EXPECT_EQ(Index("BranchIndex", {HostTensor::Of<int32_t>(DataType::kInt32, {}, {256})}), 0);  // not just the low byte
  EXPECT_EQ(Index("BranchIndex", {I64(0)}), 1);
}

TEST(ControlKernels, LoopCondIndexStopsOnTheTripCountOrTheCondition) {
  const HostTensor none = HostTensor::Absent();
  EXPECT_EQ(Index("LoopCondIndex", {I64(2), I64(3), none}), 0);
  EXPECT_EQ(Index("LoopCondIndex", {I64(3), I64(3), none}), 1);
  EXPECT_EQ(Index("LoopCondIndex", {I64(0), none, BoolScalar(true)}), 0);
  EXPECT_EQ(Index("LoopCondIndex", {I64(0), none, BoolScalar(false)}), 1);
  EXPECT_EQ(Index("LoopCondIndex", {I64(1), I64(5), BoolScalar(false)}), 1);
  EXPECT_EQ(Index("LoopCondIndex", {I64(0), I64(0), BoolScalar(true)}), 1);  // zero trips
}

TEST(ControlKernels, LoopInitAndIncrementKeepTheIteration) {
  for (bool given : {false, true}) {
    auto out = RunKernel("LoopInit", {}, {given ? BoolScalar(false) : HostTensor::Absent()},
                         {Scalar(DataType::kInt64), Scalar(DataType::kBool)});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)[0].as<int64_t>()[0], 0);
    EXPECT_EQ((*out)[1].as<uint8_t>()[0], given ? 0 : 1);  // no cond input: true
  }
  auto inc = RunKernel("LoopIncrement", {}, {I64(41)}, {Scalar(DataType::kInt64)});
  ASSERT_TRUE(inc.ok()) << inc.status().ToString();
  EXPECT_EQ((*inc)[0].as<int64_t>()[0], 42);
}

TEST(ControlKernels, MemcpyCopiesAnyDtypeByBytes) {
  auto out = RunKernel("MemcpyAsync", {}, {HostTensor::F32({3}, {1, 2, 3})}, {hal::TensorInfo{DataType::kUInt8, {12}, 0}});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].as<float>(), std::vector<float>({1, 2, 3}));
}

TEST(ControlKernels, ScanSliceWriteFillsRowIterationAndTripCheckComparesTheCount) {
  auto c = CreateKernel("ScanSliceWrite", {}, {HostTensor::F32({2}, {5, 6}), I64(1)}, {hal::TensorInfo{DataType::kFloat32, {3, 2}, 0}});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  auto rows = RunInto(*c, {hal::TensorInfo{DataType::kFloat32, {3, 2}, 0}});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ((*rows)[0].as<float>()[2], 5.f);
  EXPECT_EQ((*rows)[0].as<float>()[3], 6.f);
  auto past = RunKernel("ScanSliceWrite", {}, {HostTensor::F32({2}, {5, 6}), I64(3)}, {hal::TensorInfo{DataType::kFloat32, {3, 2}, 0}});
  ASSERT_TRUE(Refused(past, StatusCode::kInternal, "past the scan output's 3 rows"));
  hal::Attrs count;
  count.Set("count", int64_t{4});
  EXPECT_TRUE(RunKernel("LoopTripCheck", count, {I64(4)}, {}).ok());
  auto short_run = RunKernel("LoopTripCheck", count, {I64(3)}, {});
  ASSERT_TRUE(Refused(short_run, StatusCode::kInternal, "ran 3 iterations"));
}

TEST(ControlKernels, BadSpecsAreRefusedNamingTheKernel) {
  auto expect = [](Result<KernelCall> r, const std::string& part) {
    EXPECT_TRUE(Refused(r, StatusCode::kInvalidArgument, part));
  };
  expect(CreateKernel("MemcpyAsync", {}, {HostTensor::F32({3}, {1, 2, 3})}, {hal::TensorInfo{DataType::kUInt8, {4}, 0}}),
         "same size");
  expect(CreateKernel("LoopCondIndex", {}, {I64(0), HostTensor::Absent(), HostTensor::Absent()}, {Scalar(DataType::kInt32)}),
         "never ends");
  expect(CreateKernel("LoopCondIndex", {}, {I64(0), HostTensor::F32({}, {3}), HostTensor::Absent()}, {Scalar(DataType::kInt32)}),
         "M is an int64");
  expect(CreateKernel("BranchIndex", {}, {HostTensor::F32({0}, {})}, {Scalar(DataType::kInt32)}), "no element");
  expect(CreateKernel("LoopIncrement", {}, {HostTensor::F32({}, {1})}, {Scalar(DataType::kFloat32)}), "int64");
}

}  // namespace
}  // namespace ge::test
