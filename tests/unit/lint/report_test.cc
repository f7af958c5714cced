// ge-lint's reports: the text lines, the JSON object, and a SARIF log with
// every property the SARIF 2.1.0 schema requires, of the right type.
#include <gtest/gtest.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "ge/lint/lint.h"
#include "ge/lint/report.h"

namespace ge::lint {
namespace {

Diagnostics Findings() {
  Diagnostics d;
  d.push_back({"W18888", Severity::kWarning, "", {"assign", "reader"}, "assign writes var:0, reader reads it"});
  d.push_back({"E18003", Severity::kError, "part0", {"a", "b"}, "tensor a:0 and tensor b:0 overlap"});
  d.push_back({"E18001", Severity::kError, "", {}, "two NetOutput nodes"});
  return d;
}

ReportInfo Info() {
  ReportInfo info;
  info.version = ToolVersion();
  info.file = "cases/my model.ge";
  info.root_graph = "main";
  return info;
}

TEST(LintReport, TextHasOneLinePerFindingAndCounts) {
  const std::string t = TextReport(Info(), Findings());
  EXPECT_EQ(t,
            "cases/my model.ge: warning W18888 [main] assign,reader: assign writes var:0, reader reads it\n"
            "cases/my model.ge: error E18003 [part0] a,b: tensor a:0 and tensor b:0 overlap\n"
            "cases/my model.ge: error E18001 [main] -: two NetOutput nodes\n"
            "cases/my model.ge: 2 errors, 1 warning, 0 notes\n");
}

TEST(LintReport, JsonHasToolFileFindingsAndCounts) {
  const auto j = nlohmann::json::parse(JsonReport(Info(), Findings()));
  EXPECT_EQ(j["tool"], "ge-lint");
  EXPECT_EQ(j["version"], ToolVersion());
  EXPECT_EQ(j["file"], "cases/my model.ge");
  ASSERT_EQ(j["findings"].size(), 3u);
  EXPECT_EQ(j["findings"][0]["code"], "W18888");
  EXPECT_EQ(j["findings"][0]["severity"], "warning");
  EXPECT_EQ(j["findings"][0]["nodes"], nlohmann::json::array({"assign", "reader"}));
  EXPECT_EQ(j["findings"][1]["graph"], "part0");
  EXPECT_FALSE(j["findings"][0]["title"].get<std::string>().empty());
  EXPECT_EQ(j["counts"]["error"], 2);
  EXPECT_EQ(j["counts"]["warning"], 1);
  EXPECT_EQ(j["counts"]["note"], 0);
}

// The SARIF 2.1.0 schema's required properties and types, checked by hand
// (sarif-schema-2.1.0.json: sarifLog, run, tool, toolComponent,
// reportingDescriptor, result, message, location, physicalLocation,
// artifactLocation, logicalLocation).
// Returns the first violation, "" when none.
std::string SarifShapeProblem(const nlohmann::json& log) {
#define REQUIRE(cond, what) \
  if (!(cond)) return what
  REQUIRE(log.is_object(), "sarifLog is not an object");
  REQUIRE(log.contains("version") && log["version"].is_string(), "sarifLog.version missing");
  REQUIRE(log["version"] == "2.1.0", "sarifLog.version is not 2.1.0");
  REQUIRE(!log.contains("$schema") || log["$schema"].is_string(), "$schema is not a string");
  REQUIRE(log.contains("runs") && log["runs"].is_array(), "sarifLog.runs missing");
  for (const auto& run : log["runs"]) {
    REQUIRE(run.is_object(), "run is not an object");
    REQUIRE(run.contains("tool") && run["tool"].is_object(), "run.tool missing");
    REQUIRE(run["tool"].contains("driver") && run["tool"]["driver"].is_object(), "tool.driver missing");
    const auto& driver = run["tool"]["driver"];
    REQUIRE(driver.contains("name") && driver["name"].is_string(), "driver.name missing");
    REQUIRE(!driver.contains("informationUri") || driver["informationUri"].is_string(), "driver.informationUri not a string");
    size_t num_rules = 0;
    if (driver.contains("rules")) {
      REQUIRE(driver["rules"].is_array(), "driver.rules is not an array");
      num_rules = driver["rules"].size();
      for (const auto& rule : driver["rules"]) {
        REQUIRE(rule.contains("id") && rule["id"].is_string(), "reportingDescriptor.id missing");
        REQUIRE(!rule.contains("shortDescription") ||
                    (rule["shortDescription"].contains("text") && rule["shortDescription"]["text"].is_string()),
                "shortDescription.text missing");
        REQUIRE(!rule.contains("helpUri") || rule["helpUri"].is_string(), "helpUri not a string");
      }
    }
    if (!run.contains("results")) continue;
    REQUIRE(run["results"].is_array(), "run.results is not an array");
    for (const auto& r : run["results"]) {
      REQUIRE(r.is_object() && r.contains("message") && r["message"].is_object(), "result.message missing");
      REQUIRE((r["message"].contains("text") && r["message"]["text"].is_string()) ||
                  (r["message"].contains("id") && r["message"]["id"].is_string()),
              "message has neither text nor id");
      REQUIRE(!r.contains("ruleId") || r["ruleId"].is_string(), "ruleId not a string");
      if (r.contains("ruleIndex")) {
        REQUIRE(r["ruleIndex"].is_number_integer() && r["ruleIndex"].get<int64_t>() >= 0 &&
                    r["ruleIndex"].get<size_t>() < num_rules,
                "ruleIndex out of range");
        REQUIRE(driver["rules"][r["ruleIndex"].get<size_t>()]["id"] == r["ruleId"], "ruleIndex names another rule");
      }
      if (r.contains("level")) {
        REQUIRE(r["level"].is_string(), "level not a string");
        const std::string level = r["level"];
        REQUIRE(level == "none" || level == "note" || level == "warning" || level == "error", "bad level " + level);
      }
      if (!r.contains("locations")) continue;
      REQUIRE(r["locations"].is_array(), "locations not an array");
      for (const auto& loc : r["locations"]) {
        REQUIRE(loc.is_object(), "location not an object");
        if (loc.contains("physicalLocation")) {
          const auto& p = loc["physicalLocation"];
          // physicalLocation: anyOf address / artifactLocation.
          REQUIRE(p.is_object() && (p.contains("artifactLocation") || p.contains("address")),
                  "physicalLocation has neither artifactLocation nor address");
          REQUIRE(!p.contains("artifactLocation") || p["artifactLocation"].is_object(), "artifactLocation not an object");
          REQUIRE(!p.contains("artifactLocation") || !p["artifactLocation"].contains("uri") ||
                      p["artifactLocation"]["uri"].is_string(),
                  "artifactLocation.uri not a string");
        }
        if (loc.contains("logicalLocations")) {
          REQUIRE(loc["logicalLocations"].is_array(), "logicalLocations not an array");
          for (const auto& l : loc["logicalLocations"]) {
            REQUIRE(l.is_object(), "logicalLocation not an object");
            for (const char* k : {"name", "fullyQualifiedName", "kind"})
              REQUIRE(!l.contains(k) || l[k].is_string(), std::string("logicalLocation.") + k + " not a string");
          }
        }
      }
    }
  }
#undef REQUIRE
  return "";
}

TEST(LintReport, SarifHasTheShapeTheSchemaRequires) {
  const auto log = nlohmann::json::parse(SarifReport(Info(), Findings()));
  EXPECT_EQ(SarifShapeProblem(log), "");
  ASSERT_EQ(log["runs"].size(), 1u);
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "ge-lint");
  const auto& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), Rules().size());
  for (size_t i = 0; i < rules.size(); ++i) {
    EXPECT_EQ(rules[i]["id"], Rules()[i].code);
    EXPECT_EQ(rules[i]["helpUri"], "docs/lint.md#" + std::string(1, static_cast<char>(std::tolower(Rules()[i].code[0]))) +
                                       Rules()[i].code.substr(1));
  }
  const auto& results = run["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["ruleId"], "W18888");
  EXPECT_EQ(results[0]["level"], "warning");
  EXPECT_EQ(results[1]["level"], "error");
  EXPECT_EQ(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "cases/my%20model.ge");
  const auto& logical = results[0]["locations"][0]["logicalLocations"];
  ASSERT_EQ(logical.size(), 2u);
  EXPECT_EQ(logical[0]["name"], "assign");
  EXPECT_EQ(logical[0]["fullyQualifiedName"], "main/assign");
  EXPECT_EQ(results[1]["locations"][0]["logicalLocations"][1]["fullyQualifiedName"], "part0/b");
}

// The shape check itself fails on a log that misses what the schema requires.
TEST(LintReport, TheSarifShapeCheckCatchesMissingProperties) {
  auto log = nlohmann::json::parse(SarifReport(Info(), Findings()));
  EXPECT_EQ(SarifShapeProblem(log), "");
  auto no_message = log;
  no_message["runs"][0]["results"][0].erase("message");
  EXPECT_EQ(SarifShapeProblem(no_message), "result.message missing");
  auto no_driver_name = log;
  no_driver_name["runs"][0]["tool"]["driver"].erase("name");
  EXPECT_EQ(SarifShapeProblem(no_driver_name), "driver.name missing");
  auto bad_index = log;
  bad_index["runs"][0]["results"][0]["ruleIndex"] = 99;
  EXPECT_EQ(SarifShapeProblem(bad_index), "ruleIndex out of range");
  auto no_version = log;
  no_version.erase("version");
  EXPECT_EQ(SarifShapeProblem(no_version), "sarifLog.version missing");
}

}  // namespace
}  // namespace ge::lint
