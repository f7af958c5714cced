// TensorProto → ge::Tensor: tensor_content, the typed *_val fields and TF's
// fill rule (one value fills the shape; fewer values repeat the last).
#include "parsers/tensorflow/tf_tensor.h"

#include <gtest/gtest.h>

#include "tests/common/refusal.h"

namespace ge::tf_parser {
namespace {

tf::TensorProto Proto(tf::DataType dt, std::vector<int64_t> dims) {
  tf::TensorProto t;
  t.set_dtype(dt);
  for (int64_t d : dims) t.mutable_tensor_shape()->add_dim()->set_size(d);
  return t;
}

TEST(TfTensor, TensorContentIsRawBytes) {
  tf::TensorProto t = Proto(tf::DT_FLOAT, {2, 2});
  const float v[4] = {1, 2, 3, 4};
  t.set_tensor_content(std::string(reinterpret_cast<const char*>(v), sizeof(v)));
  auto r = TensorFromTf(t, "c");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->desc().ToString(), "f32[2,2]");
  EXPECT_EQ(r->ToDouble(), (std::vector<double>{1, 2, 3, 4}));
}

TEST(TfTensor, OneFloatValFillsTheShape) {
  tf::TensorProto t = Proto(tf::DT_FLOAT, {2, 3});
  t.add_float_val(0.5f);
  auto r = TensorFromTf(t, "c");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ToDouble(), std::vector<double>(6, 0.5));
}

TEST(TfTensor, FewerValuesRepeatTheLast) {
  tf::TensorProto t = Proto(tf::DT_INT32, {4});
  t.add_int_val(7);
  t.add_int_val(9);
  auto r = TensorFromTf(t, "c");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ToInt64(), (std::vector<int64_t>{7, 9, 9, 9}));
}

TEST(TfTensor, NoValuesAreZeros) {
  auto r = TensorFromTf(Proto(tf::DT_FLOAT, {3}), "c");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->ToDouble(), std::vector<double>(3, 0.0));
}

TEST(TfTensor, TypedFieldsPerDtype) {
  tf::TensorProto i64 = Proto(tf::DT_INT64, {2});
  i64.add_int64_val(-5);
  i64.add_int64_val(int64_t{1} << 40);
  auto a = TensorFromTf(i64, "c");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->ToInt64(), (std::vector<int64_t>{-5, int64_t{1} << 40}));
  tf::TensorProto b = Proto(tf::DT_BOOL, {});
  b.add_bool_val(true);
  auto c = TensorFromTf(b, "c");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->desc().ToString(), "bool[]");
  EXPECT_EQ(c->data()[0], 1);
  tf::TensorProto u8 = Proto(tf::DT_UINT8, {2});
  u8.add_int_val(200);
  u8.add_int_val(3);
  auto d = TensorFromTf(u8, "c");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->ToInt64(), (std::vector<int64_t>{200, 3}));
}

TEST(TfTensor, BadTensorsAreErrorsNamingTheTensor) {
  tf::TensorProto many = Proto(tf::DT_FLOAT, {2});
  for (int i = 0; i < 3; ++i) many.add_float_val(1.f);
  auto a = TensorFromTf(many, "node w (Const)");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(a.status().message().find("node w (Const)"), std::string::npos);

  tf::TensorProto short_content = Proto(tf::DT_FLOAT, {4});
  short_content.set_tensor_content(std::string(8, '\0'));
  EXPECT_EQ(TensorFromTf(short_content, "c").status().code(), StatusCode::kCorrupt);

  tf::TensorProto str = Proto(tf::DT_STRING, {1});
  str.add_string_val("x");
  auto s = TensorFromTf(str, "c");
  EXPECT_EQ(s.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(s.status().message().find("DT_STRING"), std::string::npos);

  EXPECT_TRUE(Refused(TensorFromTf(Proto(tf::DT_FLOAT, {-1}), "c"), StatusCode::kCorrupt,
                      "c: a constant must have a known shape, not [?]"));
  tf::TensorProto huge = Proto(tf::DT_FLOAT, {1 << 20, 1 << 20});
  huge.add_float_val(1.f);
  EXPECT_EQ(TensorFromTf(huge, "c").status().code(), StatusCode::kCorrupt);
}

TEST(TfTensor, ShapesWithUnknowns) {
  tf::TensorShapeProto s;
  s.add_dim()->set_size(-1);
  s.add_dim()->set_size(3);
  EXPECT_EQ(DimsFromTfShape(s, "x").value(), (std::vector<int64_t>{-1, 3}));
  tf::TensorShapeProto u;
  u.set_unknown_rank(true);
  EXPECT_EQ(DimsFromTfShape(u, "x").value(), (std::vector<int64_t>{kUnknownRank}));
  tf::TensorShapeProto bad;
  bad.add_dim()->set_size(-7);
  EXPECT_TRUE(Refused(DimsFromTfShape(bad, "x"), StatusCode::kCorrupt, "x: dimension -7 is not a size"));
}

}  // namespace
}  // namespace ge::tf_parser
