// Einsum by its definition: transposes, sums, diagonals, products, the
// implicit output and broadcast ellipses.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs Eq(const std::string& e) { return Attr("equation", e); }

TEST(EinsumKernel, SingleOperand) {
  const auto x = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  RUN_OK(t, "Einsum", Eq("ij->ji"), {x}, {{DataType::kFloat32, {3, 2}}});
  EXPECT_EQ(t[0].as<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  RUN_OK(s, "Einsum", Eq("ij -> i"), {x}, {{DataType::kFloat32, {2}}});
  EXPECT_EQ(s[0].as<float>(), (std::vector<float>{6, 15}));
  RUN_OK(all, "Einsum", Eq("ij->"), {x}, {{DataType::kFloat32, {}}});
  EXPECT_EQ(all[0].as<float>(), (std::vector<float>{21}));
  // Batch diagonal and trace.
  const auto sq = HostTensor::Of<double>(DataType::kFloat64, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  RUN_OK(d, "Einsum", Eq("...ii->...i"), {sq}, {{DataType::kFloat64, {2, 2}}});
  EXPECT_EQ(d[0].as<double>(), (std::vector<double>{1, 4, 5, 8}));
  RUN_OK(tr, "Einsum", Eq("bii"), {sq}, {{DataType::kFloat64, {2}}});
  EXPECT_EQ(tr[0].as<double>(), (std::vector<double>{5, 13}));
}

TEST(EinsumKernel, Products) {
  RUN_OK(mm, "Einsum", Eq("ij,jk"), {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({2, 2}, {1, 2, 3, 4})},
         {{DataType::kFloat32, {1, 2}}});
  EXPECT_EQ(mm[0].as<float>(), (std::vector<float>{7, 10}));
  RUN_OK(ip, "Einsum", Eq("i,i"), {HostTensor::I64({3}, {1, 2, 3}), HostTensor::I64({3}, {4, 5, 6})},
         {{DataType::kInt64, {}}});
  EXPECT_EQ(ip[0].as<int64_t>(), (std::vector<int64_t>{32}));
  RUN_OK(outer, "Einsum", Eq("i,j->ij"), {HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {3, 4})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(outer[0].as<float>(), (std::vector<float>{3, 4, 6, 8}));
  // Ellipsis dims broadcast: [2,1,2] with [1,2]: batch [2].
  RUN_OK(bc, "Einsum", Eq("...ij,...j->...i"),
         {HostTensor::F32({2, 1, 2}, {1, 2, 3, 4}), HostTensor::F32({1, 2}, {1, 1})}, {{DataType::kFloat32, {2, 1}}});
  EXPECT_EQ(bc[0].as<float>(), (std::vector<float>{3, 7}));
}

TEST(EinsumKernel, Refusals) {
  EXPECT_TRUE(Refused(RunKernel("Einsum", Eq("i,i"), {HostTensor::F32({2}, {1, 2}), HostTensor::F32({3}, {1, 2, 3})},
                                {{DataType::kFloat32, {}}}),
                      StatusCode::kInvalidArgument, "equation 'i,i': sizes 2 and 3 meet"));
  EXPECT_TRUE(Refused(RunKernel("Einsum", Eq("ij->k"), {HostTensor::F32({1, 1}, {1})}, {{DataType::kFloat32, {1}}}),
                      StatusCode::kInvalidArgument, "equation 'ij->k': an output letter repeats or is no input's"));
  EXPECT_TRUE(Refused(RunKernel("Einsum", Eq("ijk"), {HostTensor::F32({1, 1}, {1})}, {{DataType::kFloat32, {1, 1}}}),
                      StatusCode::kInvalidArgument, "term 'ijk' does not fit rank 2"));
}

}  // namespace
}  // namespace ge::test
