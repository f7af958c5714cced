// bfloat16 tensors in files: numpy has no such dtype, so WriteNpy writes
// their bits as u16, a u16 file feeds a bf16 input (ONNX's test data holds
// bf16 so), and the text form shows their values.
#include <gtest/gtest.h>

#include "ge/tools/npy.h"
#include "ge/tools/tensor_file.h"
#include "tests/common/tool_runner.h"

namespace ge::tools {
namespace {

class Bf16FilesTest : public test::TempDirTest {};

const uint16_t kBits[3] = {0x3f80, 0xc000, 0x3ec0};  // 1, -2, 0.375

TEST_F(Bf16FilesTest, NpyHoldsTheBitsAsU16AndReadsBackIntoABf16Input) {
  const std::string p = (dir_ / "b.npy").string();
  const TensorDesc bf16(DataType::kBFloat16, {3});
  ASSERT_TRUE(WriteNpy(p, bf16, kBits).ok());
  auto arr = ReadNpy(p);
  ASSERT_TRUE(arr.ok()) << arr.status().ToString();
  EXPECT_EQ(arr->desc.dtype, DataType::kUInt16);
  auto back = ReadTensorFile(p, bf16);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(std::memcmp(back->data(), kBits, sizeof kBits), 0);
  // Only u16 stands in for bf16: f16 bits do not.
  EXPECT_TRUE(FileDtypeFits(DataType::kUInt16, DataType::kBFloat16));
  EXPECT_FALSE(FileDtypeFits(DataType::kFloat16, DataType::kBFloat16));
  EXPECT_FALSE(FileDtypeFits(DataType::kUInt16, DataType::kFloat16));
}

TEST_F(Bf16FilesTest, TextShowsTheValues) {
  EXPECT_EQ(TensorToText(TensorDesc(DataType::kBFloat16, {3}), kBits), "1 -2 0.375\n");
}

}  // namespace
}  // namespace ge::tools
