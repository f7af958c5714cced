// NonZero, Unique and Compress: kernels whose output shapes come out of the
// computation. Each is asked OutputDims, then run into outputs of those
// dims, against the ONNX operator examples and hand-computed values; and
// run as the compiler creates them from constant inputs (static dims).
#include <cmath>
#include <optional>

#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

using I64s = std::vector<int64_t>;

TEST(NonZeroKernel, CoordinatesInRowMajorOrder) {
  // -0 is zero, NaN is not.
  const HostTensor x = HostTensor::F32({2, 3}, {1, 0, -0.0f, kNaN, 2, 0});
  RUN_COMPUTED_OK(a, "NonZero", {}, {x}, {{DataType::kInt64, {2, -1}}});
  EXPECT_EQ(a[0].dims, (dims{2, 3}));
  EXPECT_EQ(a[0].as<int64_t>(), (I64s{0, 1, 1, 0, 0, 1}));
  // The ONNX example: [[1, 0], [1, 1]].
  RUN_COMPUTED_OK(b, "NonZero", {}, {HostTensor::I64({2, 2}, {1, 0, 1, 1})}, {{DataType::kInt64, {2, -1}}});
  EXPECT_EQ(b[0].as<int64_t>(), (I64s{0, 1, 1, 0, 0, 1}));
  RUN_COMPUTED_OK(c, "NonZero", {}, {Bool({3}, {1, 0, 1})}, {{DataType::kInt64, {1, -1}}});
  EXPECT_EQ(c[0].as<int64_t>(), (I64s{0, 2}));
}

TEST(NonZeroKernel, ScalarsHalvesAndNothing) {
  RUN_COMPUTED_OK(s, "NonZero", {}, {I32({}, {5})}, {{DataType::kInt64, {1, -1}}});
  EXPECT_EQ(s[0].dims, (dims{1, 1}));
  EXPECT_EQ(s[0].as<int64_t>(), (I64s{0}));
  RUN_COMPUTED_OK(z, "NonZero", {}, {HostTensor::F32({2, 2}, {0, 0, 0, 0})}, {{DataType::kInt64, {2, -1}}});
  EXPECT_EQ(z[0].dims, (dims{2, 0}));
  // f16: -0 (0x8000) is zero, 1.0 (0x3c00) is not.
  const HostTensor h = HostTensor::Of<uint16_t>(DataType::kFloat16, {3}, {0x8000, 0x3c00, 0});
  RUN_COMPUTED_OK(f, "NonZero", {}, {h}, {{DataType::kInt64, {1, -1}}});
  EXPECT_EQ(f[0].as<int64_t>(), (I64s{1}));
}

TEST(NonZeroKernel, StaticDimsAreCheckedWhenRun) {
  // Created as the compiler does from a constant input: the dims are known.
  const HostTensor x = HostTensor::I64({2, 2}, {1, 0, 1, 1});
  RUN_OK(ok, "NonZero", {}, {x}, {{DataType::kInt64, {2, 3}}});
  EXPECT_EQ(ok[0].as<int64_t>(), (I64s{0, 1, 1, 0, 0, 1}));
  auto wrong = RunKernel("NonZero", {}, {x}, {{DataType::kInt64, {2, 2}}});
  ASSERT_TRUE(Refused(wrong, StatusCode::kInvalidArgument, "come out as [2,3]"));
  // Unknown dims and no OutputDims: the kernel cannot know the buffers.
  auto c = CreateKernel("NonZero", {}, {x}, {{DataType::kInt64, {2, -1}}});
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  int64_t out[6];
  void* outs[] = {out};
  EXPECT_TRUE(Refused(c->kernel->Run(c->in_ptrs.data(), outs), StatusCode::kInvalidArgument,
                      "the outputs come out as [2,3], not [2,-1] as created (ask OutputDims"));
  // The output's rank row is known: [3, -1] does not fit a 2-D input.
  auto bad = RunComputedKernel("NonZero", {}, {x}, {{DataType::kInt64, {3, -1}}});
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "node test_NonZero (NonZero)"));
}

