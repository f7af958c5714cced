// End-to-end tests of ge-dump's subcommands as a user runs them: the dumps
// per pass (text and JSON), --list_passes, --dot, diff and --track, bisect
// (with the test-only broken pass), memory with --svg, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/model.h"
#include "ge/om.h"
#include "tests/common/temp_leftovers.h"
#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"

namespace ge::test {
namespace {

class DumpTest : public TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* t : {"ge-atc", "ge-dump"}) ASSERT_TRUE(fs::exists(ToolPath(t))) << ToolPath(t) << " is not built";
  }
  std::string ConvertTiny() {
    ToolResult r = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return Path("tiny.om");
  }
};

std::vector<std::string> Names(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// --------------------------------------------------------------- dumps

TEST_F(DumpTest, OutWritesTextAndJsonPerPassNumberedInOrder) {
  ToolResult r = Run("ge-dump", {"--model", kTinyOnnx, "--out", Path("d")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::vector<std::string> names = Names(Path("d"));
  // The graph passes write the graph (text and JSON); the planning stages
  // after them, which leave the graph as it is, write what they decided.
  const std::vector<std::string> stages = {"stream_assignment", "memory_planning", "task_building", "model_check"};
  const std::vector<std::string> passes = PassNames();
  ASSERT_EQ(names.size(), 2 * (passes.size() + 1) + stages.size()) << r.Describe();
  for (size_t k = 0; k < stages.size(); ++k) {
    char prefix[24];
    std::snprintf(prefix, sizeof(prefix), "%02zu_", passes.size() + 1 + k);
    const std::string file = prefix + stages[k] + ".txt";
    EXPECT_EQ(names[2 * (passes.size() + 1) + k], file);
    EXPECT_EQ(ReadFileBytes(dir_ / "d" / file).rfind(stages[k] + ": ", 0), 0u) << file;
  }
  EXPECT_NE(ReadFileBytes(dir_ / "d" / names[2 * (passes.size() + 1) + 1]).find("feature map"), std::string::npos);
  for (size_t i = 0; i <= passes.size(); ++i) {
    char prefix[24];
    std::snprintf(prefix, sizeof(prefix), "%02zu_", i);
    const std::string base = prefix + (i == 0 ? std::string("parsed") : passes[i - 1]);
    EXPECT_EQ(names[2 * i], base + ".json");
    EXPECT_EQ(names[2 * i + 1], base + ".txt");
    // The JSON parses and has the text form's nodes in the same order.
    const nlohmann::json j = nlohmann::json::parse(ReadFileBytes(dir_ / "d" / (base + ".json")), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << base << ".json is not JSON";
    const std::vector<std::string> lines = SplitLines(ReadFileBytes(dir_ / "d" / (base + ".txt")));
    ASSERT_EQ(j["nodes"].size() + 2, lines.size()) << base;  // "graph X {" and "}"
    for (size_t k = 0; k < j["nodes"].size(); ++k)
      EXPECT_EQ(lines[k + 1].rfind("  %" + j["nodes"][k]["name"].get<std::string>() + " = ", 0), 0u) << lines[k + 1];
  }
  EXPECT_FALSE(FilesEndingIn(Path("d"), {".tmp"}).size()) << "temporary files left behind";
  EXPECT_NE(r.out.find("op counts: "), std::string::npos);
  EXPECT_NE(r.out.find("Conv=2"), std::string::npos) << r.out;
}

TEST_F(DumpTest, ListPassesPrintsThePipeline) {
  ToolResult r = Run("ge-dump", {"--list_passes"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("switchable"), std::string::npos);
  EXPECT_NE(r.out.find("fusion"), std::string::npos);
  const std::vector<PassInfo> passes = ListPasses();
  const std::vector<std::string> lines = SplitLines(r.out);
  ASSERT_EQ(lines.size(), passes.size() + 1);
  for (size_t i = 0; i < passes.size(); ++i) {
    EXPECT_NE(lines[i + 1].find(" " + passes[i].name + " "), std::string::npos) << lines[i + 1];
    EXPECT_NE(lines[i + 1].find(passes[i].stage), std::string::npos) << lines[i + 1];
  }
}

TEST_F(DumpTest, DotWritesTheGraphForGraphviz) {
  ToolResult r = Run("ge-dump", {"--model", kTinyOnnx, "--dot", Path("g.dot")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::string dot = ReadFileBytes(Path("g.dot"));
  EXPECT_EQ(dot.rfind("digraph ", 0), 0u);
  EXPECT_NE(dot.find("label=\"Conv\\nconv1\""), std::string::npos) << dot.substr(0, 400);
  // The format suffix, if any, is the layout stage's choice for this CPU.
  EXPECT_NE(dot.find("[label=\"f32[1,8,16,16]"), std::string::npos) << "edges carry shapes";
  EXPECT_EQ(dot.substr(dot.size() - 2), "}\n");
}

TEST_F(DumpTest, DisablePassAndFusionSwitchFlagsAreChecked) {
  ExpectOneErrorLine(Run("ge-dump", {"--model", kTinyOnnx, "--disable_pass", "no_such_pass"}), "ge-dump",
                     {"--disable_pass", "no_such_pass"});
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", kTinyOnnx, "--fusion_switch_file", Path("absent.json")}),
                     "ge-dump", {"--fusion_switch_file"});
  ToolResult r = Run("ge-dump", {"--model", kTinyOnnx, "--input_shape", "input:1,3,16,16"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  ExpectOneErrorLine(Run("ge-dump", {"--model", kTinyOnnx, "--input_shape", "input:x"}), "ge-dump", {"--input_shape"});
}

// ---------------------------------------------------------------- diff

TEST_F(DumpTest, DiffPrintsEveryPassAndWhatItChanged) {
  ToolResult r = Run("ge-dump", {"diff", "--model", kTinyOnnx, "--test_broken_pass", "infer_shapes"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  for (const PassInfo& p : ListPasses())
    EXPECT_NE(r.out.find((p.planning ? "stage " : "pass ") + p.name + ":"), std::string::npos) << p.name;
  EXPECT_NE(r.out.find("stage memory_planning: feature map"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pass broken_negate_const: 0 added, 0 removed, 1 changed\n  ~ w1 (Const): attr value:"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("passes ran"), std::string::npos);
}

// ge-atc's IO flags: the passes that apply them show what they insert.
TEST_F(DumpTest, DiffShowsWhatAippAndOutputTypeInsert) {
  WriteFileBytes(Path("aipp.cfg"), "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  mean_chn_0: 10\n}\n");
  ToolResult r = Run("ge-dump", {"diff", "--model", kTinyOnnx, "--insert_op_conf", Path("aipp.cfg"), "--output_type",
                                 "FP16"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("pass insert_aipp: 1 added"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(Aipp)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pass insert_io_casts: 1 added"), std::string::npos) << r.out;
  ToolResult plain = Run("ge-dump", {"diff", "--model", kTinyOnnx});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  EXPECT_EQ(plain.out.find("(Aipp)"), std::string::npos);
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", kTinyOnnx, "--insert_op_conf", Path("missing.cfg")}), "ge-dump",
                     {"missing.cfg"});
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", kTinyOnnx, "--output_type", "FP64"}), "ge-dump",
                     {"--output_type", "FP64"});
  ExpectOneErrorLine(Run("ge-dump", {"memory", "--model", ConvertTiny(), "--insert_op_conf", Path("aipp.cfg")}),
                     "ge-dump", {"tiny.om", "--insert_op_conf"});
}

TEST_F(DumpTest, TrackFollowsOneNode) {
  ToolResult r = Run("ge-dump", {"diff", "--model", kTinyOnnx, "--track", "w1", "--test_broken_pass", "infer_shapes"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::vector<std::string> lines = SplitLines(r.out);
  ASSERT_EQ(lines.size(), PassNames().size() + 3) << r.out;  // header, parsed, passes, broken pass
  EXPECT_NE(lines[1].find("parsed"), std::string::npos);
  EXPECT_NE(r.out.find("broken_negate_const          changed"), std::string::npos) << r.out;
}

TEST_F(DumpTest, TrackingAnUnknownNodeIsOneErrorLine) {
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", kTinyOnnx, "--track", "conv9"}), "ge-dump",
                     {"--track", "conv9"});
}

// -------------------------------------------------------------- bisect

TEST_F(DumpTest, BisectNamesTheBrokenPass) {
  ToolResult r = Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", kTinyInput, "--golden", kTinyGolden,
                                 "--test_broken_pass", "infer_shapes:negate_const"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("step 1: "), std::string::npos) << "progress per step";
  EXPECT_NE(r.out.find("MISMATCH"), std::string::npos);
  EXPECT_NE(r.out.find("first bad pass: broken_negate_const\n"), std::string::npos) << r.out;
}

TEST_F(DumpTest, BisectSaysSoWhenEverythingMatches) {
  ToolResult r = Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", kTinyInput, "--golden", kTinyGolden});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("every pass matches"), std::string::npos) << r.out;
}

TEST_F(DumpTest, BisectBadInputs) {
  ExpectOneErrorLine(Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", Path("gone.npy"), "--golden",
                                     kTinyGolden}),
                     "ge-dump", {"gone.npy"});
  // The input given as golden: another shape, so it never matches, even with every pass off.
  ExpectOneErrorLine(Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", kTinyInput, "--golden", kTinyInput}),
                     "ge-dump", {"every switchable pass off"});
  ExpectOneErrorLine(Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", kTinyInput}), "ge-dump",
                     {"--golden"});
  ExpectOneErrorLine(Run("ge-dump", {"bisect", "--model", kTinyOnnx, "--input", kTinyInput, "--golden", kTinyGolden,
                                     "--test_broken_pass", "no_such_pass"}),
                     "ge-dump", {"no_such_pass"});
}

// -------------------------------------------------------------- memory

TEST_F(DumpTest, MemoryPrintsTheSummaryAndDrawsTheSvg) {
  const std::string om = ConvertTiny();
  ToolResult r = Run("ge-dump", {"memory", "--model", om, "--svg", Path("plan.svg")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  for (const char* s : {"feature-map peak:", "lower bound:", "no-reuse sum:", "wrote "})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  const std::string svg = ReadFileBytes(Path("plan.svg"));
  EXPECT_NE(svg.find("<svg xmlns="), std::string::npos);
  EXPECT_NE(svg.find("<g class=\"buffer\"><title>conv1:0"), std::string::npos) << svg.substr(0, 800);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(TempFilesLeftFor(Path("plan.svg")), std::vector<std::string>{});
}

TEST_F(DumpTest, MemoryOfAModelWithoutAPlanSaysSo) {
  Model m;
  m.name = "unplanned";
  m.producer = "ge-e2e-test";
  m.graph = std::make_unique<Graph>("unplanned");
  Node* x = m.graph->AddNode(op::kData, "x", 0, 1);
  x->SetAttr("index", int64_t{0});
  x->output_desc(0) = TensorDesc(DataType::kFloat32, {1, 4});
  Node* out = m.graph->AddNode(op::kNetOutput, "out", 1, 0);
  ASSERT_TRUE(m.graph->AddEdge(x, 0, out, 0).ok());
  DescribeModelIo(m);
  ASSERT_TRUE(WriteOmFile(m, Path("unplanned.om")).ok());
  ToolResult r = Run("ge-dump", {"memory", "--model", Path("unplanned.om"), "--svg", Path("p.svg")});
  ExpectOneErrorLine(r, "ge-dump", {"unplanned.om", "no memory plan"});
  EXPECT_FALSE(fs::exists(Path("p.svg")));
}

// ----------------------------------------------------------- bad input

TEST_F(DumpTest, BadInvocationsAreOneErrorLine) {
  ExpectOneErrorLine(Run("ge-dump", {"frobnicate", "--model", kTinyOnnx}), "ge-dump", {"frobnicate"});
  ExpectOneErrorLine(Run("ge-dump", {"--model", Path("absent.onnx")}), "ge-dump", {"absent.onnx"});
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", Path("absent.onnx")}), "ge-dump", {"absent.onnx"});
  ExpectOneErrorLine(Run("ge-dump", {"memory", "--model", Path("absent.om")}), "ge-dump", {"absent.om"});
  ExpectOneErrorLine(Run("ge-dump", {}), "ge-dump", {"--model"});
  ExpectOneErrorLine(Run("ge-dump", {"diff"}), "ge-dump", {"--model"});
  const std::string om = ConvertTiny();
  ExpectOneErrorLine(Run("ge-dump", {"--model", om, "--out", Path("d")}), "ge-dump", {"--out"});
  ExpectOneErrorLine(Run("ge-dump", {"diff", "--model", om}), "ge-dump", {"tiny.om"});
}

TEST_F(DumpTest, EverySubcommandHasItsOwnHelp) {
  for (const char* sub : {"diff", "bisect", "memory"}) {
    ToolResult r = Run("ge-dump", {sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_NE(r.out.find(std::string("ge-dump ") + sub), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--model"), std::string::npos);
  }
  EXPECT_NE(Run("ge-dump", {"bisect", "--help"}).out.find("--golden"), std::string::npos);
  EXPECT_NE(Run("ge-dump", {"diff", "--help"}).out.find("--track"), std::string::npos);
  EXPECT_NE(Run("ge-dump", {"memory", "--help"}).out.find("--svg"), std::string::npos);
  // The test-only flag stays out of the help.
  EXPECT_EQ(Run("ge-dump", {"bisect", "--help"}).out.find("test_broken_pass"), std::string::npos);
}

// -------------------------------------------------- a reference model

TEST_F(DumpTest, ResNet18EverySubcommand) {
  const std::string model = ModelsPath("resnet18.onnx");
  const std::string input = ModelsPath("resnet18.input.npy"), golden = ModelsPath("resnet18.output.npy");
  for (const std::string& p : {model, input, golden}) GE_SKIP_IF_ABSENT(p);
  ToolResult dump = Run("ge-dump", {"--model", model, "--out", Path("d"), "--dot", Path("r.dot")});
  ASSERT_EQ(dump.exit_code, 0) << dump.Describe();
  EXPECT_EQ(Names(Path("d")).size(), 2 * (PassNames().size() + 1) + 4);  // + the planning stages' .txt
  EXPECT_NE(dump.out.find("op counts: "), std::string::npos);
  EXPECT_NE(dump.out.find("Conv="), std::string::npos);
  EXPECT_EQ(ReadFileBytes(Path("r.dot")).rfind("digraph ", 0), 0u);

  ToolResult diff = Run("ge-dump", {"diff", "--model", model});
  ASSERT_EQ(diff.exit_code, 0) << diff.Describe();
  EXPECT_NE(diff.out.find("passes ran"), std::string::npos);
  ToolResult track = Run("ge-dump", {"diff", "--model", model, "--track", "NetOutput"});
  EXPECT_EQ(track.exit_code, 0) << track.Describe();

  // Late in the pipeline, but before weight_prepack: a constant changed after its
  // consumers' weights were packed would not be seen (weight_prepack runs last for that).
  const std::vector<std::string> passes = PassNames();
  const auto prepack = std::find(passes.begin(), passes.end(), "weight_prepack");
  ASSERT_NE(prepack, passes.begin());
  ToolResult bisect = Run("ge-dump", {"bisect", "--model", model, "--input", input, "--golden", golden,
                                      "--test_broken_pass", *(prepack - 1) + ":negate_const"});
  ASSERT_EQ(bisect.exit_code, 0) << bisect.Describe();
  EXPECT_NE(bisect.out.find("first bad pass: broken_negate_const"), std::string::npos) << bisect.out;

  ToolResult atc = Run("ge-atc", {"--model", model, "--framework", "5", "--output", Path("r18")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  ToolResult mem = Run("ge-dump", {"memory", "--model", Path("r18.om"), "--svg", Path("r18.svg")});
  ASSERT_EQ(mem.exit_code, 0) << mem.Describe();
  EXPECT_NE(mem.out.find("peak/lower bound"), std::string::npos);
  EXPECT_NE(ReadFileBytes(Path("r18.svg")).find("<g class=\"buffer\">"), std::string::npos);
}

}  // namespace
}  // namespace ge::test
