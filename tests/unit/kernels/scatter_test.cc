// ScatterElements / Scatter / ScatterND with each reduction, negative and
// repeated indices, and GatherND with and without batch dims: ONNX's
// examples, and out-of-range indices as run-time errors.
#include "tests/common/refusal.h"
#include "tests/unit/kernels/kernel_test_util.h"

namespace ge::test {
namespace {

hal::Attrs AxisReduction(int64_t axis, const std::string& reduction) {
  hal::Attrs a = Attr("axis", axis);
  a.Set("reduction", reduction);
  return a;
}

TEST(ScatterElementsKernel, OnnxExamples) {
  RUN_OK(a0, "ScatterElements", {},
         {HostTensor::F32({3, 3}, std::vector<float>(9, 0.f)), HostTensor::I64({2, 3}, {1, 0, 2, 0, 2, 1}),
          HostTensor::F32({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f})},
         {{DataType::kFloat32, {3, 3}}});
  EXPECT_EQ(a0[0].as<float>(), (std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
  // Negative indices count from the end; Scatter is the same op.
  RUN_OK(neg, "Scatter", Attr("axis", int64_t{1}),
         {HostTensor::F32({1, 5}, {1, 2, 3, 4, 5}), I32({1, 2}, {1, -3}), HostTensor::F32({1, 2}, {1.1f, 2.1f})},
         {{DataType::kFloat32, {1, 5}}});
  EXPECT_EQ(neg[0].as<float>(), (std::vector<float>{1, 1.1f, 2.1f, 4, 5}));
}

TEST(ScatterElementsKernel, Reductions) {
  auto run = [](const std::string& r) {
    return RunKernel("ScatterElements", AxisReduction(1, r),
                     {HostTensor::F32({1, 5}, {1, 2, 3, 4, 5}), HostTensor::I64({1, 3}, {1, 1, 3}),
                      HostTensor::F32({1, 3}, {1.5f, 3.0f, 0.5f})},
                     {{DataType::kFloat32, {1, 5}}});
  };
  GE_RUN_OK(add, run, "add");
  EXPECT_EQ(add[0].as<float>(), (std::vector<float>{1, 6.5f, 3, 4.5f, 5}));
  GE_RUN_OK(mul, run, "mul");
  EXPECT_EQ(mul[0].as<float>(), (std::vector<float>{1, 9, 3, 2, 5}));
  GE_RUN_OK(mx, run, "max");
  EXPECT_EQ(mx[0].as<float>(), (std::vector<float>{1, 3, 3, 4, 5}));
  GE_RUN_OK(none, run, "none");  // the last of repeated indices wins
  EXPECT_EQ(none[0].as<float>(), (std::vector<float>{1, 3, 3, 0.5f, 5}));
  EXPECT_TRUE(
      Refused(run("avg"), StatusCode::kInvalidArgument, "reduction 'avg' is not one of none, add, mul, max, min"));
}

TEST(ScatterElementsKernel, OutOfRangeIsAnError) {
  auto r = RunKernel("ScatterElements", {},
                     {HostTensor::F32({2}, {1, 2}), HostTensor::I64({1}, {2}), HostTensor::F32({1}, {5})},
                     {{DataType::kFloat32, {2}}});
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "index 2 is out of range"));
}

TEST(ScatterNDKernel, SlicesAndReductions) {
  // data [2,2], indices [[1]] replace row 1; [[0,1]] one element.
  RUN_OK(row, "ScatterND", {},
         {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({1, 1}, {1}), HostTensor::F32({1, 2}, {9, 8})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(row[0].as<float>(), (std::vector<float>{1, 2, 9, 8}));
  RUN_OK(add, "ScatterND", Attr("reduction", std::string("add")),
         {HostTensor::I64({2, 2}, {1, 2, 3, 4}), HostTensor::I64({2, 2}, {0, 1, 0, -1}), HostTensor::I64({2}, {10, 5})},
         {{DataType::kInt64, {2, 2}}});
  EXPECT_EQ(add[0].as<int64_t>(), (std::vector<int64_t>{1, 17, 3, 4}));
  RUN_OK(mul, "ScatterND", Attr("reduction", std::string("mul")),
         {HostTensor::F32({4}, {1, 2, 3, 4}), HostTensor::I64({2, 1}, {3, 3}), HostTensor::F32({2}, {2, 3})},
         {{DataType::kFloat32, {4}}});
  EXPECT_EQ(mul[0].as<float>(), (std::vector<float>{1, 2, 3, 24}));
  auto bad = RunKernel("ScatterND", {},
                       {HostTensor::F32({2}, {1, 2}), HostTensor::I64({1, 1}, {-3}), HostTensor::F32({1}, {5})},
                       {{DataType::kFloat32, {2}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "index -3 is out of range for a dim of 2"));
  auto shape = RunKernel(
      "ScatterND", {},
      {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::I64({1, 1}, {1}), HostTensor::F32({1, 3}, {9, 8, 7})},
      {{DataType::kFloat32, {2, 2}}});
  EXPECT_TRUE(Refused(shape, StatusCode::kInvalidArgument, "updates [1,3] must be [1,2]"));
}

TEST(GatherNDKernel, OnnxExamples) {
  RUN_OK(elems, "GatherND", {}, {I32({2, 2}, {0, 1, 2, 3}), HostTensor::I64({2, 2}, {0, 0, 1, 1})},
         {{DataType::kInt32, {2}}});
  EXPECT_EQ(elems[0].as<int32_t>(), (std::vector<int32_t>{0, 3}));
  RUN_OK(rows, "GatherND", {}, {HostTensor::F32({2, 2}, {0, 1, 2, 3}), HostTensor::I64({2, 1}, {1, -2})},
         {{DataType::kFloat32, {2, 2}}});
  EXPECT_EQ(rows[0].as<float>(), (std::vector<float>{2, 3, 0, 1}));
  // batch_dims 1: each batch picks its own row.
  RUN_OK(batch, "GatherND", Attr("batch_dims", int64_t{1}),
         {I32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), HostTensor::I64({2, 1}, {1, 0})}, {{DataType::kInt32, {2, 2}}});
  EXPECT_EQ(batch[0].as<int32_t>(), (std::vector<int32_t>{2, 3, 4, 5}));
  auto bad = RunKernel("GatherND", {}, {HostTensor::F32({2}, {1, 2}), HostTensor::I64({1, 1}, {2})},
                       {{DataType::kFloat32, {1}}});
  EXPECT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "index 2 is out of range for a dim of 2"));
}

}  // namespace
}  // namespace ge::test
