#include "ops_test_util.h"

namespace ge::test {
namespace {

class SameShapeUnary : public ::testing::TestWithParam<const char*> {};

TEST_P(SameShapeUnary, KeepsShapeDtypeAndUnknowns) {
  OpGraph g(GetParam());
  g.In(F32({-1, 3, 5}));
  EXPECT_EQ(InferOut(g), "f32[?,3,5]");
  OpGraph h(GetParam());
  h.In(F32({kUnknownRank}));
  EXPECT_EQ(InferOut(h), "f32[*]");
}

INSTANTIATE_TEST_SUITE_P(Ops, SameShapeUnary,
                         ::testing::Values("Relu", "LeakyRelu", "Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Log",
                                           "Neg", "Abs", "Reciprocal", "Floor", "Ceil", "HardSigmoid", "Identity",
                                           "Gelu", "Clip", "Round", "Sign", "Elu", "Selu", "Softplus",
                                           "Softsign", "Sin", "Acosh", "HardSwish", "Mish", "Celu",
                                           "ThresholdedRelu", "Shrink"));

TEST(UnaryOps, IsNaNAndIsInfGiveBool) {
  OpGraph g("IsInf");
  g.In(F32({2, -1}));
  EXPECT_EQ(InferOut(g), "bool[2,?]");
  OpGraph h("IsNaN", 1, "n");
  h.In(I64({2}));
  EXPECT_TRUE(FailsWith(h, {"node n (IsNaN)", "floating point"}));
}

TEST(UnaryOps, IntegerInputsWhereTheyMakeSense) {
  OpGraph relu("Relu");
  relu.In(TensorDesc(DataType::kInt32, {4}));
  EXPECT_EQ(InferOut(relu), "i32[4]");
  OpGraph neg("Neg");
  neg.In(I64({2}));
  EXPECT_EQ(InferOut(neg), "i64[2]");
  OpGraph id("Identity");
  id.In(TensorDesc(DataType::kBool, {2}));
  EXPECT_EQ(InferOut(id), "bool[2]");
}

TEST(UnaryOps, FloatOnlyOpsRejectIntegers) {
  OpGraph g("Sqrt", 1, "sq");
  g.In(I64({2}));
  EXPECT_TRUE(FailsWith(g, {"node sq (Sqrt)", "input 0 must be floating point, not i64"}));
  for (const char* t : {"Round", "Elu", "Selu", "Softplus", "Softsign"}) {
    OpGraph h(t, 1, "f");
    h.In(TensorDesc(DataType::kInt32, {2}));
    EXPECT_TRUE(FailsWith(h, {"must be floating point, not i32"})) << t;
  }
  OpGraph sign("Sign");
  sign.In(TensorDesc(DataType::kInt32, {3}));
  EXPECT_EQ(InferOut(sign), "i32[3]");
}

TEST(UnaryOps, ActivationDefaultsAreOnnxs) {
  const OpDef* elu = OpRegistry::Global().Find("Elu");
  ASSERT_NE(elu, nullptr);
  EXPECT_EQ(std::get<float>(elu->attr_defaults.at("alpha")), 1.0f);
  const OpDef* selu = OpRegistry::Global().Find("Selu");
  ASSERT_NE(selu, nullptr);
  EXPECT_EQ(std::get<float>(selu->attr_defaults.at("alpha")), 1.67326319217681884765625f);
  EXPECT_EQ(std::get<float>(selu->attr_defaults.at("gamma")), 1.05070102214813232421875f);
}

TEST(UnaryOps, NotTakesBool) {
  OpGraph g("Not");
  g.In(TensorDesc(DataType::kBool, {2, 2}));
  EXPECT_EQ(InferOut(g), "bool[2,2]");
  OpGraph h("Not");
  h.In(F32({2}));
  EXPECT_TRUE(FailsWith(h, {"must be bool, not f32"}));
}

TEST(UnaryOps, CastToOnnxTypeNumbers) {
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {1, "f32"}, {2, "u8"}, {3, "i8"}, {5, "i16"}, {6, "i32"}, {7, "i64"}, {9, "bool"},
      {10, "f16"}, {11, "f64"}, {12, "u32"}, {13, "u64"}, {16, "bf16"}};
  for (const auto& [to, name] : cases) {
    OpGraph g("Cast");
    g.In(F32({2, -1})).Int("to", to);
    EXPECT_EQ(InferOut(g), name + "[2,?]") << to;
  }
}

TEST(UnaryOps, CastToStringOrWithoutToFails) {
  OpGraph g("Cast", 1, "c8");
  g.In(F32({2})).Int("to", 8);
  EXPECT_TRUE(
      FailsWith(g, {"node c8 (Cast)", "casting to ONNX element type 8 is not supported"}, StatusCode::kUnsupported));
  OpGraph h("Cast");
  h.In(F32({2}));
  EXPECT_TRUE(FailsWith(h, {"needs attribute 'to'"}));
}

TEST(UnaryOps, CastLikeTakesTheSecondInputsDtype) {
  OpGraph g("CastLike");
  g.In(F32({2, -1})).In(TensorDesc(DataType::kFloat16, {1}));
  EXPECT_EQ(InferOut(g), "f16[2,?]");
}

TEST(UnaryOps, DropoutIsTheInputAndABoolMask) {
  OpGraph g("Dropout", 2);
  g.In(F32({2, 3}));
  EXPECT_EQ(InferOut(g, 0), "f32[2,3]");
  EXPECT_EQ(g.Out(1), "bool[2,3]");
  OpGraph off("Dropout");
  off.In(F32({2})).Const(Tensor::FromVector<float>(DataType::kFloat32, {}, {0.5f}))
      .Const(Tensor::FromVector<uint8_t>(DataType::kBool, {}, {0}));
  EXPECT_EQ(InferOut(off), "f32[2]");
  OpGraph on("Dropout", 1, "d");
  on.In(F32({2})).Const(Tensor::FromVector<float>(DataType::kFloat32, {}, {0.5f}))
      .Const(Tensor::FromVector<uint8_t>(DataType::kBool, {}, {1}));
  EXPECT_TRUE(FailsWith(on, {"node d (Dropout)", "training mode is not supported"}, StatusCode::kUnsupported));
  OpGraph runtime("Dropout", 1, "d");
  runtime.In(F32({2})).In(F32({})).In(TensorDesc(DataType::kBool, {}));
  EXPECT_TRUE(FailsWith(runtime, {"training mode is not supported"}, StatusCode::kUnsupported));
}

TEST(UnaryOps, ClipBoundsMustBeScalarsOfTheInputsType) {
  OpGraph ok("Clip");
  ok.In(F32({1, 8})).Const(F32Scalar(0)).Const(F32Scalar(6));
  EXPECT_EQ(InferOut(ok), "f32[1,8]");
  OpGraph vec("Clip");
  vec.In(F32({1, 8})).Const(F32Zeros({2}));
  EXPECT_TRUE(FailsWith(vec, {"min must be a scalar", "2 elements"}));
  OpGraph mixed("Clip");
  mixed.In(F32({1, 8})).Const(I64Scalar(0));
  EXPECT_TRUE(FailsWith(mixed, {"input 0 is f32 and input 1 is i64"}));
}

TEST(UnaryOps, GeluIsOneInputSameShape) {
  OpGraph g("Gelu");
  g.In(TensorDesc(DataType::kFloat16, {2, 128, 768}));
  EXPECT_EQ(InferOut(g), "f16[2,128,768]");
  OpGraph two("Gelu");
  two.In(F32({2})).In(F32({2}));
  EXPECT_TRUE(FailsWith(two, {"takes 1..1 inputs, has 2"}));
}

}  // namespace
}  // namespace ge::test
