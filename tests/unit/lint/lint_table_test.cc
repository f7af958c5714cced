// The lint table: every code's letter matches its severity (E error,
// W warning, N note), codes are unique, every row has a title, and
// docs/lint.md documents each code under a "### CODE" heading.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "ge/lint/lint.h"

namespace ge::lint {
namespace {

TEST(LintTable, CodeLettersMatchSeverities) {
  const std::vector<Rule> rules = Rules();
  ASSERT_FALSE(rules.empty());
  std::set<std::string> seen;
  for (const Rule& r : rules) {
    SCOPED_TRACE(r.code);
    ASSERT_EQ(r.code.size(), 6u);
    const char want = r.severity == Severity::kError ? 'E' : r.severity == Severity::kWarning ? 'W' : 'N';
    EXPECT_EQ(r.code[0], want) << "code letter and severity disagree";
    EXPECT_TRUE(seen.insert(r.code).second) << "code listed twice";
    EXPECT_FALSE(r.title.empty());
    EXPECT_EQ(r.title.find('\n'), std::string::npos) << "a title is one line";
  }
  for (const char* code : {"E18001", "E18002", "E18003", "E18004", "W18888"}) EXPECT_TRUE(seen.count(code)) << code;
  EXPECT_EQ(GraphChecks().size() + PlanChecks().size(), rules.size());
}

TEST(LintTable, DocsHaveASectionPerCode) {
  std::ifstream in(std::string(GE_SOURCE_DIR) + "/docs/lint.md");
  ASSERT_TRUE(in) << "docs/lint.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = "\n" + ss.str();
  for (const Rule& r : Rules()) EXPECT_NE(doc.find("\n### " + r.code + "\n"), std::string::npos) << "no '### " << r.code << "' in docs/lint.md";
}

// The runner stamps the table's code and severity over whatever a check set.
TEST(LintTable, TheRunnerStampsCodeAndSeverity) {
  Graph g("g");
  Node* out = g.AddNode(op::kNetOutput, "out", 0, 0);
  g.AddNode(op::kNetOutput, "out2", 0, 0);  // two NetOutputs: E18001
  (void)out;
  const Diagnostics d = LintGraph(g);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].code, "E18001");
  EXPECT_EQ(d[0].severity, Severity::kError);
  EXPECT_EQ(CountAtLeast(d, Severity::kError), d.size());
}

}  // namespace
}  // namespace ge::lint
