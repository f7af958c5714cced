// For the end-to-end tests: run a built tool (GE_BINARY_DIR/apps/ge-*) with
// its stdout and stderr captured separately, in a per-test temporary
// directory, and check the "one error line" convention of DESIGN.md.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace ge::test {

namespace fs = std::filesystem;

// The bundled example every tool test starts from.
inline const std::string kTinyOnnx = std::string(GE_SOURCE_DIR) + "/examples/tiny_cnn.onnx";
inline const std::string kTinyInput = std::string(GE_SOURCE_DIR) + "/examples/tiny_cnn.input.npy";
inline const std::string kTinyGolden = std::string(GE_SOURCE_DIR) + "/examples/tiny_cnn.output.npy";

inline std::string ToolPath(const std::string& tool) { return std::string(GE_BINARY_DIR) + "/apps/" + tool; }

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

inline std::string ReadFileBytes(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

inline void WriteFileBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(f.good()) << "cannot write " << path;
}

inline std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t nl = s.find('\n', pos);
    std::string line = s.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return lines;
}

inline std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct ToolResult {
  std::string command;
  int exit_code = -1;   // the tool's exit status when it exited
  bool signaled = false;
  int signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;

  // For failure messages.
  std::string Describe() const {
    std::string s = "$ " + command + "\n";
    if (signaled) s += "killed by signal " + std::to_string(signal) + "\n";
    else if (timed_out) s += "timed out\n";
    else s += "exit code " + std::to_string(exit_code) + "\n";
    s += "--- stdout ---\n" + out.substr(0, 4000) + "\n--- stderr ---\n" + err.substr(0, 4000);
    return s;
  }
};

// Runs `tool` (a name under GE_BINARY_DIR/apps, e.g. "ge-atc") with `args` in
// `cwd`, capturing output through files in `capture_dir` (kept apart from the
// directory a test inspects for leftovers). A tool that runs longer than
// `timeout_s` is killed and reported as timed out.
inline ToolResult RunTool(const std::string& tool, const std::vector<std::string>& args, const fs::path& cwd,
                          const fs::path& capture_dir, int timeout_s = 300) {
  static int counter = 0;
  fs::create_directories(capture_dir);
  const int n = counter++;
  const fs::path out_file = capture_dir / ("stdout." + std::to_string(n));
  const fs::path err_file = capture_dir / ("stderr." + std::to_string(n));
  std::string cmd = ShellQuote(ToolPath(tool));
  for (const auto& a : args) {
    cmd += ' ';
    cmd += ShellQuote(a);
  }
  ToolResult r;
  r.command = cmd;
  std::string full = "cd ";
  full += ShellQuote(cwd.string());
  full += " && timeout -k 5 ";
  full += std::to_string(timeout_s);
  full += " ";
  full += cmd;
  full += " >";
  full += ShellQuote(out_file.string());
  full += " 2>";
  full += ShellQuote(err_file.string());
  full += " </dev/null";
  const int status = std::system(full.c_str());
  if (status == -1) {
    ADD_FAILURE() << "cannot run " << full;
    return r;
  }
  if (WIFSIGNALED(status)) {
    r.signaled = true;
    r.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
    // The shell reports a child killed by a signal as 128 + signal; timeout(1) as 124 (137 after -k).
    if (r.exit_code == 124 || r.exit_code == 137) r.timed_out = true;
    else if (r.exit_code > 128 && r.exit_code < 128 + 65) {
      r.signaled = true;
      r.signal = r.exit_code - 128;
    }
  }
  r.out = ReadFileBytes(out_file);
  r.err = ReadFileBytes(err_file);
  std::error_code ec;
  fs::remove(out_file, ec);
  fs::remove(err_file, ec);
  return r;
}

// A failed run in the DESIGN.md convention: a non-zero exit (not a crash or a
// hang), and exactly one line on stderr starting with "TOOL: error:"; it is
// the last line, no other stderr line speaks of an error (no duplicate
// messages, log lines at error level, "terminate called ..."), and it
// contains every one of `fragments` (the file or flag at fault).
inline void ExpectOneErrorLine(const ToolResult& r, const std::string& tool,
                               const std::vector<std::string>& fragments) {
  SCOPED_TRACE(r.Describe());
  EXPECT_FALSE(r.signaled) << "the tool crashed";
  EXPECT_FALSE(r.timed_out) << "the tool hung";
  EXPECT_NE(r.exit_code, 0) << "the tool reported success";
  const std::string prefix = tool + ": error:";
  const std::vector<std::string> lines = SplitLines(r.err);
  std::vector<std::string> error_lines;
  for (const auto& l : lines)
    if (l.rfind(prefix, 0) == 0) error_lines.push_back(l);
  ASSERT_EQ(error_lines.size(), 1u) << "expected exactly one '" << prefix << "' line on stderr";
  EXPECT_EQ(lines.back(), error_lines[0]) << "the error line is not the last line on stderr";
  for (const auto& l : lines) {
    if (l == error_lines[0]) continue;
    const std::string low = Lower(l);
    EXPECT_EQ(low.find("error"), std::string::npos) << "another error line on stderr: " << l;
    EXPECT_EQ(low.find("terminate"), std::string::npos) << l;
    EXPECT_EQ(low.find("abort"), std::string::npos) << l;
  }
  for (const auto& f : fragments)
    EXPECT_NE(error_lines[0].find(f), std::string::npos) << "the error line does not name '" << f << "'";
}

// Files anywhere under `dir` whose names end in one of `suffixes`.
inline std::vector<std::string> FilesEndingIn(const fs::path& dir, std::initializer_list<const char*> suffixes) {
  std::vector<std::string> found;
  if (!fs::exists(dir)) return found;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    for (const char* s : suffixes) {
      const std::string suf = s;
      if (name.size() >= suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0)
        found.push_back(e.path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// A fresh directory per test under the system temp dir, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Named by number, not by test: a test name ("...IsAnError...") inside
    // every path would look like an error word on the tools' stderr.
    static int serial = 0;
    root_ = fs::temp_directory_path() / ("ge_e2e_" + std::to_string(::getpid()) + "_" + std::to_string(serial++));
    fs::remove_all(root_);
    dir_ = root_ / "work";
    capture_ = root_ / "capture";
    fs::create_directories(dir_);
    fs::create_directories(capture_);
  }
  void TearDown() override {
    if (std::getenv("GE_KEEP_TEST_DIRS")) return;
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  // Runs `/usr/bin/python3 tests/e2e/SCRIPT ARGS...`, its output into LOG
  // in the work dir: the exit code (-1 when killed; the golden scripts exit
  // 77 when python3-numpy or python3-onnx is missing, to skip).
  int RunScript(const std::string& script, const std::vector<std::string>& args, const std::string& log) const {
    std::string cmd = "/usr/bin/python3 " + ShellQuote(std::string(GE_SOURCE_DIR) + "/tests/e2e/" + script);
    for (const std::string& a : args) cmd += " " + ShellQuote(a);
    const int rc = std::system((cmd + " >" + ShellQuote(Path(log)) + " 2>&1").c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  ToolResult Run(const std::string& tool, const std::vector<std::string>& args, int timeout_s = 300) {
    return RunTool(tool, args, dir_, capture_, timeout_s);
  }

  fs::path root_;
  fs::path dir_;      // the tools' working directory and where their files go
  fs::path capture_;  // stdout/stderr capture files
};

}  // namespace ge::test
