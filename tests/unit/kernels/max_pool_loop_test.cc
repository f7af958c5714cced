// MaxPool's plain loop (Indices, u8) and MaxUnpool.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs Pool(std::vector<int64_t> kernel, std::vector<int64_t> strides) {
  hal::Attrs a = Attr("kernel_shape", std::move(kernel));
  a.Set("strides", std::move(strides));
  return a;
}

TEST(MaxPoolLoopKernel, IndicesRowAndColumnMajor) {
  // 2 channels of 2x3; 2x2 windows, stride 1: indices count over the whole tensor.
  const auto x = HostTensor::F32({1, 2, 2, 3}, {1, 5, 2, 0, 3, 4, 9, 8, 7, 6, 5, 4});
  RUN_OK(r, "MaxPool", Pool({2, 2}, {1, 1}), {x},
         {{DataType::kFloat32, {1, 2, 1, 2}}, {DataType::kInt64, {1, 2, 1, 2}}});
  EXPECT_EQ(r[0].as<float>(), (std::vector<float>{5, 5, 9, 8}));
  EXPECT_EQ(r[1].as<int64_t>(), (std::vector<int64_t>{1, 1, 6, 7}));
  hal::Attrs col = Pool({2, 2}, {1, 1});
  col.Set("storage_order", int64_t{1});
  RUN_OK(c, "MaxPool", col, {x}, {{DataType::kFloat32, {1, 2, 1, 2}}, {DataType::kInt64, {1, 2, 1, 2}}});
  // Column-major within the 2x3 plane: (h, w) -> w * 2 + h.
  EXPECT_EQ(c[1].as<int64_t>(), (std::vector<int64_t>{2, 2, 6, 8}));
}

TEST(MaxPoolLoopKernel, Uint8WithPads) {
  hal::Attrs a = Pool({3}, {1});
  a.Set("pads", std::vector<int64_t>{1, 1});
  RUN_OK(y, "MaxPool", a, {HostTensor::Of<uint8_t>(DataType::kUInt8, {1, 1, 4}, {3, 200, 7, 1})},
         {{DataType::kUInt8, {1, 1, 4}}});
  EXPECT_EQ(y[0].as<uint8_t>(), (std::vector<uint8_t>{200, 200, 200, 7}));
}

TEST(MaxUnpoolKernel, ScattersIntoZeros) {
  hal::Attrs a = Pool({2, 2}, {2, 2});
  const auto x = HostTensor::F32({1, 1, 2, 2}, {5, 6, 7, 8});
  const auto idx = HostTensor::I64({1, 1, 2, 2}, {5, 7, 13, 15});
  RUN_OK(y, "MaxUnpool", a, {x, idx}, {{DataType::kFloat32, {1, 1, 4, 4}}});
  EXPECT_EQ(y[0].as<float>(), (std::vector<float>{0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8}));
  // A larger output_shape pads at the end: the indices keep pointing into 4x4.
  RUN_OK(p, "MaxUnpool", a, {x, idx, HostTensor::I64({4}, {1, 1, 5, 5})}, {{DataType::kFloat32, {1, 1, 5, 5}}});
  const auto v = p[0].as<float>();
  EXPECT_EQ(v[6], 5);
  EXPECT_EQ(v[8], 6);
  EXPECT_EQ(v[16], 7);
  EXPECT_EQ(v[18], 8);
  EXPECT_TRUE(Refused(RunKernel("MaxUnpool", a, {x, HostTensor::I64({1, 1, 2, 2}, {5, 7, 13, 16})},
                                {{DataType::kFloat32, {1, 1, 4, 4}}}),
                      StatusCode::kInvalidArgument, "index 16 is outside the unpooled [1,1,4,4]"));
}

}  // namespace
}  // namespace ge::test
