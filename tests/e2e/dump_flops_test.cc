// ge-dump flops as a user runs it: the table and JSON of a compiled .om and
// of the source model compiled on the spot, which agree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/common/tool_runner.h"

namespace ge::test {
namespace {

class DumpFlops : public TempDirTest {};

TEST_F(DumpFlops, JsonCountsEveryNodeAndSumsToTheTotal) {
  ToolResult atc = Run("ge-atc", {"--model", kTinyOnnx, "--framework", "5", "--output", Path("tiny")});
  ASSERT_EQ(atc.exit_code, 0) << atc.Describe();
  ToolResult r = Run("ge-dump", {"flops", "--model", Path("tiny.om"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  int64_t sum = 0, conv1 = -1;
  for (const auto& n : j["nodes"]) {
    ASSERT_FALSE(n["flops"].is_null()) << n.dump() << ": tiny_cnn's shapes are static";
    sum += n["flops"].get<int64_t>();
    if (n["name"] == "conv1") conv1 = n["flops"].get<int64_t>();
  }
  EXPECT_EQ(sum, j["flops"].get<int64_t>());
  EXPECT_TRUE(j["unknown"].empty());
  // conv1: [1,3,16,16] -> [1,8,16,16], 3x3: 2048 outputs of 27 multiply-adds, plus the bias
  // (and one per output for a fused Relu, when conv_post_ops fused it).
  EXPECT_GE(conv1, 2 * 2048 * 27 + 2048);
  EXPECT_LE(conv1, 2 * 2048 * 27 + 2 * 2048);

  // The source model compiled now gives the same counts as its .om.
  ToolResult onnx = Run("ge-dump", {"flops", "--model", kTinyOnnx, "--json"});
  ASSERT_EQ(onnx.exit_code, 0) << onnx.Describe();
  auto jo = nlohmann::json::parse(onnx.out, nullptr, false);
  ASSERT_FALSE(jo.is_discarded());
  EXPECT_EQ(jo["flops"], j["flops"]);
}

TEST_F(DumpFlops, TextHasTheNodesOpTypesAndTotal) {
  ToolResult r = Run("ge-dump", {"flops", "--model", kTinyOnnx});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.out.find("conv1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("op type"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" GFLOP in "), std::string::npos) << r.out;
}

TEST_F(DumpFlops, AMissingModelIsOneErrorLine) {
  ExpectOneErrorLine(Run("ge-dump", {"flops", "--model", Path("absent.om")}), "ge-dump", {"absent.om"});
}

}  // namespace
}  // namespace ge::test
