// The compiler's configuration files (--fusion_switch_file, --modify_mixlist,
// --keep_dtype, --insert_op_conf): nesting past the limit, FIFOs, devices and
// folders are one error naming the file, never a stack overflow or a hang.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/scratch_dir.h"
#include "ge/aipp_config.h"
#include "ge/compiler.h"

namespace ge::test {
namespace {

namespace fs = std::filesystem;

class ConfigFilesTest : public ScratchDirTest {
 protected:
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string p = Path(name);
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

// {"a":{"a":...{"a":"on"}...}} `levels` objects deep.
std::string NestedJson(int levels) {
  std::string s;
  for (int i = 0; i < levels; ++i) s += "{\"a\":";
  return s + "\"on\"" + std::string(static_cast<size_t>(levels), '}');
}

// 50,000 levels overflowed the stack in ge-atc (the recursive walk of the
// parsed file); 30,000 were read to the end before "unknown fusion pass".
TEST_F(ConfigFilesTest, FusionSwitchFileNestedTooDeepIsOneError) {
  for (int levels : {17, 30000, 50000}) {
    const std::string p = Write("fs.json", NestedJson(levels));
    auto r = ReadFusionSwitchFile(p);
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << levels;
    EXPECT_EQ(r.status().message(), p + ": JSON nested deeper than 16 levels") << levels;
  }
  // At the limit the file is read and its keys checked as usual.
  const std::string p = Write("fs.json", NestedJson(16));
  auto r = ReadFusionSwitchFile(p);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().rfind(p + ": unknown fusion pass 'a'", 0), 0u) << r.status().message();
}

TEST_F(ConfigFilesTest, MixListNestedTooDeepIsOneError) {
  const std::string p = Write("mix.json", "{\"allow_mix_precision\": " + NestedJson(40) + "}");
  CompileOptions::Precision precision;
  const Status s = ReadMixList(p, &precision);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), p + ": JSON nested deeper than 16 levels");
}

// --keep_dtype naming a folder used to be accepted as an empty list.
TEST_F(ConfigFilesTest, KeepDtypeFolderIsRefused) {
  fs::create_directories(Path("keep"));
  CompileOptions::Precision precision;
  const Status s = ReadKeepDtype(Path("keep"), &precision);
  EXPECT_EQ(s.code(), StatusCode::kIo);
  EXPECT_EQ(s.message(), Path("keep") + ": cannot open the keep-dtype file (--keep_dtype): is a directory, not a regular file");
}

// Each reader refuses a FIFO before opening it (open() would wait for a
// writer forever) and /dev/zero behind a symlink before reading it.
TEST_F(ConfigFilesTest, FifosAndDevicesAreRefusedNamingTheFile) {
  const std::string fifo = MakeFifo(Path("pipe"));
  const std::string zero = MakeZeroLink(Path("zero"));
  for (const auto& [path, kind] : {std::pair{fifo, "a FIFO"}, std::pair{zero, "a character device"}}) {
    const std::string tail = std::string(": is ") + kind + ", not a regular file";
    auto fs = ReadFusionSwitchFile(path);
    EXPECT_EQ(fs.status().code(), StatusCode::kIo);
    EXPECT_EQ(fs.status().message(), path + ": cannot open the fusion switch file" + tail);
    CompileOptions::Precision precision;
    const Status mix = ReadMixList(path, &precision);
    EXPECT_EQ(mix.code(), StatusCode::kIo);
    EXPECT_EQ(mix.message(), path + ": cannot open the mix list (--modify_mixlist)" + tail);
    auto aipp = ReadAippConfigFile(path);
    EXPECT_EQ(aipp.status().code(), StatusCode::kIo);
    EXPECT_EQ(aipp.status().message(), path + ": cannot open the AIPP configuration (--insert_op_conf)" + tail);
  }
}

}  // namespace
}  // namespace ge::test
