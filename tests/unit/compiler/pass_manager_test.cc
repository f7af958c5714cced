// PassManager switches and the fusion switch file, on a pipeline built in the
// test (the real pipeline's passes change as passes are added).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compiler/pass.h"
#include "ge/compiler.h"
#include "tests/common/refusal.h"

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
  EXPECT_TRUE(Refused(s, StatusCode::kInvalidArgument, "'check' is required"));
  s = pm.Disable({"nope"});
  EXPECT_TRUE(Refused(s, StatusCode::kInvalidArgument, "unknown pass 'nope'"));
  EXPECT_NE(s.message().find("dce"), std::string::npos) << "lists the switchable passes: " << s.message();
}

TEST(PassManager, InsertAfterPlacesThePassAndRejectsAnUnknownAnchor) {
  std::vector<std::string> log;
  PassManager pm;
  pm.Add(Counting("a", true, false, log));
  pm.Add(Counting("c", true, false, log));
  ASSERT_TRUE(pm.InsertAfter("a", Counting("b", false, false, log)).ok());
  ASSERT_TRUE(pm.InsertAfter("", Counting("first", false, false, log)).ok());
  EXPECT_TRUE(Refused(pm.InsertAfter("zzz", Counting("x", false, false, log)), StatusCode::kInvalidArgument,
                      "no pass named 'zzz' to insert 'x' after"));
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
  EXPECT_TRUE(Refused(s, StatusCode::kInternal, "boom"));
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
  ASSERT_TRUE(Refused(r, StatusCode::kNotFound, "/nonexistent/fs.json"));
  auto bad = ReadFusionSwitchFile(Write("{not json"));
  ASSERT_TRUE(Refused(bad, StatusCode::kInvalidArgument, "not a JSON object"));
  EXPECT_NE(bad.status().message().find(path_), std::string::npos);
}

TEST_F(FusionSwitchFile, UnknownPassAndBadValueAreErrors) {
  auto r = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"NoSuchFusion":"off"}}})"));
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "NoSuchFusion"));
  auto v = ReadFusionSwitchFile(Write(R"({"ALL":"maybe"})"));
  ASSERT_TRUE(Refused(v, StatusCode::kInvalidArgument, "\"on\" or \"off\""));
}

TEST_F(FusionSwitchFile, NonFusionPassIsRejected) {
  auto r = ReadFusionSwitchFile(Write(R"({"infer_shapes":"off"})"));
  ASSERT_TRUE(Refused(r, StatusCode::kInvalidArgument, "not a fusion pass"));
}

TEST_F(FusionSwitchFile, AllOffSwitchesEveryFusionPassButTheOnesNamedOn) {
  const auto fusion = FusionPassNames();
  auto all_off = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"ALL":"off"}}})"));
  ASSERT_TRUE(all_off.ok()) << all_off.status().message();
  EXPECT_EQ(all_off->size(), fusion.size());
  ASSERT_FALSE(fusion.empty()) << "the pipeline lists no fusion pass";
  auto keep_one = ReadFusionSwitchFile(Write(R"({"Switch":{"GraphFusion":{"ALL":"off",")" + fusion[0] +
                                             R"(":"on"}}})"));
  ASSERT_TRUE(keep_one.ok()) << keep_one.status().message();
  EXPECT_EQ(keep_one->size(), fusion.size() - 1);
  EXPECT_EQ(std::count(keep_one->begin(), keep_one->end(), fusion[0]), 0);
}

}  // namespace
}  // namespace ge
