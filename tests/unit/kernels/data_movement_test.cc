// Data movement kernels: Transpose (tiled, row-copy and general forms),
// Concat, Split, Slice (negative steps, clamping, runtime operands), Gather
// (negative indices, errors), Pad (constant, reflect, edge), Tile.
#include <limits>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(TransposeKernel, TwoDimTiled) {
  const int64_t m = 20, n = 37;  // not multiples of the tile
  RUN_OK(out, "Transpose", {}, {HostTensor::F32({m, n}, Iota(m * n))}, {{DataType::kFloat32, {n, m}}});
  const auto y = out[0].as<float>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j) ASSERT_EQ(y[i * m + j], static_cast<float>(j * n + i)) << i << "," << j;
}

TEST(TransposeKernel, BertHeads0213) {
  const dims in = {1, 3, 4, 5};  // [B, S, H, D] -> [B, H, S, D]
  RUN_OK(out, "Transpose", Attr("perm", dims{0, 2, 1, 3}), {HostTensor::F32(in, Iota(60))},
         {{DataType::kFloat32, {1, 4, 3, 5}}});
  const auto y = out[0].as<float>();
  for (int h = 0; h < 4; ++h)
    for (int s = 0; s < 3; ++s)
      for (int d = 0; d < 5; ++d) ASSERT_EQ(y[(h * 3 + s) * 5 + d], static_cast<float>((s * 4 + h) * 5 + d));
}

TEST(TransposeKernel, KeyTranspose0231UsesTiles) {
  const dims in = {1, 3, 4, 5};  // [B, S, H, D] -> [B, H, D, S]
  RUN_OK(out, "Transpose", Attr("perm", dims{0, 2, 3, 1}),
         {HostTensor::I64(in,
                          [] {
                            std::vector<int64_t> v(60);
                            for (int i = 0; i < 60; ++i) v[i] = i;
                            return v;
                          }())},
         {{DataType::kInt64, {1, 4, 5, 3}}});
  const auto y = out[0].as<int64_t>();
  for (int h = 0; h < 4; ++h)
    for (int d = 0; d < 5; ++d)
      for (int s = 0; s < 3; ++s) ASSERT_EQ(y[(h * 5 + d) * 3 + s], (s * 4 + h) * 5 + d);
}

TEST(TransposeKernel, DefaultReversesAndGeneralPerm) {
  RUN_OK(rev, "Transpose", {}, {HostTensor::F32({2, 3, 4}, Iota(24))}, {{DataType::kFloat32, {4, 3, 2}}});
  const auto r = rev[0].as<float>();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) ASSERT_EQ(r[(i * 3 + j) * 2 + k], static_cast<float>((k * 3 + j) * 4 + i));
  RUN_OK(g, "Transpose", Attr("perm", dims{2, 0, 1}), {HostTensor::F32({2, 3, 4}, Iota(24))},
         {{DataType::kFloat32, {4, 2, 3}}});
  const auto y = g[0].as<float>();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) ASSERT_EQ(y[(i * 2 + j) * 3 + k], static_cast<float>((j * 3 + k) * 4 + i));
}

TEST(TransposeKernel, RejectsBadPermAndOutput) {
  auto rep = RunKernel("Transpose", Attr("perm", dims{0, 0}), {HostTensor::F32({2, 2}, Iota(4))},
                       {{DataType::kFloat32, {2, 2}}});
  ASSERT_TRUE(Refused(rep, StatusCode::kInvalidArgument, "perm"));
  auto out = RunKernel("Transpose", {}, {HostTensor::F32({2, 3}, Iota(6))}, {{DataType::kFloat32, {2, 3}}});
  EXPECT_TRUE(
      Refused(out, StatusCode::kInvalidArgument, "output 0 dims [2,3] do not match [3,2] implied by the inputs and"));
}

