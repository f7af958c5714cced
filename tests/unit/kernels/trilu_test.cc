// Trilu: upper and lower, k constant or at run time, k far out of range,
// batches of matrices and dtypes of other sizes.
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

// [[1,2,3,4],[5,6,7,8],[9,10,11,12]]
HostTensor M34() { return HostTensor::I64({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); }

std::vector<int64_t> Trilu(int64_t upper, const HostTensor& k) {
  auto r = RunKernel("Trilu", Attr("upper", upper), {M34(), k}, {{DataType::kInt64, {3, 4}}});
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? (*r)[0].as<int64_t>() : std::vector<int64_t>{};
}

TEST(TriluKernel, UpperAndLowerWithoutK) {
  RUN_OK(u, "Trilu", {}, {M34()}, {{DataType::kInt64, {3, 4}}});  // upper is the default
  EXPECT_EQ(u[0].as<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}));
  RUN_OK(l, "Trilu", Attr("upper", int64_t{0}), {M34()}, {{DataType::kInt64, {3, 4}}});
  EXPECT_EQ(l[0].as<int64_t>(), (std::vector<int64_t>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}));
}

TEST(TriluKernel, ConstantAndRunTimeK) {
  EXPECT_EQ(Trilu(1, HostTensor::I64({}, {1}, true)), (std::vector<int64_t>{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}));
  EXPECT_EQ(Trilu(1, HostTensor::I64({}, {1})), (std::vector<int64_t>{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}));
  EXPECT_EQ(Trilu(0, HostTensor::I64({}, {-1})), (std::vector<int64_t>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}));
  EXPECT_EQ(Trilu(0, I32({}, {2})), (std::vector<int64_t>{1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST(TriluKernel, KFarOutOfRange) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  const std::vector<int64_t> zeros(12, 0), all = M34().as<int64_t>();
  EXPECT_EQ(Trilu(1, HostTensor::I64({}, {kMax})), zeros);
  EXPECT_EQ(Trilu(1, HostTensor::I64({}, {kMin})), all);
  EXPECT_EQ(Trilu(0, HostTensor::I64({}, {kMax})), all);
  EXPECT_EQ(Trilu(0, HostTensor::I64({}, {kMin})), zeros);
}

TEST(TriluKernel, BatchOfMatricesAndOtherDtypes) {
  RUN_OK(f, "Trilu", Attr("upper", int64_t{0}), {HostTensor::F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})},
         {{DataType::kFloat32, {2, 2, 2}}});
  EXPECT_EQ(f[0].as<float>(), (std::vector<float>{1, 0, 3, 4, 5, 0, 7, 8}));
  RUN_OK(b, "Trilu", {}, {Bool({3, 2}, {1, 1, 1, 1, 1, 1})}, {{DataType::kBool, {3, 2}}});
  EXPECT_EQ(b[0].as<uint8_t>(), (std::vector<uint8_t>{1, 1, 0, 1, 0, 0}));
  RUN_OK(e, "Trilu", {}, {HostTensor::F32({3, 0, 5}, {})}, {{DataType::kFloat32, {3, 0, 5}}});
  EXPECT_TRUE(e[0].bytes.empty());
}

TEST(TriluKernel, Errors) {
  auto vec = RunKernel("Trilu", {}, {HostTensor::F32({3}, {1, 2, 3})}, {{DataType::kFloat32, {3}}});
  ASSERT_TRUE(Refused(vec, StatusCode::kInvalidArgument, "rank >= 2"));
  auto k = RunKernel("Trilu", {}, {M34(), HostTensor::I64({2}, {1, 2})}, {{DataType::kInt64, {3, 4}}});
  ASSERT_TRUE(Refused(k, StatusCode::kInvalidArgument, "k must be a scalar"));
}

}  // namespace
}  // namespace ge::test
