// Issue 46, hardening round 2: inputs the file checks could not see. FIFOs,
// devices and folders where a tool expects a file (a FIFO blocked every tool
// in open(), /dev/zero behind a symlink was read until bad_alloc), nesting
// that overflowed the stack (a 50,000-level fusion switch file, 8,000 nested
// Ifs in a .ge), a comparison of dumps that matched nothing, and the
// temporary .om a killed ge-atc left behind. Each is the one error line
// (tools_test.cc's convention) naming the file and what is wrong with it.
#include <sys/wait.h>
#include <unistd.h>

#include "common/scratch_dir.h"
#include "common/tool_runner.h"

namespace ge::test {
namespace {

// A hang would be the bug: each run gets far less than the default 300 s.
constexpr int kSpecialTimeoutS = 60;

class SpecialInputsTest : public TempDirTest {
 protected:
  std::string Fifo(const std::string& name) { return MakeFifo(Path(name)); }
  std::string ZeroLink(const std::string& name) { return MakeZeroLink(Path(name)); }
  std::string Folder(const std::string& name) {
    fs::create_directories(Path(name));
    return Path(name);
  }
  ToolResult RunSpecial(const std::string& tool, const std::vector<std::string>& args) {
    return Run(tool, args, kSpecialTimeoutS);
  }
  std::string TinyOm() {
    ToolResult r = RunSpecial("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return Path("tiny.om");
  }
};

// Every tool refuses a model path that is not a regular file, by kind.
TEST_F(SpecialInputsTest, ModelPathsMustBeRegularFiles) {
  const std::string fifo_onnx = Fifo("fifo.onnx"), fifo_om = Fifo("fifo.om"), fifo_ge = Fifo("fifo.ge");
  const std::string zero_onnx = ZeroLink("zero.onnx"), zero_om = ZeroLink("zero.om"), zero_ge = ZeroLink("zero.ge");
  const std::string dir_om = Folder("dir.om");
  struct Case {
    std::string tool;
    std::vector<std::string> args;
    std::string path, kind;
  };
  const std::vector<Case> cases = {
      {"ge-atc", {"--model", fifo_onnx, "--framework", "5", "--output", Path("o")}, fifo_onnx, "a FIFO"},
      {"ge-atc", {"--model", zero_onnx, "--framework", "5", "--output", Path("o")}, zero_onnx, "a character device"},
      {"ge-atc", {"--model", fifo_ge, "--output", Path("o")}, fifo_ge, "a FIFO"},
      {"ge-run", {"--model", fifo_om}, fifo_om, "a FIFO"},
      {"ge-run", {"--model", zero_om}, zero_om, "a character device"},
      {"ge-run", {"--model", dir_om}, dir_om, "a directory"},
      {"ge-dump", {"--model", zero_om}, zero_om, "a character device"},
      {"ge-dump", {"--model", fifo_om}, fifo_om, "a FIFO"},
      {"ge-lint", {fifo_ge}, fifo_ge, "a FIFO"},
      {"ge-lint", {zero_ge}, zero_ge, "a character device"},
      {"ge-lint", {"--model", dir_om}, dir_om, "a directory"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tool + " " + c.path);
    ExpectOneErrorLine(RunSpecial(c.tool, c.args), c.tool, {c.path + ": is " + c.kind + ", not a regular file"});
  }
  EXPECT_FALSE(fs::exists(Path("o.om")));
  EXPECT_EQ(FilesEndingIn(dir_, {".tmp"}), std::vector<std::string>{});
}

// The files the flags name: the same rule, and the error names the flag.
TEST_F(SpecialInputsTest, ConfigurationAndInputFilesMustBeRegularFiles) {
  const std::string om = TinyOm();
  const std::string fifo = Fifo("pipe"), zero = ZeroLink("zero.npy"), folder = Folder("keep");
  const std::vector<std::string> atc = {"--model", kTinyOnnx, "--framework", "5", "--output", Path("o")};
  auto with = [](std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  struct Case {
    std::string tool;
    std::vector<std::string> args;
    std::vector<std::string> fragments;
  };
  const std::vector<Case> cases = {
      {"ge-atc", with(atc, {"--fusion_switch_file", fifo}),
       {"--fusion_switch_file", fifo + ": cannot open the fusion switch file: is a FIFO, not a regular file"}},
      {"ge-atc", with(atc, {"--keep_dtype", folder}),
       {folder + ": cannot open the keep-dtype file (--keep_dtype): is a directory, not a regular file"}},
      {"ge-atc", with(atc, {"--modify_mixlist", zero}),
       {zero + ": cannot open the mix list (--modify_mixlist): is a character device, not a regular file"}},
      {"ge-atc", with(atc, {"--insert_op_conf", fifo}),
       {fifo + ": cannot open the AIPP configuration (--insert_op_conf): is a FIFO, not a regular file"}},
      {"ge-run", {"--model", om, "--input", zero}, {zero + ": is a character device, not a regular file"}},
      {"ge-run", {"--model", om, "--input", fifo}, {fifo}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.tool + " " + c.args.back());
    ExpectOneErrorLine(RunSpecial(c.tool, c.args), c.tool, c.fragments);
  }
}

// {"a":{"a":...}} 50,000 levels: a stack overflow in ge-atc before.
TEST_F(SpecialInputsTest, DeepFusionSwitchFileIsOneError) {
  std::string json;
  for (int i = 0; i < 50000; ++i) json += "{\"a\":";
  json += "\"on\"" + std::string(50000, '}');
  WriteFileBytes(Path("fs.json"), json);
  ToolResult r = RunSpecial("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("o"),
                                       "--fusion_switch_file", Path("fs.json")});
  ExpectOneErrorLine(r, "ge-atc", {"--fusion_switch_file", Path("fs.json") + ": JSON nested deeper than 16 levels"});
}

// 8,000 nested Ifs: a stack overflow in ge-atc, ge-lint and ge-dump before.
TEST_F(SpecialInputsTest, DeeplyNestedGraphTextIsOneError) {
  std::string head, tail;
  for (int k = 0; k < 8000; ++k) {
    head += "graph g" + std::to_string(k) + " {\n  %i = If(_) -> ()\n  // subgraph then_branch of i\n";
    tail += "  %o = NetOutput() -> ()\n}\n";
  }
  WriteFileBytes(Path("deep.ge"), head + "graph leaf {\n  %o = NetOutput() -> ()\n}\n" + tail);
  const std::string error = Path("deep.ge") + ":73: subgraphs nested too deep (more than 24 levels)";
  ExpectOneErrorLine(RunSpecial("ge-lint", {Path("deep.ge")}), "ge-lint", {error});
  ExpectOneErrorLine(RunSpecial("ge-dump", {"--model", Path("deep.ge")}), "ge-dump", {error});
  ExpectOneErrorLine(RunSpecial("ge-atc", {"--model", Path("deep.ge"), "--output", Path("o")}), "ge-atc", {error});
}

// A dump with no op output in common with the other is an error, not
// "no divergent op: all 0 matched outputs" with exit 0.
TEST_F(SpecialInputsTest, CompareOfDumpsThatMatchNothingFails) {
  const std::string om = TinyOm();
  ToolResult run = RunSpecial("ge-run", {"--model", om, "--input", kTinyInput, "--dump", Path("a")});
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  fs::create_directories(Path("b"));
  WriteFileBytes(Path("b/dump.json"), R"({"format": "ge-op-dump", "version": 1, "model": "m", "ops": []})");
  ToolResult r = RunSpecial("ge-dump", {"compare", Path("a"), Path("b")});
  ExpectOneErrorLine(r, "ge-dump", {Path("a") + " and " + Path("b") + " have no op output in common", Path("b") + " 0)",
                                    "nothing to compare"});
  EXPECT_EQ(r.out.find("no divergent op"), std::string::npos) << r.Describe();
}

// The temporary of a ge-atc that was killed (SIGKILL: no handler runs) is
// swept by the next write of the same output, once its process is gone.
TEST_F(SpecialInputsTest, AKilledWritersTemporaryIsSweptByTheNextWrite) {
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(gone, &status, 0), gone);
  const std::string stale = Path("tiny.om." + std::to_string(gone) + ".tmp");
  WriteFileBytes(stale, std::string(4096, 'x'));
  TinyOm();
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_EQ(FilesEndingIn(dir_, {".tmp"}), std::vector<std::string>{});
}

}  // namespace
}  // namespace ge::test