TEST(ConcatKernel, AxisAndNegativeAxis) {
  RUN_OK(a1, "Concat", Attr("axis", int64_t{1}),
         {HostTensor::F32({2, 1}, {1, 2}), HostTensor::F32({2, 2}, {3, 4, 5, 6}), HostTensor::F32({2, 0}, {})},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(a1[0].as<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  RUN_OK(a0, "Concat", Attr("axis", int64_t{-2}),
         {HostTensor::I64({1, 2}, {1, 2}), HostTensor::I64({2, 2}, {3, 4, 5, 6})}, {{DataType::kInt64, {3, 2}}});
  EXPECT_EQ(a0[0].as<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ConcatKernel, LargeOnesSplitOverThreadsKeepEveryRowInPlace) {
  // 1000 rows of 100 + 60 floats (640 KB): above the threaded size, and a
  // row count no thread count divides evenly.
  const int64_t rows = 1000, a = 100, b = 60;
  RUN_OK(out, "Concat", Attr("axis", int64_t{1}),
         {HostTensor::F32({rows, a}, Iota(rows * a)), HostTensor::F32({rows, b}, Iota(rows * b))},
         {{DataType::kFloat32, {rows, a + b}}});
  const auto y = out[0].as<float>();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < a + b; ++c)
      ASSERT_EQ(y[r * (a + b) + c], static_cast<float>(c < a ? r * a + c : r * b + (c - a))) << r << "," << c;
}

TEST(ConcatKernel, RejectsMismatchedOperands) {
  auto r =
      RunKernel("Concat", Attr("axis", int64_t{0}),
                {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({1, 3}, {1, 2, 3})}, {{DataType::kFloat32, {2, 2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "operand 1"));
}

TEST(SplitKernel, EqualAndUneven) {
  RUN_OK(eq, "Split", Attr("axis", int64_t{1}), {HostTensor::F32({2, 4}, Iota(8))},
         {{DataType::kFloat32, {2, 2}}, {DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(eq[0].as<float>(), (std::vector<float>{0, 1, 4, 5}));
  EXPECT_EQ(eq[1].as<float>(), (std::vector<float>{2, 3, 6, 7}));
  // Sizes from input 1 (opset 13), negative axis.
  RUN_OK(un, "Split", Attr("axis", int64_t{-1}),
         {HostTensor::F32({2, 5}, Iota(10)), HostTensor::I64({3}, {1, 3, 1}, true)},
         {{DataType::kFloat32, {2, 1}}, {DataType::kFloat32, {2, 3}}, {DataType::kFloat32, {2, 1}}});
  EXPECT_EQ(un[0].as<float>(), (std::vector<float>{0, 5}));
  EXPECT_EQ(un[1].as<float>(), (std::vector<float>{1, 2, 3, 6, 7, 8}));
  EXPECT_EQ(un[2].as<float>(), (std::vector<float>{4, 9}));
  // No sizes, 5 into 2: 3 + 2 (opset 18 num_outputs).
  RUN_OK(ceil, "Split", {}, {HostTensor::F32({5}, Iota(5))}, {{DataType::kFloat32, {3}}, {DataType::kFloat32, {2}}});
  EXPECT_EQ(ceil[0].as<float>(), (std::vector<float>{0, 1, 2}));
  EXPECT_EQ(ceil[1].as<float>(), (std::vector<float>{3, 4}));
  // Attribute split (opset < 13).
  RUN_OK(at, "Split", Attr("split", dims{4, 1}), {HostTensor::F32({5}, Iota(5))},
         {{DataType::kFloat32, {4}}, {DataType::kFloat32, {1}}});
  EXPECT_EQ(at[1].as<float>(), (std::vector<float>{4}));
}

TEST(SplitKernel, RuntimeSplitFollowsOutputDims) {
  RUN_OK(out, "Split", {}, {HostTensor::F32({5}, Iota(5)), HostTensor::I64({2}, {1, 4})},
         {{DataType::kFloat32, {1}}, {DataType::kFloat32, {4}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{0}));
  EXPECT_EQ(out[1].as<float>(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(SplitKernel, RejectsOutputsThatDisagreeWithSplit) {
  auto r = RunKernel("Split", {}, {HostTensor::F32({5}, Iota(5)), HostTensor::I64({2}, {2, 3}, true)},
                     {{DataType::kFloat32, {3}}, {DataType::kFloat32, {2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "split"));
}

TEST(SliceKernel, ConstantStartsEndsAxesSteps) {
  // x [3,4]: rows 1.., columns 0..4 step 2
  RUN_OK(out, "Slice", {},
         {HostTensor::F32({3, 4}, Iota(12)), HostTensor::I64({2}, {1, 0}, true), HostTensor::I64({2}, {kMax, 4}, true),
          HostTensor::I64({2}, {0, 1}, true), HostTensor::I64({2}, {1, 2}, true)},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{4, 6, 8, 10}));
}

TEST(SliceKernel, NegativeStepsAndClampedEnds) {
  // Reverse the whole axis: start -1, end INT64_MIN, step -1.
  RUN_OK(rev, "Slice", {},
         {HostTensor::F32({5}, Iota(5)), HostTensor::I64({1}, {-1}, true), HostTensor::I64({1}, {kMin}, true),
          HostTensor::I64({1}, {0}, true), HostTensor::I64({1}, {-1}, true)},
         {{DataType::kFloat32, {5}}});
  EXPECT_EQ(rev[0].as<float>(), (std::vector<float>{4, 3, 2, 1, 0}));
  // start past the end clamps to dim-1; step -2 on axis -1 of [2,5].
  RUN_OK(two, "Slice", {},
         {HostTensor::F32({2, 5}, Iota(10)), HostTensor::I64({1}, {100}, true), HostTensor::I64({1}, {0}, true),
          HostTensor::I64({1}, {-1}, true), HostTensor::I64({1}, {-2}, true)},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(two[0].as<float>(), (std::vector<float>{4, 2, 9, 7}));
  // Negative start, end beyond the dim clamps; absent axes/steps.
  RUN_OK(tail, "Slice", {},
         {HostTensor::F32({6}, Iota(6)), HostTensor::I64({1}, {-2}, true), HostTensor::I64({1}, {1000}, true)},
         {{DataType::kFloat32, {2}}});
  EXPECT_EQ(tail[0].as<float>(), (std::vector<float>{4, 5}));
  // Empty result.
  RUN_OK(none, "Slice", {},
         {HostTensor::F32({6}, Iota(6)), HostTensor::I64({1}, {4}, true), HostTensor::I64({1}, {2}, true)},
         {{DataType::kFloat32, {0}}});
  EXPECT_TRUE(none[0].as<float>().empty());
}

TEST(SliceKernel, RuntimeOperandsAndInt32) {
  RUN_OK(out, "Slice", {}, {HostTensor::F32({4, 3}, Iota(12)), I32({1}, {1}), I32({1}, {3}), I32({1}, {0}, true)},
         {{DataType::kFloat32, {2, 3}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{3, 4, 5, 6, 7, 8}));
  auto bad =
      RunKernel("Slice", {}, {HostTensor::F32({4, 3}, Iota(12)), I32({1}, {0}), I32({1}, {3}), I32({1}, {0}, true)},
                {{DataType::kFloat32, {2, 3}}});
  ASSERT_TRUE(
      Refused(bad, StatusCode::kInvalidArgument,
              "the slice has 3 elements along axis 0, the output 2"));  // 3 rows, the output says 2: found at run time
  EXPECT_NE(bad.status().message().find("test_Slice"), std::string::npos) << bad.status().ToString();
}

TEST(SliceKernel, LegacyAttributes) {
  hal::Attrs a;
  a.Set("starts", dims{1});
  a.Set("ends", dims{-1});
  a.Set("axes", dims{1});
  RUN_OK(out, "Slice", a, {HostTensor::F32({2, 4}, Iota(8))}, {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1, 2, 5, 6}));
}

TEST(SliceKernel, RejectsZeroStepAndWrongOutput) {
  auto step =
      RunKernel("Slice", {},
                {HostTensor::F32({4}, Iota(4)), HostTensor::I64({1}, {0}, true), HostTensor::I64({1}, {4}, true),
                 HostTensor::I64({1}, {0}, true), HostTensor::I64({1}, {0}, true)},
                {{DataType::kFloat32, {4}}});
  ASSERT_TRUE(Refused(step, StatusCode::kInvalidArgument, "step"));
  auto out = RunKernel(
      "Slice", {}, {HostTensor::F32({4}, Iota(4)), HostTensor::I64({1}, {1}, true), HostTensor::I64({1}, {3}, true)},
      {{DataType::kFloat32, {3}}});
  EXPECT_TRUE(Refused(out, StatusCode::kInvalidArgument, "the slice has 2 elements along axis 0, the output 3"));
}

TEST(GatherKernel, EmbeddingRowsWithNegativeIds) {
  // [vocab=5, hidden=4] by ids [1,3]
  RUN_OK(out, "Gather", {}, {HostTensor::F32({5, 4}, Iota(20)), HostTensor::I64({1, 3}, {2, -1, 0})},
         {{DataType::kFloat32, {1, 3, 4}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{8, 9, 10, 11, 16, 17, 18, 19, 0, 1, 2, 3}));
}

TEST(GatherKernel, InnerAxisInt32AndConstantIndices) {
  RUN_OK(out, "Gather", Attr("axis", int64_t{-1}), {HostTensor::F32({2, 3}, Iota(6)), I32({2}, {2, -3}, true)},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{2, 0, 5, 3}));
  RUN_OK(scalar, "Gather", {}, {HostTensor::I64({3}, {7, 8, 9}), HostTensor::I64({}, {1}, true)},
         {{DataType::kInt64, {}}});
  EXPECT_EQ(scalar[0].as<int64_t>(), (std::vector<int64_t>{8}));
}

TEST(GatherKernel, OutOfRangeIndexIsAnError) {
  auto run = RunKernel("Gather", {}, {HostTensor::F32({3, 2}, Iota(6)), HostTensor::I64({1}, {3})},
                       {{DataType::kFloat32, {1, 2}}});
  ASSERT_TRUE(Refused(run, StatusCode::kInvalidArgument, "out of range"));
  auto create = RunKernel("Gather", {}, {HostTensor::F32({3, 2}, Iota(6)), HostTensor::I64({1}, {-4}, true)},
                          {{DataType::kFloat32, {1, 2}}});
  ASSERT_TRUE(Refused(create, StatusCode::kInvalidArgument, "index -4 is out of range for axis size 3"));
  EXPECT_EQ(create.status().code(), StatusCode::kInvalidArgument);
  auto dtype =
      RunKernel("Gather", {}, {HostTensor::F32({3}, Iota(3)), HostTensor::F32({1}, {0})}, {{DataType::kFloat32, {1}}});
  ASSERT_TRUE(Refused(dtype, StatusCode::kUnsupported, "indices dtype f32 is not supported (i64, i32)"));
  EXPECT_EQ(dtype.status().code(), StatusCode::kUnsupported);
}

TEST(PadKernel, ConstantWithValueInput) {
  RUN_OK(
      out, "Pad", {},
      {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({4}, {1, 0, 0, 1}, true), HostTensor::F32({}, {9}, true)},
      {{DataType::kFloat32, {3, 3}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{9, 9, 9, 1, 2, 9, 3, 4, 9}));
  RUN_OK(zero, "Pad", {}, {HostTensor::I64({2}, {1, 2}), HostTensor::I64({2}, {2, 1})}, {{DataType::kInt64, {5}}});
  EXPECT_EQ(zero[0].as<int64_t>(), (std::vector<int64_t>{0, 0, 1, 2, 0}));
}

TEST(PadKernel, Reflect) {
  // numpy.pad([[1,2,3],[4,5,6]], ((1,1),(2,2)), 'reflect')
  RUN_OK(out, "Pad", Attr("mode", std::string("reflect")),
         {HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6}), HostTensor::I64({4}, {1, 2, 1, 2}, true)},
         {{DataType::kFloat32, {4, 7}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1,  //
                                                    6, 5, 4, 5, 6, 5, 4,  //
                                                    3, 2, 1, 2, 3, 2, 1}));
}

TEST(PadKernel, EdgeAndNegativePads) {
  RUN_OK(edge, "Pad", Attr("mode", std::string("edge")),
         {HostTensor::F32({3}, {1, 2, 3}), HostTensor::I64({2}, {2, 1}, true)}, {{DataType::kFloat32, {6}}});
  EXPECT_EQ(edge[0].as<float>(), (std::vector<float>{1, 1, 1, 2, 3, 3}));
  RUN_OK(crop, "Pad", {}, {HostTensor::F32({4}, {1, 2, 3, 4}), HostTensor::I64({2}, {-1, 1})},
         {{DataType::kFloat32, {4}}});
  EXPECT_EQ(crop[0].as<float>(), (std::vector<float>{2, 3, 4, 0}));
}

TEST(PadKernel, RejectsBadModeAndDims) {
  auto mode =
      RunKernel("Pad", Attr("mode", std::string("mirror")),
                {HostTensor::F32({2}, {1, 2}), HostTensor::I64({2}, {1, 1}, true)}, {{DataType::kFloat32, {4}}});
  ASSERT_TRUE(Refused(mode, StatusCode::kUnsupported, "mirror"));
  auto dims_bad = RunKernel("Pad", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::I64({2}, {1, 1}, true)},
                            {{DataType::kFloat32, {5}}});
  EXPECT_TRUE(Refused(dims_bad, StatusCode::kInvalidArgument, "input dim 2 padded by 1 and 1 is not the output dim 5"));
}

TEST(TileKernel, RepeatsEachAxis) {
  RUN_OK(out, "Tile", {}, {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({2}, {2, 3}, true)},
         {{DataType::kFloat32, {4, 6}}});
  EXPECT_EQ(out[0].as<float>(), (std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                                                    1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
  auto bad = RunKernel("Tile", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::I64({1}, {2}, true)},
                       {{DataType::kFloat32, {6}}});
  EXPECT_TRUE(
      Refused(bad, StatusCode::kInvalidArgument, "output 0 dims [6] do not match [4] implied by the inputs and"));
}

}  // namespace
}  // namespace ge::test
