// Tiny graphs for the fusion-pass tests: build, infer, run one pass, and
// compile + run (v2) with the fusion passes on and off to compare numerics.
#pragma once

#include "compiler/passes/fusion_passes.h"
#include "pass_test_util.h"

namespace ge::fusion_test {

using test::CompileAndRun;
using test::Dims;
using test::F32;
using test::F32s;
using test::Floats;
using Tiny = test::TinyGraph;
using Run = test::RunResult;

inline Tensor Scalar(float v) { return Tensor::FromVector(DataType::kFloat32, {}, Floats{v}); }
// Deterministic values in [offset, offset + 10*scale].
inline Floats Pseudo(size_t n, float scale = 0.1f, float offset = -0.5f, size_t seed = 0) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 7 + seed * 3) % 11);
  return v;
}

inline std::vector<std::string> FusionPassNames() { return test::StagePassNames("fusion"); }

// Compiles with all fusion passes on and all off; same outputs (to tol
// relative to the largest value). Returns the op counts of the fused graph.
inline std::map<std::string, int> ExpectSameNumerics(const Tiny& t, const std::vector<Floats>& inputs,
                                                     float tol = 1e-5f) {
  auto on = CompileAndRun(t.Clone(), inputs);
  EXPECT_TRUE(on.ok()) << on.status().message();
  auto off = CompileAndRun(t.Clone(), inputs, FusionPassNames());
  EXPECT_TRUE(off.ok()) << off.status().message();
  if (!on.ok() || !off.ok()) return {};
  EXPECT_EQ(on->outputs.size(), off->outputs.size());
  for (size_t j = 0; j < on->outputs.size() && j < off->outputs.size(); ++j) {
    EXPECT_EQ(on->outputs[j].size(), off->outputs[j].size());
    float mx = 0;
    for (float v : off->outputs[j]) mx = std::max(mx, std::abs(v));
    for (size_t i = 0; i < on->outputs[j].size() && i < off->outputs[j].size(); ++i)
      EXPECT_NEAR(on->outputs[j][i], off->outputs[j][i], tol * std::max(1.f, mx)) << "output " << j << " element " << i;
  }
  return on->counts;
}

}  // namespace ge::fusion_test
