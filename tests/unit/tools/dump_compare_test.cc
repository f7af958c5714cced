// ge/tools/dump_compare.h: the error maths of two op dumps, the first
// divergent op, and op dump directories on disk (ge/tools/op_dump_files.h).
#include "ge/tools/dump_compare.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "ge/tools/npy.h"
#include "ge_base/file_io.h"
#include "tests/common/refusal.h"
#include "tests/common/temp_leftovers.h"

namespace ge::tools {
namespace {

// A dumped f32 output of `node` fed by `inputs`.
DumpedOp DumpCmpOp(const std::string& node, const std::vector<float>& values,
                   const std::vector<std::string>& inputs = {}, std::vector<int64_t> dims = {}) {
  DumpedOp op;
  op.node = node;
  op.type = "Relu";
  op.inputs = inputs;
  if (dims.empty()) dims = {static_cast<int64_t>(values.size())};
  op.tensor.desc = TensorDesc(DataType::kFloat32, dims);
  op.tensor.bytes.resize(values.size() * sizeof(float));
  std::memcpy(op.tensor.bytes.data(), values.data(), op.tensor.bytes.size());
  return op;
}

OpDumpDir DumpCmpDir(std::vector<DumpedOp> ops, const std::string& dir = "") {
  OpDumpDir d;
  d.dir = dir;
  d.ops = std::move(ops);
  return d;
}

// The comparison of two dumps that have outputs in common.
DumpComparison ComparedOk(const OpDumpDir& a, const OpDumpDir& b) {
  Result<DumpComparison> c = CompareOpDumps(a, b, {});
  if (!c.ok()) {
    ADD_FAILURE() << c.status().ToString();
    return {};
  }
  return *c;
}

TEST(DumpCompareTest, IdenticalTensorsHaveNoError) {
  const TensorErrors e = ComputeErrors({1, -2, 3}, {1, -2, 3});
  EXPECT_DOUBLE_EQ(e.cosine, 1);
  EXPECT_EQ(e.max_abs, 0);
  EXPECT_EQ(e.max_rel, 0);
  EXPECT_FALSE(Diverges(e, {}));
}

TEST(DumpCompareTest, MaxRelIsRelativeToTheMagnitudeOfA) {
  // An element near zero does not blow the relative error up.
  const TensorErrors e = ComputeErrors({4, 0.001, -2}, {4, 0.003, -2});
  EXPECT_NEAR(e.max_abs, 0.002, 1e-12);
  EXPECT_NEAR(e.max_rel, 0.002 / 4, 1e-12);
  EXPECT_FALSE(Diverges(e, {}));  // 5e-4 <= 1e-3, cosine ~1
  EXPECT_TRUE(Diverges(e, DumpThresholds{0.999, 1e-4, 1e-5}));
}

TEST(DumpCompareTest, CosineOfOrthogonalAndZeroTensors) {
  EXPECT_NEAR(ComputeErrors({1, 0}, {0, 1}).cosine, 0, 1e-12);
  EXPECT_NEAR(ComputeErrors({1, 2}, {-1, -2}).cosine, -1, 1e-12);
  EXPECT_EQ(ComputeErrors({0, 0}, {0, 0}).cosine, 1);
  const TensorErrors one_zero = ComputeErrors({0, 0}, {0, 1});
  EXPECT_EQ(one_zero.cosine, 0);
  EXPECT_TRUE(std::isinf(one_zero.max_rel));
  EXPECT_TRUE(Diverges(one_zero, {}));
}

TEST(DumpCompareTest, DifferencesAtOrBelowAtolNeverDiverge) {
  // All zeros against tiny values: cosine 0, but max abs is within atol.
  const TensorErrors e = ComputeErrors({0, 0}, {1e-7, 0});
  EXPECT_EQ(e.cosine, 0);
  EXPECT_FALSE(Diverges(e, {}));
}

TEST(DumpCompareTest, NanInOneDumpOnlyDiverges) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const TensorErrors e = ComputeErrors({1, 2, 3}, {1, nan, 3});
  EXPECT_EQ(e.nonfinite_mismatches, 1);
  EXPECT_EQ(e.max_abs, 0);
  EXPECT_TRUE(Diverges(e, {}));
  EXPECT_FALSE(Diverges(ComputeErrors({1, nan}, {1, nan}), {}));
}

TEST(DumpCompareTest, FirstDivergentOpIsTheFirstWhoseInputsAreFine) {
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1, 2, 3}, {"x"}), DumpCmpOp("c2", {4, 5, 6}, {"c1"}),
                                  DumpCmpOp("c3", {7, 8, 9}, {"c2"})});
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("c1", {1, 2, 3}, {"x"}), DumpCmpOp("c2", {4, 5.5, 6}, {"c1"}),
                                  DumpCmpOp("c3", {7, 8.5, 9}, {"c2"})});
  const DumpComparison c = ComparedOk(a, b);
  ASSERT_EQ(c.pairs.size(), 3u);
  EXPECT_FALSE(c.pairs[0].divergent);
  EXPECT_TRUE(c.pairs[1].divergent);
  EXPECT_TRUE(c.pairs[2].divergent);
  ASSERT_EQ(c.first_divergent, 1);
  EXPECT_EQ(c.first_divergent_inputs, std::vector<std::string>{"c1"});
  EXPECT_NE(ComparisonText(c, "A", "B").find("first divergent op: c2 (Relu)"), std::string::npos)
      << ComparisonText(c, "A", "B");
  EXPECT_NE(ComparisonJson(c, "A", "B").find("\"first_divergent\": {"), std::string::npos);
}

