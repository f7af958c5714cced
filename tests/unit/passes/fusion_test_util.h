// Tiny graphs for the fusion-pass tests: build, infer, run one pass, and
// compile + run (v2) with the fusion passes on and off to compare numerics.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "compiler/passes/fusion_passes.h"
#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/ir/verifier.h"
#include "ge/runtime.h"
#include "hal/device.h"

namespace ge::fusion_test {

using Dims = std::vector<int64_t>;
using Floats = std::vector<float>;

inline TensorDesc F32(Dims d) { return TensorDesc(DataType::kFloat32, std::move(d)); }
inline Tensor F32s(Dims d, const Floats& v) { return Tensor::FromVector(DataType::kFloat32, std::move(d), v); }
inline Tensor Scalar(float v) { return Tensor::FromVector(DataType::kFloat32, {}, Floats{v}); }
// Deterministic values in [offset, offset + 10*scale].
inline Floats Pseudo(size_t n, float scale = 0.1f, float offset = -0.5f, size_t seed = 0) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 7 + seed * 3) % 11);
  return v;
}

inline std::vector<std::string> FusionPassNames() {
  return {"conv_bn_fold",       "gemm_bn_fold",  "layernorm_fusion", "gelu_fusion",
          "matmul_add_to_gemm", "conv_post_ops", "gemm_post_ops"};
}

class Tiny {
 public:
  Tiny() : g_(std::make_unique<Graph>("tiny")) {}
  Graph& g() { return *g_; }

  Node* Data(const std::string& name, TensorDesc d) {
    Node* n = g_->AddNode(op::kData, name, 0, 1);
    n->SetAttr("index", next_index_++);
    n->output_desc(0) = std::move(d);
    return n;
  }
  Node* Const(const std::string& name, Tensor t) {
    Node* n = g_->AddNode(op::kConst, name, 0, 1);
    n->output_desc(0) = t.desc();
    n->SetAttr("value", std::move(t));
    return n;
  }
  // inputs: producers' output 0 (nullptr leaves an optional input absent).
  Node* Op(const std::string& type, const std::string& name, const std::vector<Node*>& inputs,
           std::vector<std::pair<std::string, AttrValue>> attrs = {}, size_t num_outputs = 1) {
    Node* n = g_->AddNode(type, name, inputs.size(), num_outputs);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i]) EXPECT_TRUE(g_->AddEdge(inputs[i], 0, n, static_cast<int>(i)).ok());
    for (auto& [k, v] : attrs) n->SetAttr(k, std::move(v));
    return n;
  }
  Node* Output(const std::vector<Node*>& srcs) {
    Node* out = g_->AddNode(op::kNetOutput, "out", 0, 0);
    for (size_t i = 0; i < srcs.size(); ++i) EXPECT_TRUE(g_->AddEdge(srcs[i], 0, out, static_cast<int>(i)).ok());
    return out;
  }
  // Shape inference as the prepare stage runs it, then the pass, then the verifier.
  Status RunPass(const Pass& p) {
    Status s = InferShapesPass().run(*g_, Context());
    if (!s.ok()) return s;
    s = p.run(*g_, Context());
    if (!s.ok()) return s;
    return VerifyGraph(*g_);
  }
  int Count(const std::string& type) const {
    int c = 0;
    for (Node* n : g_->nodes()) c += n->type() == type;
    return c;
  }
  Node* Find(const std::string& type) const {
    for (Node* n : g_->nodes())
      if (n->type() == type) return n;
    return nullptr;
  }
  std::unique_ptr<Graph> Clone() const { return g_->Clone(); }

 private:
  PassContext Context() {
    PassContext ctx;
    ctx.device = &hal::CpuDevice();
    ctx.options = &options_;
    return ctx;
  }
  CompileOptions options_;
  std::unique_ptr<Graph> g_;
  int64_t next_index_ = 0;
};

struct Run {
  std::vector<Floats> outputs;
  std::map<std::string, int> counts;  // op counts of the compiled graph
};

// Compile (verifier after each pass) → load v2 → one run with f32 inputs.
inline Result<Run> CompileAndRun(std::unique_ptr<Graph> g, const std::vector<Floats>& inputs,
                                 std::vector<std::string> disabled = {}) {
  CompileOptions co;
  co.model_name = "tiny";
  co.verify_each_pass = true;
  co.disabled_passes = std::move(disabled);
  Run r;
  co.after_pass = [&r](const std::string&, const Graph& gr) {
    r.counts.clear();
    for (Node* n : gr.nodes()) ++r.counts[n->type()];
  };
  GE_ASSIGN_OR_RETURN(Model model, Compile(std::move(g), co));
  GE_ASSIGN_OR_RETURN(auto loaded, LoadModel(model, RunMode::kV2));
  std::vector<const void*> in;
  for (const Floats& f : inputs) in.push_back(f.data());
  std::vector<void*> out;
  r.outputs.resize(loaded->outputs().size());
  for (size_t j = 0; j < r.outputs.size(); ++j) {
    r.outputs[j].resize(static_cast<size_t>(loaded->outputs()[j].desc.NumElements()));
    out.push_back(r.outputs[j].data());
  }
  GE_RETURN_IF_ERROR(loaded->Execute(in, out));
  return r;
}

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
