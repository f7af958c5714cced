// Parse helpers shared by the parser tests: every graph that parses is also
// run through the IR verifier.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ge/ir/graph.h"
#include "ge/ir/verifier.h"
#include "ge_parsers/onnx_parser.h"
#include "onnx_model_builder.h"

namespace ge::test {

inline Result<std::unique_ptr<Graph>> ParseModel(const OnnxModelBuilder& b, const ParseOptions& opts = {},
                                                 const std::string& origin = "test.onnx") {
  return ParseOnnxBytes(b.Bytes(), opts, origin);
}

// Parses, and fails the test (returning nullptr) unless parsing and the
// verifier both succeed.
inline std::unique_ptr<Graph> ParseAndVerify(const OnnxModelBuilder& b, const ParseOptions& opts = {}) {
  auto r = ParseModel(b, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return nullptr;
  Status v = VerifyGraph(*r.value());
  EXPECT_TRUE(v.ok()) << v.ToString();
  return std::move(r).value();
}

inline std::vector<std::string> NodeNames(const Graph& g) {
  std::vector<std::string> out;
  for (Node* n : g.nodes()) out.push_back(n->name());
  return out;
}

inline std::map<std::string, int> TypeCounts(const Graph& g) {
  std::map<std::string, int> out;
  for (Node* n : g.nodes()) ++out[n->type()];
  return out;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace ge::test
