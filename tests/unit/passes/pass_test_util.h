// Tiny graphs for the pass tests: build, infer, run one pass, and compile +
// run (v2) with chosen passes switched off to compare numerics.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/pass.h"
#include "ge/compiler.h"
#include "ge/ir/graph.h"
#include "ge/ir/verifier.h"
#include "ge/runtime.h"
#include "hal/device.h"

namespace ge::test {

using Dims = std::vector<int64_t>;
using Floats = std::vector<float>;

inline TensorDesc F32(Dims d) { return TensorDesc(DataType::kFloat32, std::move(d)); }
inline Tensor F32s(Dims d, const Floats& v) { return Tensor::FromVector(DataType::kFloat32, std::move(d), v); }
inline Tensor I64s(const std::vector<int64_t>& v) {
  return Tensor::FromVector(DataType::kInt64, {static_cast<int64_t>(v.size())}, v);
}
inline Floats Iota(size_t n, float scale = 0.25f, float offset = -1.f) {
  Floats v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>((i * 7) % 11);
  return v;
}

class TinyGraph {
 public:
  TinyGraph() : g_(std::make_unique<Graph>("tiny")) {}
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
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]) {
        EXPECT_TRUE(g_->AddEdge(inputs[i], 0, n, static_cast<int>(i)).ok());
      }
    }
    for (auto& [k, v] : attrs) n->SetAttr(k, std::move(v));
    return n;
  }
  // NetOutput over the given producers; names are optional (without them
  // the model's outputs take the producers' names).
  Node* Output(const std::vector<Node*>& srcs, std::vector<std::string> names = {}) {
    Node* out = g_->AddNode(op::kNetOutput, "out", 0, 0);
    for (size_t i = 0; i < srcs.size(); ++i) EXPECT_TRUE(g_->AddEdge(srcs[i], 0, out, static_cast<int>(i)).ok());
    if (!names.empty()) out->SetAttr("output_names", names);
    return out;
  }
  // Shape inference, as the prepare stage runs it.
  Status Infer() { return InferShapesPass().run(*g_, Context()); }
  // Infers, runs one pass, then verifies the graph.
  Status RunPass(const Pass& p) {
    Status s = Infer();
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
  CompileOptions options;
  std::string device;  // the passes' device by registered name; the default device when empty

 private:
  PassContext Context() {
    PassContext ctx;
    auto d = hal::GetDevice(device);
    EXPECT_TRUE(d.ok()) << d.status().ToString();
    ctx.device = d.ok() ? *d : nullptr;
    auto host = hal::GetHostDevice();
    ctx.host = host.ok() ? *host : nullptr;
    ctx.options = &options;
    return ctx;
  }
  std::unique_ptr<Graph> g_;
  int64_t next_index_ = 0;
};

// The switchable passes of one stage of the real pipeline, in order.
inline std::vector<std::string> StagePassNames(const std::string& stage) {
  std::vector<std::string> out;
  for (const PassInfo& p : ListPasses())
    if (!p.required && p.stage == stage) out.push_back(p.name);
  return out;
}

struct RunResult {
  Model model;
  std::vector<Floats> outputs;  // f32 outputs
  std::map<std::string, int> counts;  // op counts of the compiled graph
};

// Compile with `co` (verifier after each pass) → load v2 → one run with f32 inputs.
inline Result<RunResult> CompileAndRunWith(std::unique_ptr<Graph> g, const std::vector<Floats>& inputs,
                                           CompileOptions co) {
  co.model_name = "tiny";
  co.verify_each_pass = true;
  GE_ASSIGN_OR_RETURN(Model model, Compile(std::move(g), co));
  RunResult r;
  for (Node* n : model.graph->nodes()) ++r.counts[n->type()];
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
  r.model = std::move(model);
  return r;
}

inline Result<RunResult> CompileAndRun(std::unique_ptr<Graph> g, const std::vector<Floats>& inputs,
                                       std::vector<std::string> disabled = {}, const std::string& device = "") {
  CompileOptions co;
  co.device = device;
  co.disabled_passes = std::move(disabled);
  return CompileAndRunWith(std::move(g), inputs, std::move(co));
}

}  // namespace ge::test
