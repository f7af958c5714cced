// Initializers → Const values: raw_data and every typed field, every dtype ge
// holds, and the length checks that keep a bad file from being read past.
#include <gtest/gtest.h>

#include "ge_base/onnx_dtype.h"
#include "onnx_parser_test_util.h"
#include "tests/common/refusal.h"

namespace ge::test {
namespace {

// A model whose only job is to carry initializers; one Identity keeps it a
// real graph with an output.
OnnxModelBuilder CarrierModel() {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1});
  b.Node("Identity", {"x"}, {"y"}, "id");
  b.Output("y", TensorProto::FLOAT, {1});
  return b;
}

std::vector<uint8_t> Bytes(const Tensor& t) { return std::vector<uint8_t>(t.data(), t.data() + t.size()); }

const Tensor& ValueOf(const Graph& g, const std::string& name) {
  static const Tensor kNone;
  Node* n = g.FindNode(name);
  EXPECT_NE(n, nullptr) << name;
  if (!n) return kNone;
  EXPECT_EQ(n->type(), op::kConst);
  const Tensor* t = n->GetTensor("value");
  EXPECT_NE(t, nullptr) << name;
  if (!t) return kNone;
  EXPECT_EQ(n->output_desc(0), t->desc()) << name;
  return *t;
}

// ge_base's number table (also read by shape inference and the Cast kernel
// for "to" and "dtype" attributes) against onnx's own enum.
TEST(OnnxTensor, ElementTypeNumbersMatchOnnxsEnum) {
  const std::pair<TensorProto::DataType, DataType> known[] = {
      {TensorProto::FLOAT, DataType::kFloat32},   {TensorProto::DOUBLE, DataType::kFloat64},
      {TensorProto::FLOAT16, DataType::kFloat16}, {TensorProto::BFLOAT16, DataType::kBFloat16},
      {TensorProto::INT8, DataType::kInt8},       {TensorProto::INT16, DataType::kInt16},
      {TensorProto::INT32, DataType::kInt32},     {TensorProto::INT64, DataType::kInt64},
      {TensorProto::UINT8, DataType::kUInt8},     {TensorProto::UINT16, DataType::kUInt16},
      {TensorProto::UINT32, DataType::kUInt32},   {TensorProto::UINT64, DataType::kUInt64},
      {TensorProto::BOOL, DataType::kBool}};
  for (const auto& [onnx_type, dtype] : known) EXPECT_EQ(DataTypeFromOnnx(onnx_type), dtype) << onnx_type;
  for (auto none : {TensorProto::UNDEFINED, TensorProto::STRING, TensorProto::COMPLEX64, TensorProto::COMPLEX128})
    EXPECT_EQ(DataTypeFromOnnx(none), DataType::kUndefined) << none;
  EXPECT_EQ(DataTypeFromOnnx(-1), DataType::kUndefined);
  EXPECT_EQ(DataTypeFromOnnx(int64_t{1} << 40), DataType::kUndefined);
}

