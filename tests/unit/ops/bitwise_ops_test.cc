// Inference of Xor (bool, broadcasting) and BitShift (unsigned integers,
// broadcasting, the output takes the inputs' dtype).
#include "ops_test_util.h"

namespace ge::test {
namespace {

TEST(BitwiseOps, XorBroadcastsBools) {
  OpGraph g("Xor");
  g.In(TensorDesc(DataType::kBool, {3, 4, 5})).In(TensorDesc(DataType::kBool, {5}));
  EXPECT_EQ(InferOut(g), "bool[3,4,5]");
  OpGraph f("Xor");
  f.In(I64({3})).In(I64({3}));
  EXPECT_TRUE(FailsWith(f, {"inputs must be bool, not i64"}));
}

TEST(BitwiseOps, BitShiftKeepsTheUnsignedDtype) {
  OpGraph g("BitShift");
  g.In(TensorDesc(DataType::kUInt16, {2, 3})).In(TensorDesc(DataType::kUInt16, {}));
  EXPECT_EQ(InferOut(g), "u16[2,3]");
  OpGraph s("BitShift");
  s.In(I64({3})).In(I64({3}));
  EXPECT_TRUE(FailsWith(s, {"inputs must be unsigned integers, not i64"}));
}

}  // namespace
}  // namespace ge::test
