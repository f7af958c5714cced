// DepthToSpace (DCR and CRD) and SpaceToDepth against the reshape /
// transpose / reshape formulas of the ONNX spec, written as index maps.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace depth_space {

hal::Attrs Block(int64_t b, const std::string& mode = "") {
  hal::Attrs a;
  a.Set("blocksize", b);
  if (!mode.empty()) a.Set("mode", mode);
  return a;
}

// x [1, 8, 2, 3] = 0..47, b = 2 -> y [1, 2, 4, 6].
TEST(DepthSpaceKernel, DepthToSpaceBothModes) {
  const auto x = HostTensor::F32({1, 8, 2, 3}, Iota(48));
  for (const std::string mode : {"DCR", "CRD"}) {
    RUN_OK(y, "DepthToSpace", Block(2, mode), {x}, {{DataType::kFloat32, {1, 2, 4, 6}}});
    const auto got = y[0].as<float>();
    for (int c = 0; c < 2; ++c)
      for (int r = 0; r < 4; ++r)
        for (int col = 0; col < 6; ++col) {
          const int i = r % 2, j = col % 2;
          const int xc = mode == "DCR" ? (i * 2 + j) * 2 + c : c * 4 + i * 2 + j;
          EXPECT_EQ(got[(c * 4 + r) * 6 + col], static_cast<float>((xc * 2 + r / 2) * 3 + col / 2))
              << mode << " " << c << r << col;
        }
  }
}

TEST(DepthSpaceKernel, SpaceToDepthUndoesDcr) {
  const auto x = HostTensor::F32({1, 8, 2, 3}, Iota(48));
  RUN_OK(y, "DepthToSpace", Block(2), {x}, {{DataType::kFloat32, {1, 2, 4, 6}}});
  RUN_OK(back, "SpaceToDepth", Block(2), {y[0]}, {{DataType::kFloat32, {1, 8, 2, 3}}});
  EXPECT_EQ(back[0].as<float>(), Iota(48));
}

TEST(DepthSpaceKernel, SpaceToDepthOnInt64) {
  // x [1,1,2,2] = 1..4 -> y [1,4,1,1]: channel (i*2 + j) takes x[i, j].
  RUN_OK(y, "SpaceToDepth", Block(2), {HostTensor::I64({1, 1, 2, 2}, {1, 2, 3, 4})}, {{DataType::kInt64, {1, 4, 1, 1}}});
  EXPECT_EQ(y[0].as<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(DepthSpaceKernel, RefusesShapesThatDoNotMatchTheBlock) {
  auto r = RunKernel("DepthToSpace", Block(2), {HostTensor::F32({1, 4, 1, 1}, {1, 2, 3, 4})},
                     {{DataType::kFloat32, {1, 2, 2, 1}}});
  EXPECT_TRUE(
      Refused(r, StatusCode::kInvalidArgument, "input [1,4,1,1] and output [1,2,2,1] do not match blocksize 2"));
}

}  // namespace depth_space
}  // namespace ge::test
