// The comparison, logic, selection and bool/index reduction mappers of
// tf_ops_logic.cc, compiled and run against references from TensorFlow's
// documentation: Select's vector condition picks rows, SelectV2 broadcasts,
// All/Any honour keep_dims, ArgMax/ArgMin return the first extreme index in
// output_type (int64 by default).
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

std::vector<uint8_t> Bools(const HostValue& v) { return v.as<uint8_t>(); }

TEST(TfLogicOps, ComparisonsBroadcast) {
  const Floats a = {1, 2, 3, 4, 5, 6}, b = {2, 5, 3};  // a [2,3], b [3]
  const std::map<std::string, std::function<bool(float, float)>> ops = {
      {"Equal", std::equal_to<float>()},     {"NotEqual", std::not_equal_to<float>()},
      {"Less", std::less<float>()},          {"LessEqual", std::less_equal<float>()},
      {"Greater", std::greater<float>()},    {"GreaterEqual", std::greater_equal<float>()}};
  for (const auto& [op, f] : ops) {
    SCOPED_TRACE(op);
    auto out = RunWithConst(op, {2, 3}, a, {3}, b);
    ASSERT_TRUE(out.ok()) << out.status().message();
    std::vector<uint8_t> want;
    for (size_t i = 0; i < 6; ++i) want.push_back(f(a[i], b[i % 3]));
    EXPECT_EQ(Bools((*out)[0]), want);
  }
}

TEST(TfLogicOps, LogicalAndOrNot) {
  const std::vector<uint8_t> p = {0, 0, 1, 1}, q = {0, 1, 0, 1};
  const std::map<std::string, std::vector<uint8_t>> want = {
      {"LogicalAnd", {0, 0, 0, 1}}, {"LogicalOr", {0, 1, 1, 1}}, {"LogicalNot", {1, 1, 0, 0}}};
  for (const auto& [op, w] : want) {
    SCOPED_TRACE(op);
    TfGraph g;
    g.Placeholder("p", {4}, tf::DT_BOOL);
    g.Placeholder("q", {4}, tf::DT_BOOL);
    if (op == "LogicalNot") g.Node(op, "y", {"p"});
    else g.Node(op, "y", {"p", "q"});
    auto out = RunTf(g, op == "LogicalNot" ? std::vector<HostValue>{Host<uint8_t>({4}, p)}
                                           : std::vector<HostValue>{Host<uint8_t>({4}, p), Host<uint8_t>({4}, q)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ(Bools((*out)[0]), w);
  }
}

TEST(TfLogicOps, SelectWithAVectorConditionPicksRows) {
  // tf.compat.v1.where: condition [3] over values [3,2,2] selects whole rows.
  const Floats t = Iota(12, 1.f, 0.f), e = Iota(12, -1.f, 0.f);
  TfGraph g;
  g.Placeholder("c", {3}, tf::DT_BOOL);
  g.Placeholder("t", {3, 2, 2});
  g.Placeholder("e", {3, 2, 2});
  g.Node("Select", "y", {"c", "t", "e"});
  const std::vector<uint8_t> c = {1, 0, 1};
  auto out = RunTf(g, {Host<uint8_t>({3}, c), Host<float>({}, t), Host<float>({}, e)});
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats want;
  for (size_t i = 0; i < 12; ++i) want.push_back(c[i / 4] ? t[i] : e[i]);
  EXPECT_EQ((*out)[0].f(), want);
}

// Values held as NCHW (after a conv): Select's row condition, a comparison
// and Any over H and W follow the hold and give TF's numbers.
TEST(TfLogicOps, SelectAndAnyOnNchwHeldValues) {
  const Floats x = Iota(24);  // [2,2,2,3] NHWC
  TfGraph g;
  g.Placeholder("x", {2, 2, 2, 3});
  g.Placeholder("c", {2}, tf::DT_BOOL);
  NchwHeld(g, "h", "x", 3);
  g.Node("Neg", "neg", {"h"});
  g.Node("Select", "sel", {"c", "h", "neg"});
  g.ConstF("half", {3}, {0.f, 0.5f, 1.f});
  g.Node("Greater", "gt", {"sel", "half"});
  g.ConstI32("hw", {2}, {1, 2});
  g.Node("Any", "any", {"gt", "hw"});
  ParseOptions o;
  o.out_nodes = {"sel", "any"};
  auto out = RunTf(g, {Host<float>({}, x), Host<uint8_t>({2}, {0, 1})}, o);
  ASSERT_TRUE(out.ok()) << out.status().message();
  Floats sel(24);
  for (size_t i = 0; i < 24; ++i) sel[i] = i < 12 ? -x[i] : x[i];
  EXPECT_EQ((*out)[0].f(), sel);
  std::vector<uint8_t> any(6, 0);  // [2,3]: any over h, w of sel > half[c]
  const Floats half = {0.f, 0.5f, 1.f};
  for (size_t i = 0; i < 24; ++i) any[(i / 12) * 3 + i % 3] |= sel[i] > half[i % 3];
  EXPECT_EQ((*out)[1].dims, (Ints{2, 3}));
  EXPECT_EQ(Bools((*out)[1]), any);
}

TEST(TfLogicOps, SelectWithAFullConditionAndSelectV2Broadcasting) {
  const Floats t = {1, 2, 3, 4, 5, 6}, e = {-1, -2, -3, -4, -5, -6};
  {
    TfGraph g;
    g.Placeholder("c", {2, 3}, tf::DT_BOOL);
    g.Placeholder("t", {2, 3});
    g.Placeholder("e", {2, 3});
    g.Node("Select", "y", {"c", "t", "e"});
    const std::vector<uint8_t> c = {1, 0, 0, 1, 1, 0};
    auto out = RunTf(g, {Host<uint8_t>({2, 3}, c), Host<float>({2, 3}, t), Host<float>({2, 3}, e)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].f(), (Floats{1, -2, -3, 4, 5, -6}));
  }
  {  // tf.where (SelectV2): condition [3] broadcasts along the last axis, e is a scalar.
    TfGraph g;
    g.Placeholder("c", {3}, tf::DT_BOOL);
    g.Placeholder("t", {2, 3});
    g.ConstF("e", {}, {0});
    g.Node("SelectV2", "y", {"c", "t", "e"});
    auto out = RunTf(g, {Host<uint8_t>({3}, {1, 0, 1}), Host<float>({2, 3}, t)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].f(), (Floats{1, 0, 3, 4, 0, 6}));
  }
}

TEST(TfLogicOps, SelectRejectsAMismatchedConditionNamingTheNode) {
  TfGraph g;
  g.Placeholder("c", {2, 2}, tf::DT_BOOL);
  g.Placeholder("t", {2, 2, 2});
  g.Placeholder("e", {2, 2, 2});
  g.Node("Select", "sel", {"c", "t", "e"});
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "node sel (Select)"));
  EXPECT_NE(r.status().message().find("vector over their first dimension"), std::string::npos);
}

