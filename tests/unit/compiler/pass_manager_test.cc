// PassManager switches and the fusion switch file, on a pipeline built in the
// test (the real pipeline's passes change as passes are added).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compiler/pass.h"
#include "ge/compiler.h"

namespace ge {
namespace {

Pass Counting(const std::string& name, bool required, bool fusion, std::vector<std::string>& log) {
  Pass p{name, fusion ? "fusion" : "optimize",
         [&log, name](Graph&, const PassContext&) {
           log.push_back(name);
           return Status::Ok();
         },
         required, fusion};
  return p;
}

TEST(PassManager, DisabledPassesAreSkippedAndTheRestRunInOrder) {
  std::vector<std::string> log;
  PassManager pm;
  pm.Add(Counting("check", true, false, log));
  pm.Add(Counting("dce", false, false, log));
  pm.Add(Counting("fold_bn", false, true, log));
  ASSERT_TRUE(pm.Disable({"dce"}).ok());
  Graph g("g");
  ASSERT_TRUE(pm.Run(g, PassContext{}).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"check", "fold_bn"}));
}

TEST(PassManager, RequiredAndUnknownPassesCannotBeDisabled) {
  std::vector<std::string> log;
  PassManager pm;
  pm.Add(Counting("check", true, false, log));
  pm.Add(Counting("dce", false, false, log));
  Status s = pm.Disable({"check"});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'check' is required"), std::string::npos) << s.message();
  s = pm.Disable({"nope"});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unknown pass 'nope'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("dce"), std::string::npos) << "lists the switchable passes: " << s.message();
}

TEST(PassManager, InsertAfterPlacesThePassAndRejectsAnUnknownAnchor) {
  std::vector<std::string> log;
  PassManager pm;
  pm.Add(Counting("a", true, false, log));
  pm.Add(Counting("c", true, false, log));
  ASSERT_TRUE(pm.InsertAfter("a", Counting("b", false, false, log)).ok());
  ASSERT_TRUE(pm.InsertAfter("", Counting("first", false, false, log)).ok());
  EXPECT_FALSE(pm.InsertAfter("zzz", Counting("x", false, false, log)).ok());
  Graph g("g");
  ASSERT_TRUE(pm.Run(g, PassContext{}).ok());
  EXPECT_EQ(log, (std::vector<std::string>{"first", "a", "b", "c"}));
}

TEST(PassManager, AFailingPassStopsThePipeline) {
  std::vector<std::string> log;
  PassManager pm;
  pm.Add(Pass{"bad", "optimize", [](Graph&, const PassContext&) { return Internal("boom"); }, false, false});
  pm.Add(Counting("after", true, false, log));
  Graph g("g");
  Status s = pm.Run(g, PassContext{});
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(log.empty());
}

class FusionSwitchFile : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    path_ = (std::filesystem::temp_directory_path() / ("ge_fsw_" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path_) << text;
    return path_;
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

std::vector<std::string> FusionPassNames() {
  std::vector<std::string> out;
  for (const PassInfo& p : ListPasses())
    if (p.fusion) out.push_back(p.name);
  return out;
}

TEST_F(FusionSwitchFile, MissingFileAndBadJsonNameTheFile) {
  auto r = ReadFusionSwitchFile("/nonexistent/fs.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/fs.json"), std::string::npos);
  auto bad = ReadFusionSwitchFile(Write("{not json"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(path_), std::string::npos);
}

TEST_F(FusionSwitchFile, UnknownPassAndBadValueAreErrors) {
  auto r = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"NoSuchFusion":"off"}}})"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("NoSuchFusion"), std::string::npos);
  auto v = ReadFusionSwitchFile(Write(R"({"ALL":"maybe"})"));
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("\"on\" or \"off\""), std::string::npos);
}

TEST_F(FusionSwitchFile, NonFusionPassIsRejected) {
  auto r = ReadFusionSwitchFile(Write(R"({"infer_shapes":"off"})"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a fusion pass"), std::string::npos) << r.status().message();
}

TEST_F(FusionSwitchFile, AllOffSwitchesEveryFusionPassButTheOnesNamedOn) {
  const auto fusion = FusionPassNames();
  auto all_off = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"ALL":"off"}}})"));
  ASSERT_TRUE(all_off.ok()) << all_off.status().message();
  EXPECT_EQ(all_off->size(), fusion.size());
  if (fusion.empty()) GTEST_SKIP() << "the pipeline has no fusion pass yet";
  auto keep_one = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"ALL":"off",")" + fusion[0] +
                                             R"(":"on"}}})"));
  ASSERT_TRUE(keep_one.ok()) << keep_one.status().message();
  EXPECT_EQ(keep_one->size(), fusion.size() - 1);
  EXPECT_EQ(std::count(keep_one->begin(), keep_one->end(), fusion[0]), 0);
}

}  // namespace
}  // namespace ge
