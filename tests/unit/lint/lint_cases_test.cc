// The lint repro set: one test case per tests/lint/*.ge, checking the
// expectations its comment lines state (format: tests/lint/README.md).
//   # expect: clean                      GraphLint (LintGraph) finds nothing
//   # expect: CODE nodes=a,b             a finding CODE whose nodes include a and b
//                                        (one line per finding; together they are all of them)
//   # expect-inserted: none | T=N, ...   compiled: the copies the memory-conflict passes insert
//                                        (nodes marked _memory_isolation), by type; unlisted types 0
//   # expect-compiled: T=N, ...          compiled: how many nodes of type T the graph has
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "ge/compiler.h"
#include "ge/ir/text_parse.h"
#include "ge/lint/lint.h"
#include "ge/ops/memory_semantics.h"

namespace ge::lint {
namespace {

namespace fs = std::filesystem;

const std::string kCaseDir = std::string(GE_SOURCE_DIR) + "/tests/lint";

std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCaseDir, ec))
    if (e.path().extension() == ".ge") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

struct ExpectedFinding {
  std::string code;
  std::vector<std::string> nodes;
};

struct Expectations {
  bool lint = false;  // any "# expect:" line
  std::vector<ExpectedFinding> findings;
  bool inserted = false;
  std::map<std::string, int> inserted_by_type;
  std::map<std::string, int> compiled_by_type;
  std::vector<std::string> errors;  // lines the harness does not understand
};

std::string Trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!Trim(item).empty()) out.push_back(Trim(item));
  return out;
}

// "Identity=1, Assign=2" (or "none") into counts.
bool ParseCounts(const std::string& text, std::map<std::string, int>* out) {
  if (text == "none") return true;
  for (const std::string& item : Split(text, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) return false;
    try {
      (*out)[Trim(item.substr(0, eq))] = std::stoi(item.substr(eq + 1));
    } catch (...) {
      return false;
    }
  }
  return true;
}

Expectations ParseExpectations(const std::string& text) {
  Expectations ex;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    line = Trim(line);
    if (line.rfind("#", 0) != 0) continue;
    line = Trim(line.substr(1));
    if (line.rfind("expect", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      ex.errors.push_back(line);
      continue;
    }
    const std::string key = Trim(line.substr(0, colon));
    const std::string value = Trim(line.substr(colon + 1));
    if (key == "expect") {
      ex.lint = true;
      if (value == "clean") continue;
      std::stringstream vs(value);
      ExpectedFinding f;
      vs >> f.code;
      std::string word;
      while (vs >> word) {
        if (word.rfind("nodes=", 0) == 0) f.nodes = Split(word.substr(6), ',');
        else ex.errors.push_back(line);
      }
      if (f.code.size() != 6) ex.errors.push_back(line);
      ex.findings.push_back(f);
    } else if (key == "expect-inserted") {
      ex.inserted = true;
      if (!ParseCounts(value, &ex.inserted_by_type)) ex.errors.push_back(line);
    } else if (key == "expect-compiled") {
      if (!ParseCounts(value, &ex.compiled_by_type)) ex.errors.push_back(line);
    } else {
      ex.errors.push_back(line);
    }
  }
  return ex;
}

bool Covers(const Diagnostic& d, const ExpectedFinding& f) {
  if (d.code != f.code) return false;
  for (const std::string& n : f.nodes)
    if (std::find(d.nodes.begin(), d.nodes.end(), n) == d.nodes.end()) return false;
  return true;
}

std::string Describe(const Diagnostics& d) {
  std::string s;
  for (const Diagnostic& x : d) {
    s += "  " + x.code + " [";
    for (const std::string& n : x.nodes) s += n + " ";
    s += "] " + x.message + "\n";
  }
  return s.empty() ? "  (none)\n" : s;
}

void CountNodes(const Graph& g, std::map<std::string, int>* all, std::map<std::string, int>* isolation) {
  for (const Node* n : g.nodes()) {
    ++(*all)[n->type()];
    if (n->GetBool(kAttrMemoryIsolation, false)) ++(*isolation)[n->type()];
    for (const auto& [k, sub] : n->subgraphs())
      if (sub) CountNodes(*sub, all, isolation);
  }
}

class LintCase : public ::testing::TestWithParam<std::string> {};

TEST_P(LintCase, MeetsItsExpectations) {
  const std::string path = kCaseDir + "/" + GetParam();
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  const Expectations ex = ParseExpectations(ss.str());
  for (const std::string& e : ex.errors) ADD_FAILURE() << path << ": cannot read the expectation '" << e << "'";
  ASSERT_TRUE(ex.lint || ex.inserted || !ex.compiled_by_type.empty())
      << path << " states no expectation (# expect: ..., # expect-inserted: ...)";
  auto graph = ParseGraphText(ss.str(), path);
  ASSERT_TRUE(graph.ok()) << graph.status().ToString();

  if (ex.lint) {
    const Diagnostics d = LintGraph(**graph);
    std::vector<bool> used(d.size(), false);
    for (const ExpectedFinding& f : ex.findings) {
      bool found = false;
      for (size_t i = 0; i < d.size() && !found; ++i)
        if (!used[i] && Covers(d[i], f)) used[i] = found = true;
      std::string nodes;
      for (const auto& n : f.nodes) nodes += n + " ";
      EXPECT_TRUE(found) << path << ": expected " << f.code << " naming " << nodes << "; found:\n" << Describe(d);
    }
    EXPECT_EQ(d.size(), ex.findings.size()) << path << ": findings:\n" << Describe(d);
  }

  if (ex.inserted || !ex.compiled_by_type.empty()) {
    CompileOptions options;
    options.model_name = fs::path(path).stem().string();
    options.verify_each_pass = true;
    auto model = Compile(std::move(graph).value(), options);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    std::map<std::string, int> all, isolation;
    CountNodes(*model->graph, &all, &isolation);
    if (ex.inserted) {
      EXPECT_EQ(isolation, ex.inserted_by_type) << path << ": the copies the memory-conflict passes inserted differ";
    }
    for (const auto& [type, count] : ex.compiled_by_type)
      EXPECT_EQ(all[type], count) << path << ": " << type << " nodes in the compiled graph";
  }
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = fs::path(info.param).stem().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Repro, LintCase, ::testing::ValuesIn(CaseFiles()), CaseName);

// The set is there (an empty glob would silently test nothing) and covers
// each kind of expectation.
TEST(LintCases, TheReproSetIsThere) {
  const auto files = CaseFiles();
  EXPECT_GE(files.size(), 15u) << kCaseDir;
}

// The expectation parser rejects what it does not understand.
TEST(LintCases, UnknownExpectationsAreErrors) {
  EXPECT_FALSE(ParseExpectations("# expect-typo: 1\n").errors.empty());
  EXPECT_FALSE(ParseExpectations("# expect: W18888 node=a\n").errors.empty());
  EXPECT_FALSE(ParseExpectations("# expect-inserted: Identity\n").errors.empty());
  const Expectations ok = ParseExpectations("# expect: W18888 nodes=a,b\n# expect-inserted: Identity=2, MemcpyAsync=1\n");
  EXPECT_TRUE(ok.errors.empty());
  ASSERT_EQ(ok.findings.size(), 1u);
  EXPECT_EQ(ok.findings[0].nodes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ok.inserted_by_type, (std::map<std::string, int>{{"Identity", 2}, {"MemcpyAsync", 1}}));
}

}  // namespace
}  // namespace ge::lint
