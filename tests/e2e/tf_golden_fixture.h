// A test fixture for TF graphs built by hand and checked through the tools:
// constants saved as .npy beside the .pb, numpy goldens computed by a
// committed /usr/bin/python3 script from the same files, ge-atc
// --framework 3, then ge-run in v2 and sink modes with --compare.
#pragma once

#include <gtest/gtest.h>

#include "ge/tools/npy.h"
#include "tests/common/tool_runner.h"
#include "tests/unit/tf_parser/tf_test_util.h"

namespace ge::test {

// offset + scale * ((i * stride) % mod): repeatable values of a few sizes.
inline std::vector<float> Ramp(size_t n, float scale, float offset, int stride = 7, int mod = 23) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * stride) % mod);
  return v;
}

class TfGoldenTest : public TempDirTest {
 protected:
  // script: a file in tests/e2e taking "MODEL DIR" (exit 77 without numpy).
  explicit TfGoldenTest(const std::string& script)
      : golden_script_(std::string(GE_SOURCE_DIR) + "/tests/e2e/" + script) {}

  void SetUp() override {
    TempDirTest::SetUp();
    if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
      GTEST_SKIP() << "/usr/bin/python3 with numpy is needed for the goldens";
  }

  // A constant node and its .npy twin, so the golden script reads the same values.
  template <typename T>
  void Const(TfGraph& g, const std::string& name, tf::DataType dt, DataType ge_dt, const Ints& dims,
             const std::vector<T>& v) {
    g.Const(name, dt, dims, v);
    Save(name, ge_dt, dims, v);
  }
  void ConstF(TfGraph& g, const std::string& name, const Ints& dims, const std::vector<float>& v) {
    Const(g, name, tf::DT_FLOAT, DataType::kFloat32, dims, v);
  }
  void ConstI(TfGraph& g, const std::string& name, const Ints& dims, const std::vector<int32_t>& v) {
    Const(g, name, tf::DT_INT32, DataType::kInt32, dims, v);
  }
  template <typename T>
  void Save(const std::string& name, DataType dt, const Ints& dims, const std::vector<T>& v) {
    ASSERT_TRUE(WriteNpy(Path(name + ".npy"), TensorDesc(dt, dims), v.data()).ok()) << name;
  }

  // Writes the .pb, computes the goldens, converts, and runs `modes` (both
  // by default; data-dependent shapes run in v2 only) against them;
  // `inputs` are the .npy stems in Placeholder order.
  void ConvertRunCompare(const TfGraph& g, const std::string& model, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs,
                         const std::vector<std::string>& modes = {"v2", "sink"}) {
    WriteFileBytes(Path(model + ".pb"), g.Bytes());
    const std::string py = "/usr/bin/python3 " + ShellQuote(golden_script_) + " " + model + " " +
                           ShellQuote(dir_.string()) + " >" + ShellQuote(Path("golden.log")) + " 2>&1";
    ASSERT_EQ(std::system(py.c_str()), 0) << ReadFileBytes(Path("golden.log"));
    std::string out_nodes, in_files, goldens;
    for (const auto& o : outputs) {
      out_nodes += (out_nodes.empty() ? "" : ";") + o;
      goldens += (goldens.empty() ? "" : ",") + Path("golden_" + o + ".npy");
    }
    for (const auto& i : inputs) in_files += (in_files.empty() ? "" : ",") + Path(i + ".npy");
    ToolResult atc = Run("ge-atc", {"--model", Path(model + ".pb"), "--framework", "3", "--output", Path(model),
                                    "--out_nodes", out_nodes});
    ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
    for (const std::string& mode : modes) {
      SCOPED_TRACE(mode);
      ToolResult run = Run("ge-run", {"--model", Path(model + ".om"), "--mode", mode, "--input", in_files,
                                      "--compare", goldens});
      EXPECT_EQ(run.exit_code, 0) << run.Describe();
      const auto lines = SplitLines(run.out);
      ASSERT_FALSE(lines.empty()) << run.Describe();
      EXPECT_EQ(lines.back(), "PASS") << run.Describe();
    }
  }

  std::string golden_script_;
};

}  // namespace ge::test
