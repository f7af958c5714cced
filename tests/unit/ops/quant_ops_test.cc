#include "ops_test_util.h"
#include "tests/common/refusal.h"

namespace ge::test {
namespace {

TensorDesc U8(Dims d) { return TensorDesc(DataType::kUInt8, std::move(d)); }
TensorDesc S8(Dims d) { return TensorDesc(DataType::kInt8, std::move(d)); }

TEST(QuantizeLinear, OutputTakesTheZeroPointsDtype) {
  OpGraph g("QuantizeLinear");
  g.In(F32({1, 3, 2})).In(F32({3})).In(S8({3}));
  EXPECT_EQ(InferOut(g), "i8[1,3,2]");
  OpGraph u("QuantizeLinear");
  u.In(F32({4})).In(F32({}));
  EXPECT_EQ(InferOut(u), "u8[4]");
  OpGraph bad("QuantizeLinear", 1, "q");
  bad.In(F32({1, 3, 2})).In(F32({2}));
  EXPECT_TRUE(FailsWith(bad, {"node q (QuantizeLinear)", "y_scale (input 1)", "one per slice of axis 1"}));
}

TEST(DequantizeLinear, Float32Out) {
  OpGraph g("DequantizeLinear");
  g.In(U8({2, 2})).In(F32({})).In(U8({}));
  EXPECT_EQ(InferOut(g), "f32[2,2]");
  OpGraph mix("DequantizeLinear");
  mix.In(U8({2})).In(F32({})).In(S8({}));
  EXPECT_TRUE(Refused(mix.Infer(), StatusCode::kInvalidArgument,
                      "inputs must share one dtype, but input 0 is u8 and input 2 is i8"));
}

TEST(DynamicQuantizeLinear, ThreeOutputs) {
  OpGraph g("DynamicQuantizeLinear", 3);
  g.In(F32({3, 4}));
  EXPECT_EQ(InferOut(g, 0), "u8[3,4]");
  EXPECT_EQ(g.Out(1), "f32[]");
  EXPECT_EQ(g.Out(2), "u8[]");
}

TEST(IntegerProducts, MatMulAndConvShapes) {
  OpGraph mm("MatMulInteger");
  mm.In(U8({2, 4, 3})).In(S8({3, 5}));
  EXPECT_EQ(InferOut(mm), "i32[2,4,5]");
  OpGraph q("QLinearMatMul");
  q.In(U8({2, 3})).In(F32({})).In(U8({})).In(U8({3, 4})).In(F32({})).In(U8({})).In(F32({})).In(S8({}));
  EXPECT_EQ(InferOut(q), "i8[2,4]");
  OpGraph conv("ConvInteger");
  conv.In(U8({1, 1, 3, 3})).In(U8({1, 1, 2, 2})).Ints("pads", {1, 1, 1, 1});
  EXPECT_EQ(InferOut(conv), "i32[1,1,4,4]");
  OpGraph qc("QLinearConv");
  qc.In(U8({1, 2, 5, 5})).In(F32({})).In(U8({})).In(S8({4, 2, 3, 3})).In(F32({4})).In(S8({4})).In(F32({})).In(U8({}));
  EXPECT_EQ(InferOut(qc), "u8[1,4,3,3]");
  OpGraph k("MatMulInteger", 1, "mmi");
  k.In(U8({2, 3})).In(U8({4, 5}));
  EXPECT_TRUE(FailsWith(k, {"node mmi (MatMulInteger)", "inner dims differ"}));
}

}  // namespace
}  // namespace ge::test
