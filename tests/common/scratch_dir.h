// A fresh directory per unit test (removed afterwards) and the special files
// the hardening tests put in it: a FIFO, a symlink to /dev/zero.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ge::test {

// Makes a FIFO at `path` and returns the path.
inline std::string MakeFifo(const std::string& path) {
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
  return path;
}

// Makes `path` a symlink to /dev/zero (a file that never ends) and returns it.
inline std::string MakeZeroLink(const std::string& path) {
  std::filesystem::create_symlink("/dev/zero", path);
  return path;
}

class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("ge_" + std::string(test->test_suite_name()) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

}  // namespace ge::test
