// The optimize-pass tests' helpers on top of pass_test_util.h.
#pragma once

#include "compiler/passes/optimize_passes.h"
#include "pass_test_util.h"

namespace ge::test {

// The optimize passes this test suite is about.
inline std::vector<std::string> OptimizePassNames() { return StagePassNames("optimize"); }

inline int CountType(const Graph& g, const std::string& type) {
  int c = 0;
  for (Node* n : g.nodes()) c += n->type() == type;
  return c;
}

// The graph gives the same outputs with every optimize pass on and off.
inline void ExpectSameNumerics(const TinyGraph& t, const std::vector<Floats>& inputs, float tol = 1e-5f) {
  auto on = CompileAndRun(t.Clone(), inputs);
  ASSERT_TRUE(on.ok()) << on.status().message();
  auto off = CompileAndRun(t.Clone(), inputs, OptimizePassNames());
  ASSERT_TRUE(off.ok()) << off.status().message();
  ASSERT_EQ(on->outputs.size(), off->outputs.size());
  for (size_t j = 0; j < on->outputs.size(); ++j) {
    ASSERT_EQ(on->outputs[j].size(), off->outputs[j].size());
    for (size_t i = 0; i < on->outputs[j].size(); ++i)
      EXPECT_NEAR(on->outputs[j][i], off->outputs[j][i], tol) << "output " << j << " element " << i;
  }
}

}  // namespace ge::test
