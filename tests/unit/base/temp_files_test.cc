// ge_base/temp_files.h: WriteFileAtomically's temporary is PATH.<pid>.tmp,
// unlinked by SIGINT / SIGTERM while it is written, and swept by a later
// write when the process that made it is gone.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/scratch_dir.h"
#include "common/temp_leftovers.h"
#include "ge_base/file_io.h"
#include "ge_base/temp_files.h"

namespace ge::test {
namespace {

namespace fs = std::filesystem;

class TempFilesTest : public ScratchDirTest {
 protected:
  // The pid of a process that has exited and been reaped.
  static pid_t GonePid() {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return pid;
  }
};

TEST_F(TempFilesTest, TheTemporaryNamesThisProcess) {
  EXPECT_EQ(TempPathFor("/a/m.om"), "/a/m.om." + std::to_string(::getpid()) + ".tmp");
}

// The tests that no write left a temporary behind look for this name.
TEST_F(TempFilesTest, LeftoverChecksFindTheRealTemporaryName) {
  const std::string out = Path("m.om");
  EXPECT_EQ(TempFilesLeftFor(out), std::vector<std::string>{});
  std::ofstream(TempPathFor(out)) << "partial";
  std::ofstream(out + ".tmp") << "older name";
  for (const char* other : {"m.om", "m.om.x1.tmp", "m.om.1.tmp.bak", "n.om.1.tmp", "m.omx.1.tmp"})
    std::ofstream(Path(other)) << "not a temporary of m.om";
  EXPECT_EQ(TempFilesLeftFor(out), (std::vector<std::string>{out + "." + std::to_string(::getpid()) + ".tmp", out + ".tmp"}));
}

TEST_F(TempFilesTest, AWriteSweepsTemporariesOfGoneProcessesOnly) {
  const std::string out = Path("m.om");
  const std::string gone = out + "." + std::to_string(GonePid()) + ".tmp";
  const std::string live = out + "." + std::to_string(::getppid()) + ".tmp";
  const std::string other = Path("n.om") + "." + std::to_string(GonePid()) + ".tmp";
  for (const std::string& p : {gone, live, other}) std::ofstream(p) << "partial";
  ASSERT_TRUE(WriteFileAtomically(out, "whole").ok());
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_TRUE(fs::exists(live));   // its writer may still be writing
  EXPECT_TRUE(fs::exists(other));  // another output's
  EXPECT_TRUE(fs::exists(out));
}

// A child registers its temporary and is sent the signal: the file is gone
// and the child still ends by that signal (the default action runs after
// the cleanup), as a killed ge-atc would.
TEST_F(TempFilesTest, SigintAndSigtermUnlinkRegisteredTemporaries) {
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string tmp = Path("out.om." + std::to_string(sig) + ".tmp");
    std::ofstream(tmp) << "partial";
    const pid_t pid = ::fork();
    if (pid == 0) {
      const TempFileGuard guard(tmp);
      ::raise(sig);
      ::_exit(0);  // not reached: the signal ends the process
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status)) << "signal " << sig;
    if (WIFSIGNALED(status)) {
      EXPECT_EQ(WTERMSIG(status), sig);
    }
    EXPECT_FALSE(fs::exists(tmp)) << "signal " << sig;
  }
}

TEST_F(TempFilesTest, AReleasedGuardLeavesTheFileAlone) {
  const std::string kept = Path("kept.tmp");
  std::ofstream(kept) << "renamed already";
  const pid_t pid = ::fork();
  if (pid == 0) {
    { const TempFileGuard guard(kept); }
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(fs::exists(kept));
}

}  // namespace
}  // namespace ge::test
