// The JSON form: valid JSON that says what the text form says, the same
// bytes for the same graph (clones, repeated calls, insertion order of
// independent nodes), and a change for every change that matters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "ge/ir/json_form.h"
#include "ge/ir/text_form.h"
#include "tests/unit/dump/dump_test_graphs.h"

namespace ge::tools::test {
namespace {

using nlohmann::json;

TEST(JsonForm, DescribesNodesAttrsInputsAndOutputs) {
  auto g = SubReluGraph();
  const json j = json::parse(GraphToJson(*g));
  EXPECT_EQ(j["graph"], "sub_relu");
  ASSERT_EQ(j["nodes"].size(), 5u);
  // Topological order, as in the text form: sources first, NetOutput last.
  EXPECT_EQ(j["nodes"][0]["name"], "x");
  EXPECT_EQ(j["nodes"][4]["type"], "NetOutput");
  const json& sub = j["nodes"][2];
  EXPECT_EQ(sub["name"], "sub");
  EXPECT_EQ(sub["inputs"][0], (json{{"node", "x"}, {"output", 0}}));
  EXPECT_EQ(sub["inputs"][1], (json{{"node", "c"}, {"output", 0}}));
  EXPECT_EQ(j["nodes"][0]["attrs"]["index"], (json{{"int", 0}}));
  EXPECT_EQ(j["nodes"][0]["outputs"][0]["shape"], (json{2, 3}));
  EXPECT_EQ(j["nodes"][0]["outputs"][0]["dtype"], "f32");
  const json& t = j["nodes"][1]["attrs"]["value"]["tensor"];
  EXPECT_EQ(t["bytes"], 24);
  EXPECT_EQ(t["values"], (json{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(t["sha256"].get<std::string>().size(), 64u);
}

TEST(JsonForm, RoundTripThroughAParserIsStable) {
  auto g = SubReluGraph();
  const std::string text = GraphToJson(*g);
  // Parse and print again with our layout: nothing is lost or reordered.
  const json j = json::parse(text);
  EXPECT_EQ(json::parse(text), j);
  EXPECT_EQ(GraphToJson(*g), text) << "two calls differ";
  EXPECT_EQ(GraphToJson(*g->Clone()), text) << "a clone differs";
  // One node per line: 5 nodes, the header and the closing line.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 7);
}

TEST(JsonForm, ControlEdgesAbsentInputsAndNonFiniteFloats) {
  auto g = SubReluGraph();
  Node* relu = g->FindNode("relu");
  g->AddControlEdge(g->FindNode("c"), relu);
  relu->SetAttr("alpha", std::numeric_limits<float>::infinity());
  relu->SetAttr("list", std::vector<float>{std::nanf(""), 1.5f});
  Node* pad = g->AddNode("Pad", "pad", 3, 1);  // inputs 1, 2 unconnected
  ASSERT_TRUE(g->AddEdge(g->FindNode("x"), 0, pad, 0).ok());
  const json j = json::parse(GraphToJson(*g));
  json r, p;
  for (const json& n : j["nodes"]) {
    if (n["name"] == "relu") r = n;
    if (n["name"] == "pad") p = n;
  }
  EXPECT_EQ(r["control_inputs"], (json{"c"}));
  EXPECT_EQ(r["attrs"]["alpha"], (json{{"float", "inf"}}));
  EXPECT_EQ(r["attrs"]["list"]["floats"][0], "nan");
  EXPECT_TRUE(p["inputs"][1].is_null());
  // Attributes sorted by name, whatever order they were set in.
  std::vector<std::string> keys;
  for (auto it = r["attrs"].begin(); it != r["attrs"].end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"alpha", "list"}));
}

TEST(JsonForm, AttributeOrderOfSettingDoesNotMatter) {
  auto a = SubReluGraph(), b = SubReluGraph();
  a->FindNode("sub")->SetAttr("k1", int64_t{1});
  a->FindNode("sub")->SetAttr("k2", std::string("s"));
  b->FindNode("sub")->SetAttr("k2", std::string("s"));
  b->FindNode("sub")->SetAttr("k1", int64_t{1});
  EXPECT_EQ(GraphToJson(*a), GraphToJson(*b));
}

TEST(JsonForm, ChangedConstantValueChangesTheDigest) {
  auto a = SubReluGraph(), b = SubReluGraph();
  std::vector<float> v(100, 1.f);
  a->FindNode("c")->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {100}, v));
  v[99] = 2.f;
  b->FindNode("c")->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {100}, v));
  EXPECT_NE(GraphToJson(*a), GraphToJson(*b));
  // The text form shows only a large tensor's description; the JSON's digest tells them apart.
  EXPECT_EQ(GraphToText(*a), GraphToText(*b));
}

TEST(JsonForm, LargeTensorsAreDescribedNotCopied) {
  auto g = SubReluGraph();
  std::vector<float> big(1000, 0.5f);
  g->FindNode("c")->SetAttr("value", Tensor::FromVector(DataType::kFloat32, {1000}, big));
  const std::string text = GraphToJson(*g);
  EXPECT_LT(text.size(), 2000u);
  const json j = json::parse(text);
  EXPECT_FALSE(j["nodes"][1]["attrs"]["value"]["tensor"].contains("values"));
}

}  // namespace
}  // namespace ge::tools::test
