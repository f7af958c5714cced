// ge-atc --output_type and --input_fp16_nodes: the model's IO dtypes change
// at the boundary (a Cast), the model inside computes in float32, and
// ge-run reads and writes the new dtypes (.npy '<f2', '|u1').
#include <gtest/gtest.h>

#include "ge/tools/npy.h"
#include "ge_base/float16.h"
#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class AtcIoTypes : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }
  ToolResult Convert(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  std::string Info(const std::string& om) {
    ToolResult r = Run("ge-atc", {"--mode", "6", "--om", Path(om)});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return r.out;
  }
};

TEST_F(AtcIoTypes, Fp16OutputsMatchTheGoldenWithinHalfPrecision) {
  ToolResult c = Convert("h", {"--output_type", "FP16"});
  ASSERT_EQ(c.exit_code, 0) << c.Describe();
  EXPECT_NE(Info("h.om").find("output 0: output f16[1,4]"), std::string::npos);
  for (const char* mode : {"v2", "sink"}) {
    ToolResult r = Run("ge-run", {"--model", Path("h.om"), "--input", kTinyInput, "--compare", kTinyGolden, "--output",
                                  Path(std::string("out_") + mode), "--mode", mode});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
    auto y = ReadNpy(Path(std::string("out_") + mode + "/output.npy"));
    ASSERT_TRUE(y.ok()) << y.status().ToString() << "\n" << r.Describe();
    EXPECT_EQ(y->desc.dtype, DataType::kFloat16);
  }
}

TEST_F(AtcIoTypes, PerOutputTypeNamesTheProducer) {
  ToolResult c = Convert("u", {"--output_type", "softmax:0:UINT8"});
  ASSERT_EQ(c.exit_code, 0) << c.Describe();
  EXPECT_NE(Info("u.om").find("output 0: output u8[1,4]"), std::string::npos);
  ToolResult r = Run("ge-run", {"--model", Path("u.om"), "--input", kTinyInput, "--output", Path("o")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto y = ReadNpy(Path("o/output.npy"));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // Softmax probabilities truncate to 0 (all below 1).
  EXPECT_EQ(y->bytes, std::vector<uint8_t>(4, 0));
  ExpectOneErrorLine(Convert("bad", {"--output_type", "fc:0:FP16"}), "ge-atc",
                     {"--output_type fc:0", "not a model output", "softmax:0"});
  ExpectOneErrorLine(Convert("bad", {"--output_type", "softmax:0:BF16"}), "ge-atc", {"'BF16' is not a type"});
  ExpectOneErrorLine(Convert("bad", {"--output_type", "softmax:FP16"}), "ge-atc", {"not node:index:TYPE"});
}

TEST_F(AtcIoTypes, Fp16InputTakesHalfData) {
  ToolResult c = Convert("i", {"--input_fp16_nodes", "input"});
  ASSERT_EQ(c.exit_code, 0) << c.Describe();
  EXPECT_NE(Info("i.om").find("input 0: input f16[1,3,16,16]"), std::string::npos);
  auto x = ReadNpy(kTinyInput);
  ASSERT_TRUE(x.ok());
  std::vector<uint16_t> h(x->bytes.size() / 4);
  for (size_t i = 0; i < h.size(); ++i) {
    float f;
    std::memcpy(&f, x->bytes.data() + 4 * i, 4);
    h[i] = FloatToHalf(f);
  }
  ASSERT_TRUE(WriteNpy(Path("x16.npy"), TensorDesc(DataType::kFloat16, x->desc.dims), h.data()).ok());
  ToolResult r = Run("ge-run", {"--model", Path("i.om"), "--input", Path("x16.npy"), "--compare", kTinyGolden});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.Describe();
  ExpectOneErrorLine(Run("ge-run", {"--model", Path("i.om"), "--input", kTinyInput}), "ge-run", {"input"});
  ExpectOneErrorLine(Convert("bad", {"--input_fp16_nodes", "nope"}), "ge-atc",
                     {"--input_fp16_nodes", "'nope' is not a model input", "inputs: input"});
}

}  // namespace
}  // namespace ge::test
