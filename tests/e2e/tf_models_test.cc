// TensorFlow frozen graphs through the tools: tf_cnn.pb and tf_mlp.pb from
// GE_MODELS_DIR converted with ge-atc --framework 3 and run with ge-run
// --compare; ge-dump showing the NHWC model's only Transpose at the input;
// the --mode 3 pre-check on a graph with unsupported ops; bad .pb bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/tool_runner.h"
#include "tests/e2e/reference_model_fixture.h"
#include "tf_graph.pb.h"

namespace ge::test {
namespace {

class TfReferenceModelTest : public ReferenceModelParamFixture {
 protected:
  TfReferenceModelTest() : ReferenceModelParamFixture(".pb") {}
};

TEST_P(TfReferenceModelTest, ConvertsRunsAndMatchesTheGolden) {
  const std::string& name = name_;
  ToolResult atc = Run("ge-atc", {"--model", model_, "--framework", "3", "--output", Path(name)});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  ASSERT_TRUE(fs::exists(Path(name + ".om"))) << atc.Describe();
  ToolResult run = Run("ge-run", {"--model", Path(name + ".om"), "--input", input_, "--compare", golden_});
  EXPECT_EQ(run.exit_code, 0) << run.Describe();
  const auto lines = SplitLines(run.out);
  ASSERT_FALSE(lines.empty()) << run.Describe();
  EXPECT_EQ(lines.back(), "PASS") << run.Describe();
  EXPECT_EQ(run.out.find("FAIL"), std::string::npos) << run.Describe();
  for (const auto& l : lines)
    if (l.find("max abs diff") != std::string::npos) RecordProperty("compare", l);
}

INSTANTIATE_TEST_SUITE_P(Models, TfReferenceModelTest, ::testing::Values("tf_cnn", "tf_mlp"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

class TfToolsTest : public TempDirTest {};

// The layout acceptance on the real model: ge-dump of the converted tf_cnn
// shows one Transpose (NHWC → NCHW after the input); the convolutions, pools,
// concat and residual add run NCHW, and the global mean leaves [N,C], which
// needs no transpose back.
TEST_F(TfToolsTest, DumpOfTfCnnShowsTransposesOnlyAtTheBoundary) {
  const std::string pb = ModelsPath("tf_cnn.pb");
  GE_SKIP_IF_ABSENT(pb);
  ToolResult atc = Run("ge-atc", {"--model", pb, "--framework", "3", "--output", Path("tf_cnn")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  ToolResult dump = Run("ge-dump", {"--model", Path("tf_cnn.om")});
  ASSERT_EQ(dump.exit_code, 0) << dump.Describe();
  std::vector<std::string> transposes;
  int convs = 0;
  for (const auto& l : SplitLines(dump.out)) {
    if (l.find("= Transpose[") != std::string::npos) transposes.push_back(l);
    if (l.find("= Conv[") != std::string::npos) ++convs;
  }
  EXPECT_GE(convs, 1) << dump.out;
  ASSERT_EQ(transposes.size(), 1u) << dump.out;
  EXPECT_NE(transposes[0].find("(%input:0)"), std::string::npos) << transposes[0];
  EXPECT_NE(transposes[0].find("perm=[0,3,1,2]"), std::string::npos) << transposes[0];
}

// A graph whose outputs depend on two ops the parser does not map.
std::string BadModel() {
  tf::GraphDef g;
  auto node = [&](const std::string& op, const std::string& name, std::vector<std::string> inputs) {
    tf::NodeDef* n = g.add_node();
    n->set_op(op);
    n->set_name(name);
    for (auto& i : inputs) n->add_input(i);
    return n;
  };
  tf::NodeDef* x = node("Placeholder", "input", {});
  (*x->mutable_attr())["dtype"].set_type(tf::DT_FLOAT);
  auto* shape = (*x->mutable_attr())["shape"].mutable_shape();
  shape->add_dim()->set_size(1);
  shape->add_dim()->set_size(4);
  node("Relu", "relu", {"input"});
  node("Erfinv", "mystery/first", {"relu"});
  node("Bucketize", "mystery/second", {"mystery/first"});
  return g.SerializeAsString();
}

TEST_F(TfToolsTest, PrecheckListsEveryUnsupportedNodeAndConversionFailsWithTheSameList) {
  WriteFileBytes(Path("bad.pb"), BadModel());
  ToolResult check = Run("ge-atc", {"--mode", "3", "--model", Path("bad.pb"), "--framework", "3", "--json",
                                    Path("report.json")});
  ExpectOneErrorLine(check, "ge-atc", {"bad.pb", "mystery/first (Erfinv)", "mystery/second (Bucketize)"});
  // The readable summary on stdout names both, by op type and node name.
  EXPECT_NE(check.out.find("FAILED"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("2 unsupported nodes"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("Erfinv"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("mystery/second"), std::string::npos) << check.out;
  ASSERT_TRUE(fs::exists(Path("report.json")));
  const auto report = nlohmann::json::parse(ReadFileBytes(Path("report.json")));
  EXPECT_EQ(report["result"], "failed");
  EXPECT_EQ(report["framework"], "tensorflow");
  ASSERT_EQ(report["unsupported"].size(), 2u) << report.dump(2);
  EXPECT_EQ(report["unsupported"][0]["op_type"], "Erfinv");
  EXPECT_EQ(report["unsupported"][0]["node_name"], "mystery/first");
  EXPECT_EQ(report["unsupported"][1]["op_type"], "Bucketize");
  EXPECT_EQ(report["unsupported"][1]["node_name"], "mystery/second");

  ToolResult convert = Run("ge-atc", {"--model", Path("bad.pb"), "--framework", "3", "--output", Path("bad")});
  ExpectOneErrorLine(convert, "ge-atc", {"bad.pb", "mystery/first (Erfinv)", "mystery/second (Bucketize)"});
  EXPECT_TRUE(FilesEndingIn(dir_, {".om", ".tmp"}).empty());
}

TEST_F(TfToolsTest, PrecheckPassesOnASupportedModelAndWritesNextToOutput) {
  const std::string pb = ModelsPath("tf_cnn.pb");
  GE_SKIP_IF_ABSENT(pb);
  ToolResult check = Run("ge-atc", {"--mode", "3", "--model", pb, "--framework", "3", "--output", Path("m")});
  ASSERT_EQ(check.exit_code, 0) << check.Describe();
  EXPECT_NE(check.out.find("PASS"), std::string::npos) << check.out;
  const auto report = nlohmann::json::parse(ReadFileBytes(Path("m.precheck.json")));
  EXPECT_EQ(report["result"], "success");
  EXPECT_TRUE(report["unsupported"].empty());
  EXPECT_FALSE(fs::exists(Path("m.om")));  // a pre-check converts nothing to disk

  ToolResult no_report = Run("ge-atc", {"--mode", "3", "--model", pb, "--framework", "3"});
  ExpectOneErrorLine(no_report, "ge-atc", {"--json"});
}

TEST_F(TfToolsTest, BadPbBytesAreOneClearError) {
  WriteFileBytes(Path("garbage.pb"), std::string("\x0a\xff\xff\xff\xff garbage that is no GraphDef"));
  ToolResult r = Run("ge-atc", {"--model", Path("garbage.pb"), "--framework", "3", "--output", Path("g")});
  ExpectOneErrorLine(r, "ge-atc", {"garbage.pb", "not a TensorFlow GraphDef"});
  WriteFileBytes(Path("empty.pb"), "");
  ToolResult e = Run("ge-atc", {"--model", Path("empty.pb"), "--framework", "3", "--output", Path("e")});
  ExpectOneErrorLine(e, "ge-atc", {"empty.pb", "empty"});
  ToolResult c = Run("ge-atc", {"--mode", "3", "--model", Path("garbage.pb"), "--framework", "3", "--json",
                                Path("r.json")});
  ExpectOneErrorLine(c, "ge-atc", {"garbage.pb", "not a TensorFlow GraphDef"});
  EXPECT_TRUE(FilesEndingIn(dir_, {".om", ".tmp"}).empty());
}

}  // namespace
}  // namespace ge::test
