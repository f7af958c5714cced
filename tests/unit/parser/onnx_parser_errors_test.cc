// What the parser says about files it cannot take: every failure is a Status
// naming the file (and the node or tensor), never an exception or a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "ge/ir/text_form.h"
#include "onnx_parser_test_util.h"

namespace ge::test {
namespace {

void ExpectError(const Result<std::unique_ptr<Graph>>& r, StatusCode code, const std::vector<std::string>& parts) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  for (const auto& p : parts)
    EXPECT_TRUE(Contains(r.status().message(), p)) << "'" << p << "' not in: " << r.status().message();
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << "one line: " << r.status().message();
}

TEST(OnnxParserErrors, GarbageBytesAreNotAModel) {
  const std::string garbage = "\xff\xff\xff\xff\x0fnot an onnx file at all";
  ExpectError(ParseOnnxBytes(garbage, {}, "garbage.onnx"), StatusCode::kCorrupt, {"garbage.onnx: not an ONNX model ("});
  // Text parses as nothing useful either.
  ExpectError(ParseOnnxBytes("hello, world\n", {}, "hello.onnx"), StatusCode::kCorrupt,
              {"hello.onnx: not an ONNX model"});
}

TEST(OnnxParserErrors, EmptyBytesAreNotAModel) {
  ExpectError(ParseOnnxBytes("", {}, "empty.onnx"), StatusCode::kCorrupt, {"empty.onnx: not an ONNX model (", "empty"});
}

TEST(OnnxParserErrors, TruncatedModelIsCorrupt) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 1024});
  b.RawInit<float>("w", TensorProto::FLOAT, {1, 1024}, std::vector<float>(1024, 0.5f));
  b.Node("Add", {"x", "w"}, {"y"}, "add");
  b.Output("y", TensorProto::FLOAT, {1, 1024});
  const std::string bytes = b.Bytes();
  ASSERT_TRUE(ParseAndVerify(b));
  for (size_t keep : {bytes.size() / 2, bytes.size() - 1, size_t{3}}) {
    SCOPED_TRACE(keep);
    ExpectError(ParseOnnxBytes(bytes.substr(0, keep), {}, "cut.onnx"), StatusCode::kCorrupt,
                {"cut.onnx: not an ONNX model ("});
  }
}

TEST(OnnxParserErrors, CheckerFailureIsInvalidArgument) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Add", {"x", "undefined_tensor"}, {"y"}, "add");
  b.Output("y", TensorProto::FLOAT, {2});
  ExpectError(ParseModel(b), StatusCode::kInvalidArgument, {"test.onnx: invalid ONNX model: ", "undefined_tensor"});
}

TEST(OnnxParserErrors, UnknownOpOfTheDefaultDomainFailsTheChecker) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("NoSuchOp", {"x"}, {"y"}, "mystery");
  b.Output("y", TensorProto::FLOAT, {2});
  ExpectError(ParseModel(b), StatusCode::kInvalidArgument, {"test.onnx: invalid ONNX model: ", "NoSuchOp"});
}

TEST(OnnxParserErrors, UnknownInputShapeNameListsTheInputs) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Input("mask", TensorProto::FLOAT, {2});
  b.RawInit<float>("w", TensorProto::FLOAT, {2}, {1, 2});
  b.Node("Sum", {"x", "mask", "w"}, {"y"}, "sum");
  b.Output("y", TensorProto::FLOAT, {2});
  ParseOptions opts;
  opts.input_shapes["imput"] = {1, 2};
  ExpectError(ParseModel(b, opts), StatusCode::kInvalidArgument,
              {"test.onnx: ", "'imput'", "not a graph input", "the inputs are: x, mask"});
}

TEST(OnnxParserErrors, OverrideThatBreaksInferenceNamesTheFile) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 4});
  b.RawInit<float>("w", TensorProto::FLOAT, {4, 2}, std::vector<float>(8, 1.f));
  b.Node("MatMul", {"x", "w"}, {"y"}, "mm");
  b.Output("y", TensorProto::FLOAT, {1, 2});
  ASSERT_TRUE(ParseAndVerify(b));
  ParseOptions opts;
  opts.input_shapes["x"] = {1, 5};
  ExpectError(ParseModel(b, opts), StatusCode::kInvalidArgument, {"test.onnx: shape inference failed: ", "MatMul"});
}

TEST(OnnxParserErrors, ShapeInferenceFailureNamesTheFile) {
  OnnxModelBuilder b;
  b.Input("a", TensorProto::FLOAT, {2, 3});
  b.Input("b", TensorProto::FLOAT, {4, 5});
  b.Node("Add", {"a", "b"}, {"y"}, "bad_add");
  b.Output("y", TensorProto::FLOAT, {2, 3});
  ExpectError(ParseModel(b), StatusCode::kInvalidArgument, {"test.onnx: shape inference failed: "});
}