TEST(DumpCompareTest, AnOpWhoseInputDivergedIsNotTheFirst) {
  // Execution order lists d before its producer p (it cannot happen in a
  // plan, but the rule is about inputs, not positions): p is the culprit.
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("d", {1, 1}, {"p"}), DumpCmpOp("p", {2, 2}, {"x"})});
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("d", {1, 3}, {"p"}), DumpCmpOp("p", {2, 5}, {"x"})});
  const DumpComparison c = ComparedOk(a, b);
  ASSERT_EQ(c.first_divergent, 1);
  EXPECT_EQ(c.pairs[1].node, "p");
}

TEST(DumpCompareTest, InputsAreFollowedThroughOpsInOneDumpOnly) {
  // A has a TransData between c1 and c2 that B does not have.
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1, 2}, {"x"}), DumpCmpOp("c1/to_NCHW", {1, 2}, {"c1"}),
                                  DumpCmpOp("c2", {3, 4}, {"c1/to_NCHW"})});
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("c1", {1, 2}, {"x"}), DumpCmpOp("c2", {3, 9}, {"c1"}),
                                  DumpCmpOp("extra", {0}, {"c2"})});
  const DumpComparison c = ComparedOk(a, b);
  EXPECT_EQ(c.only_a, std::vector<std::string>{"c1/to_NCHW:0 (Relu)"});
  EXPECT_EQ(c.only_b, std::vector<std::string>{"extra:0 (Relu)"});
  ASSERT_EQ(c.first_divergent, 1);
  EXPECT_EQ(c.first_divergent_inputs, std::vector<std::string>{"c1"});
}

// Runs f on a thread with a 1 MB stack: a recursion 100,000 calls deep
// overflows it for certain, where the main thread's 8 MB might hold it.
template <typename F>
void RunOnSmallStack(F f) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, size_t{1} << 20), 0);
  pthread_t thread;
  const int rc = pthread_create(
      &thread, &attr,
      [](void* p) -> void* {
        (*static_cast<F*>(p))();
        return nullptr;
      },
      &f);
  pthread_attr_destroy(&attr);
  ASSERT_EQ(rc, 0);
  pthread_join(thread, nullptr);
}

TEST(DumpCompareTest, ADeepChainOfOpsInOneDumpOnlyIsFollowedWithoutRecursion) {
  // x -> t0 -> ... -> t99999 -> y in A, where only x and y are in B too.
  constexpr int kChain = 100000;
  std::vector<DumpedOp> a_ops = {DumpCmpOp("x", {1})};
  for (int i = 0; i < kChain; ++i)
    a_ops.push_back(DumpCmpOp("t" + std::to_string(i), {1}, {i ? "t" + std::to_string(i - 1) : "x"}));
  a_ops.push_back(DumpCmpOp("y", {1}, {"t" + std::to_string(kChain - 1)}));
  const OpDumpDir a = DumpCmpDir(std::move(a_ops));
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("x", {1}), DumpCmpOp("y", {2}, {"x"})});
  DumpComparison c;
  RunOnSmallStack([&] { c = ComparedOk(a, b); });
  ASSERT_EQ(c.pairs.size(), 2u);
  ASSERT_EQ(c.first_divergent, 1);
  EXPECT_EQ(c.first_divergent_inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(c.only_a.size(), static_cast<size_t>(kChain));
}

