// The matrix mappers (tf_ops_linalg.cc: Einsum, MatrixBandPart, MatrixDiag)
// and GatherV2 with batch_dims, against TensorFlow's documented examples.
#include "tests/common/refusal.h"
#include "tf_test_util.h"

namespace ge::test {
namespace {

TEST(TfLinalgOps, EinsumBatchMatMulAndTrace) {
  TfGraph g;
  g.Placeholder("a", {2, 2, 3});
  g.ConstF("b", {2, 3, 2}, Count(12));
  SetS(g.Node("Einsum", "bmm", {"a", "b"}), "equation", "bij,bjk->bik");
  g.ConstF("m", {3, 3}, Count(9));
  SetS(g.Node("Einsum", "diag", {"m"}), "equation", "ii->i");
  auto r = RunTf(g, {Host<float>({2, 2, 3}, Count(12))}, Outs({"bmm", "diag"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  Floats want;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 2; ++k) {
        float acc = 0;
        for (int j = 0; j < 3; ++j) acc += static_cast<float>((b * 6 + i * 3 + j) * (b * 6 + j * 2 + k));
        want.push_back(acc);
      }
  EXPECT_EQ((*r)[0].f(), want);
  EXPECT_EQ((*r)[1].f(), (Floats{0, 4, 8}));
}

TEST(TfLinalgOps, MatrixBandPartAsTfDocumentsIt) {
  const Floats x = {0, 1, 2, 3, -1, 0, 1, 2, -2, -1, 0, 1, -3, -2, -1, 0};
  TfGraph g;
  g.Placeholder("x", {4, 4});
  g.ConstI32("one", {}, {1});
  g.ConstI32("two", {}, {2});
  g.ConstI32("zero", {}, {0});
  g.ConstI32("all", {}, {-1});
  g.Node("MatrixBandPart", "lower1", {"x", "one", "all"});
  g.Node("MatrixBandPart", "band21", {"x", "two", "one"});
  g.Node("MatrixBandPart", "diag", {"x", "zero", "zero"});
  g.Node("MatrixBandPart", "upper", {"x", "zero", "all"});
  auto r = RunTf(g, {Host<float>({4, 4}, x)}, Outs({"lower1", "band21", "diag", "upper"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].f(), (Floats{0, 1, 2, 3, -1, 0, 1, 2, 0, -1, 0, 1, 0, 0, -1, 0}));
  EXPECT_EQ((*r)[1].f(), (Floats{0, 1, 0, 0, -1, 0, 1, 0, -2, -1, 0, 1, 0, -2, -1, 0}));
  EXPECT_EQ((*r)[2].f(), (Floats{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ((*r)[3].f(), (Floats{0, 1, 2, 3, 0, 0, 1, 2, 0, 0, 0, 1, 0, 0, 0, 0}));

  TfGraph c;
  c.Placeholder("x", {4, 4});
  c.Placeholder("k", {}, tf::DT_INT32);
  c.ConstI32("one", {}, {1});
  c.Node("MatrixBandPart", "band", {"x", "k", "one"});
  auto bad = Parse(c);
  ASSERT_TRUE(Refused(bad, StatusCode::kUnsupported, "band (MatrixBandPart): num_lower (input 1) must be a constant"));
}

TEST(TfLinalgOps, MatrixDiagWithPadding) {
  TfGraph g;
  g.Placeholder("d", {2, 2});
  g.Node("MatrixDiag", "diag", {"d"});
  g.ConstI32("k", {}, {0});
  g.ConstI32("size", {}, {-1});
  g.ConstF("pad", {}, {9});
  g.Node("MatrixDiagV3", "diag3", {"d", "k", "size", "size", "pad"});
  g.ConstI32("k1", {}, {1});
  auto r = RunTf(g, {Host<float>({2, 2}, Floats{1, 2, 3, 4})}, Outs({"diag", "diag3"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{2, 2, 2}));
  EXPECT_EQ((*r)[0].f(), (Floats{1, 0, 0, 2, 3, 0, 0, 4}));
  EXPECT_EQ((*r)[1].f(), (Floats{1, 9, 9, 2, 3, 9, 9, 4}));
  g.Node("MatrixDiagV3", "super", {"d", "k1", "size", "size", "pad"});
  auto bad = Parse(g, Outs({"super"}));
  ASSERT_TRUE(Refused(bad, StatusCode::kUnsupported, "only the main diagonal"));
}

TEST(TfLinalgOps, GatherV2WithBatchDims) {
  TfGraph g;
  g.Placeholder("p", {2, 3, 4});
  g.ConstI32("idx", {2, 2}, {2, 0, 1, 1});
  g.ConstI32("axis1", {}, {1});
  g.ConstI32("axis2", {}, {-1});
  SetI(g.Node("GatherV2", "rows", {"p", "idx", "axis1"}), "batch_dims", 1);
  SetI(g.Node("GatherV2", "cols", {"p", "idx", "axis2"}), "batch_dims", -1);
  auto r = RunTf(g, {Host<float>({2, 3, 4}, Count(24))}, Outs({"rows", "cols"}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)[0].dims, (Ints{2, 2, 4}));
  EXPECT_EQ((*r)[0].f(), (Floats{8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 16, 17, 18, 19}));
  EXPECT_EQ((*r)[1].dims, (Ints{2, 3, 2}));
  EXPECT_EQ((*r)[1].f(), (Floats{2, 0, 6, 4, 10, 8, 13, 13, 17, 17, 21, 21}));

  TfGraph c;
  c.Placeholder("p", {2, 3, 4});
  c.ConstI32("idx", {2, 2}, {2, 0, 1, 1});
  c.ConstI32("axis0", {}, {0});
  SetI(c.Node("GatherV2", "g", {"p", "idx", "axis0"}), "batch_dims", 1);
  auto bad = Parse(c);
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "at most the axis 0"));
}

}  // namespace
}  // namespace ge::test
