// Weights packed ahead, end to end: ge-atc packs tiny_cnn's conv and Gemm
// weights for this CPU, and ge-run's kernels compute with those bytes where
// the mapped .om holds them (GE_KERNEL_VERBOSE says "weights:packed-ahead"),
// in both modes, with no repack warning; with the pass off they pack at load.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

class Prepack : public TempDirTest, public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    ::setenv("GE_KERNEL_VERBOSE", "1", 1);
  }
  void TearDown() override {
    ::unsetenv("GE_KERNEL_VERBOSE");
    TempDirTest::TearDown();
  }
  ToolResult Convert(const std::string& out, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--model", kTinyOnnx, "--framework", "5", "--output", Path(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run("ge-atc", args);
  }
  ToolResult RunOm(const std::string& om) {
    return Run("ge-run", {"--model", Path(om), "--mode", GetParam(), "--input", kTinyInput, "--compare", kTinyGolden});
  }
};

// Which weights oneDNN wants packed depends on the ISA (the convolutions'
// always; the Gemm's on AVX-512, not with AVX2's gemm): the kernels that pack
// at load without the pass are exactly those that use the packing with it.
TEST_P(Prepack, KernelsComputeWithTheWeightsPackedByGeAtc) {
  ToolResult atc = Convert("packed");
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  ToolResult off_atc = Convert("plain", {"--disable_pass", "weight_prepack"});
  ASSERT_EQ(off_atc.exit_code, 0) << off_atc.Describe();

  ToolResult on = RunOm("packed.om");
  ASSERT_EQ(on.exit_code, 0) << on.Describe();
  EXPECT_NE(on.out.find("PASS"), std::string::npos) << on.Describe();
  ToolResult off = RunOm("plain.om");
  ASSERT_EQ(off.exit_code, 0) << off.Describe();
  EXPECT_NE(off.out.find("PASS"), std::string::npos) << off.Describe();

  const int packed_at_load = Count(off.err, "weights:packed-once");
  EXPECT_GE(packed_at_load, 2) << "tiny_cnn's two convolutions compute with blocked weights on every ISA\n" << off.err;
  EXPECT_EQ(Count(off.err, "weights:packed-ahead"), 0) << off.err;
  EXPECT_EQ(Count(on.err, "weights:packed-ahead"), packed_at_load) << on.err;
  EXPECT_EQ(Count(on.err, "weights:packed-once"), 0) << on.err;
  EXPECT_EQ(on.err.find("packed for another CPU"), std::string::npos) << on.err;
  EXPECT_GT(fs::file_size(Path("packed.om")), fs::file_size(Path("plain.om"))) << "the packed copy is stored too";
}

INSTANTIATE_TEST_SUITE_P(Modes, Prepack, ::testing::Values("sink", "v2"));

}  // namespace
}  // namespace ge::test
