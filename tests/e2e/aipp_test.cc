// AIPP from the command line: the conversion line of Ascend's samples
// (--soc_version Ascend310P3 --input_format NCHW --insert_op_conf aipp.cfg),
// an ais_bench-style run over a folder of raw YUV images that matches the
// plain model on the equivalent float input, what --mode 1 and --mode 6 show,
// and one error line for every configuration ge cannot run. Numerics of
// every format and switch: tests/aipp/aipp_reference.py (numpy).
#include <gtest/gtest.h>

#include "ge/tools/npy.h"
#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

// ATC's JPEG YUV -> RGB conversion with ImageNet-style normalisation.
const char* kYuvConfig = R"(aipp_op {
  aipp_mode: static
  related_input_rank: 0
  input_format: YUV420SP_U8
  src_image_size_w: 16
  src_image_size_h: 16
  csc_switch: true
  rbuv_swap_switch: false
  matrix_r0c0: 256
  matrix_r0c1: 0
  matrix_r0c2: 359
  matrix_r1c0: 256
  matrix_r1c1: -88
  matrix_r1c2: -183
  matrix_r2c0: 256
  matrix_r2c1: 454
  matrix_r2c2: 0
  input_bias_0: 0
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 104
  mean_chn_1: 117
  mean_chn_2: 123
  var_reci_chn_0: 0.017
  var_reci_chn_1: 0.017
  var_reci_chn_2: 0.017
}
)";

class AippTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-run"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }
  ToolResult Convert(const std::string& cfg_text, const std::string& out) {
    WriteFileBytes(Path(out + ".cfg"), cfg_text);
    return Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path(out), "--soc_version",
                          "Ascend310P3", "--input_format", "NCHW", "--insert_op_conf", Path(out + ".cfg")});
  }
};