TEST(TfLogicOps, AllAndAnyWithKeepDims) {
  // [2,3]: {1,1,1}, {0,1,0}
  const std::vector<uint8_t> x = {1, 1, 1, 0, 1, 0};
  struct Case {
    std::string op;
    int32_t axis;
    bool keep;
    Ints dims;
    std::vector<uint8_t> want;
  };
  for (const Case& c : {Case{"All", 1, false, {2}, {1, 0}}, Case{"Any", 1, true, {2, 1}, {1, 1}},
                        Case{"All", 0, false, {3}, {0, 1, 0}}, Case{"Any", -2, false, {3}, {1, 1, 1}}}) {
    SCOPED_TRACE(c.op + " " + std::to_string(c.axis));
    TfGraph g;
    g.Placeholder("x", {2, 3}, tf::DT_BOOL);
    g.ConstI32("axis", {1}, {c.axis});
    auto* r = g.Node(c.op, "y", {"x", "axis"});
    SetType(r, "Tidx", tf::DT_INT32);
    SetB(r, "keep_dims", c.keep);
    auto out = RunTf(g, {Host<uint8_t>({2, 3}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    EXPECT_EQ((*out)[0].dims, c.dims);
    EXPECT_EQ(Bools((*out)[0]), c.want);
  }
  TfGraph f;
  f.Placeholder("x", {2});
  f.ConstI32("axis", {1}, {0});
  f.Node("All", "all", {"x", "axis"});
  auto r = Parse(f);
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "node all (All): input must be bool, not f32"));
}

TEST(TfLogicOps, ArgMaxAndArgMinInTheirOutputType) {
  // [2,3] with a tie in row 1: the first index wins.
  const Floats x = {1, 5, 2, 7, 0, 7};
  struct Case {
    std::string op;
    int32_t dim;
    tf::DataType out;
    std::vector<int64_t> want;
  };
  for (const Case& c : {Case{"ArgMax", 1, tf::DT_INT64, {1, 0}}, Case{"ArgMin", 1, tf::DT_INT32, {0, 1}},
                        Case{"ArgMax", 0, tf::DT_INVALID, {1, 0, 1}}, Case{"ArgMin", -2, tf::DT_INT32, {0, 1, 0}}}) {
    SCOPED_TRACE(c.op + " " + std::to_string(c.dim));
    TfGraph g;
    g.Placeholder("x", {2, 3});
    g.ConstI32("dim", {}, {c.dim});
    auto* a = g.Node(c.op, "y", {"x", "dim"});
    if (c.out != tf::DT_INVALID) SetType(a, "output_type", c.out);  // absent: TF's default int64
    auto out = RunTf(g, {Host<float>({2, 3}, x)});
    ASSERT_TRUE(out.ok()) << out.status().message();
    std::vector<int64_t> got;
    if (c.out == tf::DT_INT32)
      for (int32_t v : (*out)[0].as<int32_t>()) got.push_back(v);
    else
      got = (*out)[0].as<int64_t>();
    EXPECT_EQ(got, c.want);
  }
  TfGraph g;
  g.Placeholder("x", {2, 3});
  g.ConstI32("dim", {}, {1});
  SetType(g.Node("ArgMax", "am", {"x", "dim"}), "output_type", tf::DT_INT16);
  auto r = Parse(g);
  ASSERT_TRUE(Refused(r, StatusCode::kUnsupported, "node am (ArgMax): output_type"));
  TfGraph d;
  d.Placeholder("x", {2, 3});
  d.Placeholder("dim", {}, tf::DT_INT32);
  d.Node("ArgMin", "am", {"x", "dim"});
  auto dr = Parse(d);
  ASSERT_TRUE(Refused(dr, StatusCode::kUnsupported, "dimension (input 1) must be a constant"));
}

}  // namespace
}  // namespace ge::test