TEST(OnnxParserErrors, ForeignDomainNodesAreListedInOneError) {
  OnnxModelBuilder b;
  b.Import("com.microsoft", 1);
  b.Input("x", TensorProto::FLOAT, {2, 2});
  b.Node("Relu", {"x"}, {"r"}, "relu");
  b.Node("FusedGemm", {"r", "r"}, {"fg"}, "fused1")->set_domain("com.microsoft");
  b.Node("Gelu", {"fg"}, {"gelu_out"})->set_domain("com.microsoft");  // unnamed: shown by its output
  b.Output("gelu_out", TensorProto::FLOAT, {2, 2});
  ExpectError(ParseModel(b), StatusCode::kUnsupported,
              {"test.onnx: 2 nodes use an operator domain other than the default ONNX domain",
               "fused1 (com.microsoft:FusedGemm), gelu_out (com.microsoft:Gelu)"});
}

TEST(OnnxParserErrors, ForeignDomainWithoutImportIsStillListed) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {2});
  b.Node("Custom", {"x"}, {"y"}, "custom1")->set_domain("my.ops");
  b.Output("y", TensorProto::FLOAT, {2});
  ExpectError(ParseModel(b), StatusCode::kUnsupported, {"1 node uses", "custom1 (my.ops:Custom)"});
}

TEST(OnnxParserErrors, MissingFileIsNotFound) {
  const std::string path = "/nonexistent-ge-dir/model.onnx";
  auto r = ParseOnnxFile(path, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(r.status().message(), path + ": no such file");
}

TEST(OnnxParserErrors, DirectoryIsAnIoError) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  auto r = ParseOnnxFile(dir, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIo) << r.status().ToString();
  EXPECT_EQ(r.status().message(), dir + ": is a directory, not a regular file");
}

// Flipped bytes in a valid model: each result is a graph that verifies or a
// Status; the test fails if anything throws or crashes.
TEST(OnnxParserErrors, MutatedModelsNeverCrash) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {1, 2, 4, 4});
  b.RawInit<float>("w", TensorProto::FLOAT, {2, 2, 3, 3}, std::vector<float>(36, 0.1f));
  auto* conv = b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  AttrInts(conv, "pads", {1, 1, 1, 1});
  AttrInts(conv, "kernel_shape", {3, 3});
  AttrFloat(b.Node("LeakyRelu", {"c"}, {"r"}, "lrelu"), "alpha", 0.1f);
  AttrInt(b.Node("Constant", {}, {"axes"}, "axes"), "value_int", 1);
  b.Node("Shape", {"r"}, {"s"}, "shape");
  b.Node("Gather", {"s", "axes"}, {"g"}, "gather");
  b.Output("r", TensorProto::FLOAT, {1, 2, 4, 4}).Output("g", TensorProto::INT64, {});
  const std::string bytes = b.Bytes();
  ASSERT_TRUE(ParseAndVerify(b));
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int parsed = 0;
  for (int i = 0; i < 400; ++i) {
    std::string m = bytes;
    const int flips = 1 + static_cast<int>(next() % 4);
    for (int k = 0; k < flips; ++k) m[next() % m.size()] = static_cast<char>(next() & 0xff);
    auto r = ParseOnnxBytes(m, {}, "mutant.onnx");
    if (r.ok()) {
      ++parsed;
      EXPECT_TRUE(VerifyGraph(*r.value()).ok()) << "mutant " << i;
    } else {
      EXPECT_EQ(r.status().message().rfind("mutant.onnx: ", 0), 0u) << r.status().message();
    }
  }
  EXPECT_GT(parsed, 0);  // many flips land in weights and change nothing structural
}

class OnnxFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ge_parser_test_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(OnnxFileTest, ParsesAFileLikeItsBytes) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {3});
  b.RawInit<float>("w", TensorProto::FLOAT, {3}, {1, 2, 3});
  b.Node("Mul", {"x", "w"}, {"y"}, "mul");
  b.Output("y", TensorProto::FLOAT, {3});
  const std::string path = Write("m.onnx", b.Bytes());
  auto from_file = ParseOnnxFile(path, {});
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  EXPECT_TRUE(VerifyGraph(*from_file.value()).ok());
  auto from_bytes = ParseOnnxBytes(b.Bytes(), {}, "<memory>");
  ASSERT_TRUE(from_bytes.ok());
  EXPECT_EQ(GraphToText(*from_file.value()), GraphToText(*from_bytes.value()));
}

TEST_F(OnnxFileTest, ErrorsNameThePath) {
  const std::string path = Write("junk.onnx", "\x08\x07junk");
  auto r = ParseOnnxFile(path, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
  EXPECT_EQ(r.status().message().rfind(path + ": not an ONNX model (", 0), 0u) << r.status().message();
  const std::string empty = Write("empty.onnx", "");
  r = ParseOnnxFile(empty, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt);
  EXPECT_EQ(r.status().message().rfind(empty + ": not an ONNX model (", 0), 0u) << r.status().message();
}

}  // namespace
}  // namespace ge::test