TEST_F(AippTest, SampleLineAndFolderRunMatchTheFloatModel) {
  ToolResult c = Convert(kYuvConfig, "aipp");
  ASSERT_EQ(c.exit_code, 0) << c.Describe();
  ToolResult plain = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("plain")});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  // Grey NV12 images (U = V = 128): the JPEG matrix gives R = G = B = Y, so
  // the model's float input is (Y - mean_c) * 0.017 per channel.
  fs::create_directories(dir_ / "bins");
  const int kImages = 3;
  for (int k = 0; k < kImages; ++k) {
    const uint8_t y = static_cast<uint8_t>(40 + 70 * k);
    std::string nv12(16 * 16, static_cast<char>(y));
    nv12 += std::string(16 * 8, static_cast<char>(128));
    WriteFileBytes(dir_ / "bins" / ("img" + std::to_string(k) + ".bin"), nv12);
    std::vector<float> f(3 * 16 * 16);
    const float mean[3] = {104, 117, 123};
    for (size_t i = 0; i < f.size(); ++i) f[i] = (y - mean[i / 256]) * 0.017f;
    ASSERT_TRUE(WriteNpy(Path("img" + std::to_string(k) + ".npy"), TensorDesc(DataType::kFloat32, {1, 3, 16, 16}), f.data()).ok());
  }
  ToolResult r = Run("ge-run", {"--om", Path("aipp.om"), "--input", Path("bins"), "--output", Path("out"),
                                "--output_dirname", "res", "--outfmt", "NPY", "--mode", "sink"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  for (int k = 0; k < kImages; ++k) {
    const std::string got = Path("out/res/img" + std::to_string(k) + "_0.npy");
    ASSERT_TRUE(fs::exists(got)) << r.Describe();
    ToolResult cmp = Run("ge-run", {"--model", Path("plain.om"), "--input", Path("img" + std::to_string(k) + ".npy"),
                                    "--compare", got});
    EXPECT_EQ(cmp.exit_code, 0) << cmp.Describe();
    EXPECT_NE(cmp.out.find("PASS"), std::string::npos) << cmp.Describe();
  }
  // A raw file of the float model's size is not the image the .om takes.
  fs::create_directories(dir_ / "wrong");
  WriteFileBytes(dir_ / "wrong" / "x.bin", std::string(3 * 16 * 16 * 4, '\0'));
  ExpectOneErrorLine(Run("ge-run", {"--om", Path("aipp.om"), "--input", Path("wrong"), "--output", Path("o2")}),
                     "ge-run", {"x.bin", "3072 bytes", "u8[1,24,16,1]"});
}

// TensorFlow's NHWC image input: the Aipp output is NHWC, so the float input
// the plain model takes is the raw RGB bytes normalised in the same order.
TEST_F(AippTest, TensorFlowNhwcInputMatchesThePlainModel) {
  const std::string pb = ModelsPath("tf_cnn.pb");
  GE_SKIP_IF_ABSENT(pb);
  WriteFileBytes(Path("rgb.cfg"),
                 "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n mean_chn_0: 10\n mean_chn_1: 20\n"
                 " mean_chn_2: 30\n var_reci_chn_0: 0.01\n var_reci_chn_1: 0.02\n var_reci_chn_2: 0.03\n}\n");
  ToolResult a = Run("ge-atc", {"--model", pb, "--framework", "3", "--output", Path("tfa"), "--soc_version",
                                "Ascend310P3", "--insert_op_conf", Path("rgb.cfg")});
  ASSERT_EQ(a.exit_code, 0) << a.Describe();
  ToolResult p = Run("ge-atc", {"--model", pb, "--framework", "3", "--output", Path("tfp")});
  ASSERT_EQ(p.exit_code, 0) << p.Describe();
  std::string raw(32 * 32 * 3, '\0');
  std::vector<float> f(raw.size());
  const float mean[3] = {10, 20, 30}, var[3] = {0.01f, 0.02f, 0.03f};
  for (size_t i = 0; i < raw.size(); ++i) {
    raw[i] = static_cast<char>((i * 37 + 11) % 256);
    f[i] = (static_cast<float>(static_cast<uint8_t>(raw[i])) - mean[i % 3]) * var[i % 3];
  }
  WriteFileBytes(Path("img.bin"), raw);
  ASSERT_TRUE(WriteNpy(Path("img.npy"), TensorDesc(DataType::kFloat32, {1, 32, 32, 3}), f.data()).ok());
  ToolResult r = Run("ge-run", {"--model", Path("tfa.om"), "--input", Path("img.bin"), "--output", Path("o")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const auto outs = FilesEndingIn(dir_ / "o", {".npy"});
  ASSERT_EQ(outs.size(), 1u) << r.Describe();
  ToolResult cmp = Run("ge-run", {"--model", Path("tfp.om"), "--input", Path("img.npy"), "--compare",
                                  outs[0]});
  EXPECT_EQ(cmp.exit_code, 0) << cmp.Describe();
  EXPECT_NE(cmp.out.find("PASS"), std::string::npos) << cmp.Describe();
}

TEST_F(AippTest, ModeOneAndSixShowTheAippNode) {
  ASSERT_EQ(Convert(kYuvConfig, "aipp").exit_code, 0);
  ToolResult info = Run("ge-atc", {"--mode", "6", "--om", Path("aipp.om")});
  ASSERT_EQ(info.exit_code, 0) << info.Describe();
  EXPECT_NE(info.out.find("input 0: input u8[1,24,16,1] (AIPP YUV420SP_U8 image)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("option insert_op_conf: aipp.cfg"), std::string::npos) << info.out;
  ToolResult json = Run("ge-atc", {"--mode", "1", "--om", Path("aipp.om"), "--json", Path("aipp.json")});
  ASSERT_EQ(json.exit_code, 0) << json.Describe();
  const std::string text = ReadFileBytes(Path("aipp.json"));
  EXPECT_NE(text.find("\"Aipp\""), std::string::npos);
  EXPECT_NE(text.find("\"YUV420SP_U8\""), std::string::npos);
}

TEST_F(AippTest, EveryConfigurationGeCannotRunIsOneErrorLine) {
  auto with = [](const std::string& body) { return "aipp_op {\n  aipp_mode: static\n" + body + "}\n"; };
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n", {"bad.cfg", "not an AIPP configuration", "line 4"}},
      {with("  input_format: RGB888_U8\n  no_such_field: 1\n"), {"bad.cfg", "no_such_field"}},
      {"aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 752640\n}\n", {"bad.cfg", "aipp_op #1", "dynamic is not supported"}},
      {with("  input_format: RGB888_U8\n  resize: true\n"), {"aipp_op #1", "resize is not supported"}},
      {with("  input_format: RAW10\n"), {"input_format RAW10 is not supported"}},
      {with(""), {"input_format is required"}},
      {with("  input_format: RGB888_U8\n  csc_switch: true\n"), {"csc_switch is true but no matrix"}},
      {with("  input_format: YUV400_U8\n"), {"input 'input'", "has 3 channels; YUV400_U8 gives 1"}},
      {with("  input_format: RGB888_U8\n  crop: true\n  crop_size_w: 10\n  crop_size_h: 10\n"),
       {"crop 10 x 10 plus padding gives 10 x 10, not the input's 16 x 16"}},
      {with("  input_format: RGB888_U8\n  related_input_rank: 1\n"), {"related_input_rank 1", "1 input(s)"}},
      {with("  input_format: YUV420SP_U8\n  crop: true\n  load_start_pos_w: 1\n  src_image_size_w: 20\n"),
       {"YUV420SP_U8 needs an even image size and crop start"}},
      {with("  input_format: RGB888_U8\n  matrix_r0c0: 1\n  matrix_r0c0: 2\n"), {"matrix_r0c0 has 2 values"}},
      {with("  input_format: RGB888_U8\n") + with("  input_format: RGB888_U8\n"), {"aipp_op #2", "already has an aipp_op"}},
  };
  for (const auto& [text, fragments] : cases) {
    SCOPED_TRACE(text);
    ExpectOneErrorLine(Convert(text, "bad"), "ge-atc", fragments);
    EXPECT_FALSE(fs::exists(Path("bad.om")));
  }
  ExpectOneErrorLine(Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("m"),
                                    "--insert_op_conf", Path("missing.cfg")}),
                     "ge-atc", {"missing.cfg", "cannot open"});
}

}  // namespace
}  // namespace ge::test