TEST(OnnxTensor, TypedFieldsDecodeForEveryDtype) {
  OnnxModelBuilder b = CarrierModel();
  auto* f32 = b.Init("f32", TensorProto::FLOAT, {2});
  f32->add_float_data(1.5f);
  f32->add_float_data(-2.f);
  auto* f64 = b.Init("f64", TensorProto::DOUBLE, {1});
  f64->add_double_data(0.25);
  auto* i64 = b.Init("i64", TensorProto::INT64, {3});
  for (int64_t v : {int64_t{1} << 40, int64_t{-1}, int64_t{7}}) i64->add_int64_data(v);
  auto* i32 = b.Init("i32", TensorProto::INT32, {2});
  i32->add_int32_data(-100000);
  i32->add_int32_data(5);
  auto* i16 = b.Init("i16", TensorProto::INT16, {1});
  i16->add_int32_data(-300);
  auto* i8 = b.Init("i8", TensorProto::INT8, {2});
  i8->add_int32_data(-3);
  i8->add_int32_data(4);
  auto* u16 = b.Init("u16", TensorProto::UINT16, {1});
  u16->add_int32_data(65000);
  auto* u8 = b.Init("u8", TensorProto::UINT8, {1});
  u8->add_int32_data(200);
  auto* bl = b.Init("bool", TensorProto::BOOL, {3});
  for (int v : {1, 0, 1}) bl->add_int32_data(v);
  auto* f16 = b.Init("f16", TensorProto::FLOAT16, {2});
  f16->add_int32_data(0x3C00);  // 1.0
  f16->add_int32_data(0xC000);  // -2.0
  auto* u32 = b.Init("u32", TensorProto::UINT32, {1});
  u32->add_uint64_data(4000000000u);
  auto* u64 = b.Init("u64", TensorProto::UINT64, {1});
  u64->add_uint64_data(uint64_t{1} << 63);

  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(ValueOf(*g, "f32").desc(), TensorDesc(DataType::kFloat32, {2}));
  EXPECT_EQ(ValueOf(*g, "f32").ToDouble(), (std::vector<double>{1.5, -2}));
  EXPECT_EQ(ValueOf(*g, "f64").desc().dtype, DataType::kFloat64);
  EXPECT_EQ(ValueOf(*g, "f64").ToDouble(), (std::vector<double>{0.25}));
  EXPECT_EQ(ValueOf(*g, "i64").ToInt64(), (std::vector<int64_t>{int64_t{1} << 40, -1, 7}));
  EXPECT_EQ(ValueOf(*g, "i32").desc().dtype, DataType::kInt32);
  EXPECT_EQ(ValueOf(*g, "i32").ToInt64(), (std::vector<int64_t>{-100000, 5}));
  EXPECT_EQ(ValueOf(*g, "i16").desc().dtype, DataType::kInt16);
  EXPECT_EQ(ValueOf(*g, "i16").ToInt64(), (std::vector<int64_t>{-300}));
  EXPECT_EQ(ValueOf(*g, "i8").desc().dtype, DataType::kInt8);
  EXPECT_EQ(ValueOf(*g, "i8").ToInt64(), (std::vector<int64_t>{-3, 4}));
  EXPECT_EQ(ValueOf(*g, "u16").ToInt64(), (std::vector<int64_t>{65000}));
  EXPECT_EQ(ValueOf(*g, "u8").desc().dtype, DataType::kUInt8);
  EXPECT_EQ(ValueOf(*g, "u8").ToInt64(), (std::vector<int64_t>{200}));
  EXPECT_EQ(ValueOf(*g, "bool").desc(), TensorDesc(DataType::kBool, {3}));
  EXPECT_EQ(Bytes(ValueOf(*g, "bool")), (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(ValueOf(*g, "f16").desc(), TensorDesc(DataType::kFloat16, {2}));
  EXPECT_EQ(Bytes(ValueOf(*g, "f16")), (std::vector<uint8_t>{0x00, 0x3C, 0x00, 0xC0}));
  EXPECT_EQ(ValueOf(*g, "u32").desc().dtype, DataType::kUInt32);
  EXPECT_EQ(ValueOf(*g, "u32").ToDouble(), (std::vector<double>{4000000000.0}));
  EXPECT_EQ(ValueOf(*g, "u64").desc().dtype, DataType::kUInt64);
  EXPECT_EQ(ValueOf(*g, "u64").ToDouble(), (std::vector<double>{9223372036854775808.0}));
}

TEST(OnnxTensor, RawDataDecodesScalarsEmptyAndNarrowTypes) {
  OnnxModelBuilder b = CarrierModel();
  b.RawInit<float>("scalar", TensorProto::FLOAT, {}, {3.f});
  b.RawInit<int64_t>("i64", TensorProto::INT64, {2, 1}, {-9, 10});
  b.RawInit<uint8_t>("bool", TensorProto::BOOL, {2}, {0, 1});
  b.RawInit<uint16_t>("f16", TensorProto::FLOAT16, {1}, {0x3C00});
  b.RawInit<double>("f64", TensorProto::DOUBLE, {1}, {-0.5});
  b.RawInit<float>("empty", TensorProto::FLOAT, {0, 3}, {});
  b.Init("empty_typed", TensorProto::INT64, {0});
  auto g = ParseAndVerify(b);
  ASSERT_TRUE(g);
  EXPECT_EQ(ValueOf(*g, "scalar").desc(), TensorDesc(DataType::kFloat32, {}));
  EXPECT_EQ(ValueOf(*g, "scalar").ToDouble(), (std::vector<double>{3}));
  EXPECT_EQ(ValueOf(*g, "i64").desc(), TensorDesc(DataType::kInt64, {2, 1}));
  EXPECT_EQ(ValueOf(*g, "i64").ToInt64(), (std::vector<int64_t>{-9, 10}));
  EXPECT_EQ(Bytes(ValueOf(*g, "bool")), (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(Bytes(ValueOf(*g, "f16")), (std::vector<uint8_t>{0x00, 0x3C}));
  EXPECT_EQ(ValueOf(*g, "f64").ToDouble(), (std::vector<double>{-0.5}));
  EXPECT_EQ(ValueOf(*g, "empty").desc(), TensorDesc(DataType::kFloat32, {0, 3}));
  EXPECT_EQ(ValueOf(*g, "empty").size(), 0u);
  EXPECT_EQ(ValueOf(*g, "empty_typed").desc(), TensorDesc(DataType::kInt64, {0}));
}

TEST(OnnxTensor, ByteLengthMismatchIsCorruptAndNamesTheInitializer) {
  {
    OnnxModelBuilder b = CarrierModel();
    b.RawInit<float>("short_raw", TensorProto::FLOAT, {2, 2}, {1, 2, 3});
    auto r = ParseModel(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
    EXPECT_TRUE(Contains(r.status().message(), "test.onnx: initializer 'short_raw': 12 bytes of raw_data"))
        << r.status().message();
    EXPECT_TRUE(Contains(r.status().message(), "f32[2,2] needs 16")) << r.status().message();
  }
  {
    OnnxModelBuilder b = CarrierModel();
    auto* t = b.Init("long_typed", TensorProto::INT64, {2});
    for (int v : {1, 2, 3}) t->add_int64_data(v);
    auto r = ParseModel(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
    EXPECT_TRUE(Contains(r.status().message(), "'long_typed': 3 values in int64_data")) << r.status().message();
  }
  {
    // Values in a field that does not hold this dtype count as missing.
    OnnxModelBuilder b = CarrierModel();
    auto* t = b.Init("wrong_field", TensorProto::INT64, {1});
    t->add_float_data(1.f);
    auto r = ParseModel(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
    EXPECT_TRUE(
        Contains(r.status().message(),
                 "initializer 'wrong_field': i64[1] keeps its values in int64_data, but the file has 1 in float_data"))
        << r.status().message();
  }
}

TEST(OnnxTensor, BadTensorAttributeNamesNodeAndAttribute) {
  OnnxModelBuilder b = CarrierModel();
  b.RawInit<int64_t>("shape", TensorProto::INT64, {1}, {3});
  TensorProto* v = AttrTensor(b.Node("ConstantOfShape", {"shape"}, {"filled"}, "fill"), "value");
  v->set_data_type(TensorProto::FLOAT);
  v->add_dims(1);
  v->add_float_data(1.f);
  v->add_float_data(2.f);
  auto r = ParseModel(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
  EXPECT_TRUE(
      Contains(r.status().message(), "test.onnx: fill (ConstantOfShape): attribute 'value': 2 values in float_data"))
      << r.status().message();
}

TEST(OnnxTensor, HugeDimsDoNotAllocate) {
  OnnxModelBuilder b = CarrierModel();
  b.RawInit<float>("huge", TensorProto::FLOAT, {int64_t{1} << 40, int64_t{1} << 40}, {1});
  auto r = ParseModel(b);
  ASSERT_TRUE(
      Refused(r, StatusCode::kCorrupt, "test.onnx: initializer 'huge': f32[1099511627776,1099511627776] is too large"));
  EXPECT_TRUE(Contains(r.status().message(), "huge")) << r.status().message();
}

TEST(OnnxTensor, UnsupportedElementTypesAndExternalData) {
  {
    OnnxModelBuilder b = CarrierModel();
    b.Init("names", TensorProto::STRING, {1})->add_string_data("abc");
    auto r = ParseModel(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kUnsupported) << r.status().ToString();
    EXPECT_TRUE(Contains(r.status().message(), "initializer 'names' has element type STRING")) << r.status().message();
  }
  {
    OnnxModelBuilder b = CarrierModel();
    auto* t = b.Init("big_weight", TensorProto::FLOAT, {4});
    t->set_data_location(TensorProto::EXTERNAL);
    auto* e = t->add_external_data();
    e->set_key("location");
    e->set_value("weights.bin");
    auto r = ParseModel(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kUnsupported) << r.status().ToString();
    EXPECT_TRUE(
        Contains(r.status().message(), "test.onnx: initializer 'big_weight' stores its data in an external file"))
        << r.status().message();
  }
}

}  // namespace
}  // namespace ge::test