TEST(DumpCompareTest, InputsThroughOpsInOneDumpOnlyKeepTheirOrder) {
  // y's inputs: p (A only; fed by c2, then c1), then c3: depth first, in order.
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1}), DumpCmpOp("c2", {1}), DumpCmpOp("c3", {1}),
                                  DumpCmpOp("p", {1}, {"c2", "c1"}), DumpCmpOp("y", {1}, {"p", "c3", "c1"})});
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("c1", {1}), DumpCmpOp("c2", {1}), DumpCmpOp("c3", {1}),
                                  DumpCmpOp("y", {5}, {"c1", "c2", "c3"})});
  const DumpComparison c = ComparedOk(a, b);
  ASSERT_EQ(c.first_divergent, 3);
  EXPECT_EQ(c.first_divergent_inputs, (std::vector<std::string>{"c2", "c1", "c3"}));
}

TEST(DumpCompareTest, ShapesThatDifferAreReportedNotCompared) {
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1, 2, 3, 4}, {}, {2, 2})});
  const OpDumpDir b = DumpCmpDir({DumpCmpOp("c1", {1, 2, 3, 4}, {}, {4})});
  const DumpComparison c = ComparedOk(a, b);
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_TRUE(c.pairs[0].divergent);
  EXPECT_EQ(c.pairs[0].mismatch, "shape [2,2] vs [4]");
  EXPECT_NE(ComparisonText(c, "A", "B").find("shape [2,2] vs [4]"), std::string::npos);
  EXPECT_NE(ComparisonJson(c, "A", "B").find("\"mismatch\": \"shape [2,2] vs [4]\""), std::string::npos);
}

TEST(DumpCompareTest, NoDivergentOpSaysSo) {
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1, 2})});
  const DumpComparison c = ComparedOk(a, a);
  EXPECT_EQ(c.first_divergent, -1);
  EXPECT_NE(ComparisonText(c, "A", "B").find("no divergent op"), std::string::npos);
  EXPECT_NE(ComparisonJson(c, "A", "B").find("\"first_divergent\": null"), std::string::npos);
}

