// WriteFileAtomically: the bytes land at the path, an existing file is
// replaced whole, and a failed write leaves neither a file nor a .tmp.
#include "ge_base/file_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/common/refusal.h"

namespace ge {
namespace {

namespace fs = std::filesystem;

// The temporary WriteFileAtomically writes next to PATH (ge_base/temp_files.h).
std::string TempOf(const fs::path& p) { return p.string() + "." + std::to_string(::getpid()) + ".tmp"; }

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ge_file_io_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileIoTest, WritesAndReplacesWholeFiles) {
  const fs::path p = dir_ / "out.bin";
  const std::string bytes("a\0b\nc", 5);
  ASSERT_TRUE(WriteFileAtomically(p.string(), bytes).ok());
  EXPECT_EQ(Slurp(p), bytes);
  ASSERT_TRUE(WriteFileAtomically(p.string(), "xy").ok());
  EXPECT_EQ(Slurp(p), "xy");
  EXPECT_FALSE(fs::exists(TempOf(p)));
}

TEST_F(FileIoTest, FailureNamesThePathAndLeavesNothing) {
  const fs::path p = dir_ / "missing_dir" / "out.bin";
  Status s = WriteFileAtomically(p.string(), "data");
  ASSERT_TRUE(Refused(s, StatusCode::kIo, "missing_dir/out.bin." + std::to_string(getpid()) + ".tmp for writing"));
  EXPECT_NE(s.message().find(p.string()), std::string::npos) << s.ToString();
  EXPECT_FALSE(fs::exists(p));
  EXPECT_FALSE(fs::exists(TempOf(p)));
  // Renaming onto a directory fails after the .tmp was written: it is removed.
  const fs::path d = dir_ / "a_dir";
  fs::create_directories(d / "child");
  EXPECT_TRUE(Refused(WriteFileAtomically(d.string(), "data"), StatusCode::kIo, "a_dir." + std::to_string(getpid()) + ".tmp into place: Is a"));
  EXPECT_TRUE(fs::is_directory(d));
  EXPECT_FALSE(fs::exists(TempOf(d)));
}

}  // namespace
}  // namespace ge