hal::Attrs UniqueAttrs(int64_t sorted, std::optional<int64_t> axis = std::nullopt) {
  hal::Attrs a;
  a.Set("sorted", sorted);
  if (axis) a.Set("axis", *axis);
  return a;
}

std::vector<hal::TensorInfo> UniqueOutputs(DataType y, dims y_dims, int64_t n) {
  return {{y, std::move(y_dims)}, {DataType::kInt64, {-1}}, {DataType::kInt64, {n}}, {DataType::kInt64, {-1}}};
}

TEST(UniqueKernel, FlattenedSortedAndInFirstOccurrenceOrder) {
  const HostTensor x = HostTensor::F32({6}, {2, 1, 1, 3, 4, 3});
  RUN_COMPUTED_OK(s, "Unique", UniqueAttrs(1), {x}, UniqueOutputs(DataType::kFloat32, {-1}, 6));
  EXPECT_EQ(s[0].as<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(s[1].as<int64_t>(), (I64s{1, 0, 3, 4}));
  EXPECT_EQ(s[2].as<int64_t>(), (I64s{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(s[3].as<int64_t>(), (I64s{2, 1, 2, 1}));
  RUN_COMPUTED_OK(u, "Unique", UniqueAttrs(0), {x}, UniqueOutputs(DataType::kFloat32, {-1}, 6));
  EXPECT_EQ(u[0].as<float>(), (std::vector<float>{2, 1, 3, 4}));
  EXPECT_EQ(u[1].as<int64_t>(), (I64s{0, 1, 3, 4}));
  EXPECT_EQ(u[2].as<int64_t>(), (I64s{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(u[3].as<int64_t>(), (I64s{1, 2, 2, 1}));
  // Y alone; a 2-D input flattens; NaNs sort last and count as one.
  RUN_COMPUTED_OK(y, "Unique", UniqueAttrs(1), {HostTensor::F32({2, 2}, {kNaN, 1, kNaN, -1})},
         UniqueOutputs(DataType::kFloat32, {-1}, 4));
  ASSERT_EQ(y[0].dims, (dims{3}));
  EXPECT_EQ(y[0].as<float>()[1], 1.f);
  EXPECT_TRUE(std::isnan(y[0].as<float>()[2]));
  EXPECT_EQ(y[3].as<int64_t>(), (I64s{1, 1, 2}));
  RUN_COMPUTED_OK(only, "Unique", UniqueAttrs(1), {I32({4}, {3, 3, 3, 3})}, {{DataType::kInt32, {-1}}});
  EXPECT_EQ(only[0].as<int32_t>(), (std::vector<int32_t>{3}));
}

TEST(UniqueKernel, SlicesAlongAnAxis) {
  // ONNX test_unique_sorted_with_axis: rows of [[1,0,0],[1,0,0],[2,3,4]].
  const HostTensor x = HostTensor::F32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4});
  RUN_COMPUTED_OK(a, "Unique", UniqueAttrs(1, 0), {x}, UniqueOutputs(DataType::kFloat32, {-1, 3}, 3));
  EXPECT_EQ(a[0].dims, (dims{2, 3}));
  EXPECT_EQ(a[0].as<float>(), (std::vector<float>{1, 0, 0, 2, 3, 4}));
  EXPECT_EQ(a[1].as<int64_t>(), (I64s{0, 2}));
  EXPECT_EQ(a[2].as<int64_t>(), (I64s{0, 0, 1}));
  EXPECT_EQ(a[3].as<int64_t>(), (I64s{2, 1}));
  // test_unique_sorted_with_negative_axis: the columns of [[1,0,0],[1,0,0],[2,3,3]].
  const HostTensor c = HostTensor::F32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 3});
  RUN_COMPUTED_OK(b, "Unique", UniqueAttrs(1, -1), {c}, UniqueOutputs(DataType::kFloat32, {3, -1}, 3));
  EXPECT_EQ(b[0].dims, (dims{3, 2}));
  EXPECT_EQ(b[0].as<float>(), (std::vector<float>{0, 1, 0, 1, 3, 2}));
  EXPECT_EQ(b[1].as<int64_t>(), (I64s{1, 0}));
  EXPECT_EQ(b[2].as<int64_t>(), (I64s{1, 0, 0}));
  EXPECT_EQ(b[3].as<int64_t>(), (I64s{2, 1}));
  // test_unique_sorted_with_axis_3d: [2,4,2] along axis 1.
  const HostTensor t = HostTensor::F32({2, 4, 2}, {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1});
  RUN_COMPUTED_OK(d, "Unique", UniqueAttrs(1, 1), {t},
         UniqueOutputs(DataType::kFloat32, {2, -1, 2}, 4));
  EXPECT_EQ(d[0].dims, (dims{2, 3, 2}));
  EXPECT_EQ(d[0].as<float>(), (std::vector<float>{0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}));
  EXPECT_EQ(d[1].as<int64_t>(), (I64s{1, 0, 2}));
  EXPECT_EQ(d[2].as<int64_t>(), (I64s{1, 0, 2, 0}));
  EXPECT_EQ(d[3].as<int64_t>(), (I64s{2, 1, 1}));
  // Unsorted slices keep their first occurrence order.
  RUN_COMPUTED_OK(e, "Unique", UniqueAttrs(0, 1), {t}, UniqueOutputs(DataType::kFloat32, {2, -1, 2}, 4));
  EXPECT_EQ(e[0].as<float>(), (std::vector<float>{1, 1, 0, 1, 2, 1, 1, 1, 0, 1, 2, 1}));
  EXPECT_EQ(e[2].as<int64_t>(), (I64s{0, 1, 2, 1}));
}

hal::Attrs Axis(int64_t axis) { return Attr("axis", axis); }

TEST(CompressKernel, SlicesOrElementsWhereTheConditionHolds) {
  // The ONNX examples on [[1,2],[3,4],[5,6]].
  const HostTensor x = HostTensor::F32({3, 2}, {1, 2, 3, 4, 5, 6});
  RUN_COMPUTED_OK(rows, "Compress", Axis(0), {x, Bool({3}, {0, 1, 1})}, {{DataType::kFloat32, {-1, 2}}});
  EXPECT_EQ(rows[0].dims, (dims{2, 2}));
  EXPECT_EQ(rows[0].as<float>(), (std::vector<float>{3, 4, 5, 6}));
  RUN_COMPUTED_OK(cols, "Compress", Axis(-1), {x, Bool({2}, {0, 1})}, {{DataType::kFloat32, {3, -1}}});
  EXPECT_EQ(cols[0].dims, (dims{3, 1}));
  EXPECT_EQ(cols[0].as<float>(), (std::vector<float>{2, 4, 6}));
  RUN_COMPUTED_OK(flat, "Compress", {}, {x, Bool({5}, {0, 1, 0, 0, 1})}, {{DataType::kFloat32, {-1}}});
  EXPECT_EQ(flat[0].as<float>(), (std::vector<float>{2, 5}));
  // A condition longer than the axis: the extra entries are ignored.
  RUN_COMPUTED_OK(longer, "Compress", Axis(0), {HostTensor::I64({3}, {7, 8, 9}), Bool({4}, {1, 0, 1, 1})},
         {{DataType::kInt64, {-1}}});
  EXPECT_EQ(longer[0].as<int64_t>(), (I64s{7, 9}));
  RUN_COMPUTED_OK(none, "Compress", Axis(1), {x, Bool({2}, {0, 0})}, {{DataType::kFloat32, {3, -1}}});
  EXPECT_EQ(none[0].dims, (dims{3, 0}));
  auto bad = RunComputedKernel("Compress", {}, {x, HostTensor::F32({2}, {1, 0})}, {{DataType::kFloat32, {-1}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kUnsupported, "condition dtype f32 is not supported (bool)"));
}

}  // namespace
}  // namespace ge::test