// A comparison that matched nothing is an error, not "no divergent op".
TEST(DumpCompareTest, DumpsWithNoOutputInCommonAreRefused) {
  const OpDumpDir a = DumpCmpDir({DumpCmpOp("c1", {1, 2}), DumpCmpOp("c2", {3})}, "dumpA");
  const Result<DumpComparison> empty_b = CompareOpDumps(a, DumpCmpDir({}, "dumpB"), {});
  EXPECT_EQ(empty_b.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(empty_b.status().message(), "dumpA and dumpB have no op output in common (dumpA holds 2, dumpB 0): nothing to compare");
  const Result<DumpComparison> disjoint = CompareOpDumps(a, DumpCmpDir({DumpCmpOp("other", {1})}, "dumpC"), {});
  EXPECT_EQ(disjoint.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(disjoint.status().message(), "dumpA and dumpC have no op output in common (dumpA holds 2, dumpC 1): nothing to compare");
}

class OpDumpFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ge_op_dump_files_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(OpDumpFilesTest, WrittenDumpsReadBackInOrder) {
  OpOutput o;
  o.node = "/layer1/conv";  // not a file name: sanitised
  o.type = "Conv";
  o.output = 1;
  o.inputs = {"x"};
  o.desc = TensorDesc(DataType::kFloat32, {1, 2});
  const float v[] = {1.5f, -2};
  o.bytes.assign(reinterpret_cast<const uint8_t*>(v), reinterpret_cast<const uint8_t*>(v) + sizeof(v));
  OpOutput p = o;
  p.node = "relu";
  p.output = 0;
  ASSERT_TRUE(WriteOpDump(dir_.string(), "m", {o, p}).ok());
  auto d = ReadOpDump(dir_.string());
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->model, "m");
  ASSERT_EQ(d->ops.size(), 2u);
  EXPECT_EQ(d->ops[0].node, "/layer1/conv");
  EXPECT_EQ(d->ops[0].file, "0000__layer1_conv_1.npy");
  EXPECT_EQ(d->ops[0].inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(d->ops[0].tensor.bytes, o.bytes);
  EXPECT_EQ(d->ops[1].node, "relu");
  EXPECT_EQ(test::TempFilesLeftFor(dir_ / "dump.json"), std::vector<std::string>{});
}

TEST_F(OpDumpFilesTest, BadDumpsAreErrorsNamingTheFile) {
  auto missing = ReadOpDump(dir_.string());
  ASSERT_TRUE(Refused(missing, StatusCode::kNotFound, "dump.json"));
  std::filesystem::create_directories(dir_);
  struct BadDump {
    std::string json;
    StatusCode code;
    std::string part;
  };
  const StatusCode corrupt = StatusCode::kCorrupt;
  for (
      const BadDump& c : std::vector<BadDump>{
          {"{", corrupt, "dump.json: [json.exception.parse_error.101]"},
          {"[]", corrupt, "dump.json: not an op dump (format is not \"ge-op-dump\")"},
          {R"({"format": "ge-op-dump", "version": 7, "ops": []})", corrupt,
           "dump.json: op dump version 7, this ge reads 1"},
          {R"({"format": "ge-op-dump", "version": 1, "ops": [{"node": "a"}]})", corrupt, "dump.json: [json.exception"},
          {R"({"format": "ge-op-dump", "version": 1, "ops": [{"node": "a", "type": "T", "output": 0, "dtype": "f32", "shape": [1], "file": "../x.npy"}]})",
           corrupt, "dump.json: op a: bad file name '../x.npy'"},
          {R"({"format": "ge-op-dump", "version": 1, "ops": [{"node": "a", "type": "T", "output": 0, "dtype": "f32", "shape": [1], "file": "gone.npy"}]})",
           StatusCode::kNotFound, "gone.npy: no such file"}}) {
    SCOPED_TRACE(c.json);
    ASSERT_TRUE(WriteFileAtomically((dir_ / "dump.json").string(), c.json).ok());
    EXPECT_TRUE(Refused(ReadOpDump(dir_.string()), c.code, c.part));
  }
}

// Sizes in dump.json that do not fit their field (2^70 was read as output
// -2147483648) are refused, naming the op and the value.
TEST_F(OpDumpFilesTest, OutOfRangeNumbersAreRefused) {
  std::filesystem::create_directories(dir_);
  const float one = 1;
  ASSERT_TRUE(WriteNpy((dir_ / "a.npy").string(), TensorDesc(DataType::kFloat32, {1}), &one).ok());
  const std::string index = (dir_ / "dump.json").string();
  const std::string op = R"({"node": "a", "type": "T", "dtype": "f32", "file": "a.npy", )";
  const struct {
    std::string fields, message;
  } cases[] = {
      {R"("output": 1180591620717411303424, "shape": [1])", "output is 1.1805916207174113e+21, not an integer in [0, 2147483647]"},
      {R"("output": 2147483648, "shape": [1])", "output is 2147483648, not an integer in [0, 2147483647]"},
      {R"("output": -1, "shape": [1])", "output is -1, not an integer in [0, 2147483647]"},
      {R"("output": 0.5, "shape": [1])", "output is 0.5, not an integer in [0, 2147483647]"},
      {R"("output": 0, "shape": [1180591620717411303424])",
       "a shape dim is 1.1805916207174113e+21, not an integer in [0, 9223372036854775807]"},
      {R"("output": 0, "shape": [18446744073709551615])",
       "a shape dim is 18446744073709551615, not an integer in [0, 9223372036854775807]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fields);
    ASSERT_TRUE(WriteFileAtomically(index, R"({"format": "ge-op-dump", "version": 1, "ops": [)" + op + c.fields + "}]}").ok());
    auto d = ReadOpDump(dir_.string());
    EXPECT_EQ(d.status().code(), StatusCode::kCorrupt);
    EXPECT_EQ(d.status().message(), index + ": op a: " + c.message);
  }
}

}  // namespace
}  // namespace ge::tools
