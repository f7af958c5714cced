// ge-run reads ONNX TensorProto .pb files (the ONNX backend test suite's
// form) for --input and --compare, next to .npy and .bin.
#include <gtest/gtest.h>

#include "ge/tools/npy.h"
#include "onnx/onnx_pb.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

// The .npy's tensor as a TensorProto: f32 in raw_data, or in float_data (the
// typed field some writers use) when typed is set.
std::string ToTensorProto(const NpyArray& a, bool typed) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : a.desc.dims) t.add_dims(d);
  if (typed) {
    const auto* f = reinterpret_cast<const float*>(a.bytes.data());
    for (size_t i = 0; i < a.bytes.size() / sizeof(float); ++i) t.add_float_data(f[i]);
  } else {
    t.set_raw_data(a.bytes.data(), a.bytes.size());
  }
  return t.SerializeAsString();
}

class RunOnnxTensorTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    auto in = ReadNpy(kTinyInput), golden = ReadNpy(kTinyGolden);
    ASSERT_TRUE(in.ok() && golden.ok());
    input_ = *in;
    golden_ = *golden;
  }
  NpyArray input_, golden_;
};

TEST_F(RunOnnxTensorTest, InputAndCompareTakePbFilesInBothModes) {
  WriteFileBytes(Path("input_0.pb"), ToTensorProto(input_, false));
  WriteFileBytes(Path("output_0.pb"), ToTensorProto(golden_, true));
  for (const char* mode : {"v2", "sink"}) {
    ToolResult r = Run("ge-run", {"--model", Path("tiny.om"), "--mode", mode, "--input", Path("input_0.pb"),
                                  "--compare", Path("output_0.pb"), "--output", Path(std::string("out_") + mode)});
    SCOPED_TRACE(r.Describe());
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("PASS"), std::string::npos);
    // A set of typed files names the outputs after the model: NAME.npy.
    EXPECT_EQ(FilesEndingIn(Path(std::string("out_") + mode), {".npy"}).size(), 1u);
  }
}

TEST_F(RunOnnxTensorTest, AWrongGoldenPbFails) {
  NpyArray wrong = golden_;
  reinterpret_cast<float*>(wrong.bytes.data())[0] += 1.0f;
  WriteFileBytes(Path("output_0.pb"), ToTensorProto(wrong, false));
  ToolResult r = Run("ge-run", {"--model", Path("tiny.om"), "--input", kTinyInput, "--compare", Path("output_0.pb")});
  EXPECT_NE(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.Describe();
}

TEST_F(RunOnnxTensorTest, BadPbFilesGetOneErrorLine) {
  NpyArray other_shape = input_;
  other_shape.desc.dims = {static_cast<int64_t>(input_.bytes.size() / sizeof(float))};
  WriteFileBytes(Path("flat.pb"), ToTensorProto(other_shape, false));
  ToolResult r = Run("ge-run", {"--model", Path("tiny.om"), "--input", Path("flat.pb")});
  ExpectOneErrorLine(r, "ge-run", {"--input", "flat.pb is f32[", "expected f32["});

  WriteFileBytes(Path("junk.pb"), std::string("\xff\xff\xff\xff not a protobuf", 20));
  r = Run("ge-run", {"--model", Path("tiny.om"), "--input", Path("junk.pb")});
  ExpectOneErrorLine(r, "ge-run", {"junk.pb", "not an ONNX TensorProto file"});

  WriteFileBytes(Path("empty.pb"), "");
  r = Run("ge-run", {"--model", Path("tiny.om"), "--input", kTinyInput, "--compare", Path("empty.pb")});
  ExpectOneErrorLine(r, "ge-run", {"--compare", "empty.pb", "not an ONNX TensorProto file"});

  onnx::TensorProto short_data;  // dims say 4 floats, raw_data holds 1
  short_data.set_data_type(onnx::TensorProto::FLOAT);
  short_data.add_dims(4);
  short_data.set_raw_data(std::string(4, '\0'));
  WriteFileBytes(Path("short.pb"), short_data.SerializeAsString());
  r = Run("ge-run", {"--model", Path("tiny.om"), "--input", kTinyInput, "--compare", Path("short.pb")});
  ExpectOneErrorLine(r, "ge-run", {"short.pb", "4 bytes of raw_data"});
}

}  // namespace
}  // namespace ge::test
