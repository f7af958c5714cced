// Test-only ops for the layout-conflict tests: the continuous and no-padding
// continuous inputs and outputs of the reference (3.3.1) that no CPU op of
// ge declares (Concat's continuous input aside), registered once in the
// global registry under names no model uses. Inference copies input 0's
// description to every output.
#pragma once

#include "compiler/memory_conflict/memory_conflict_passes.h"
#include "ge/analysis/layout_conflicts.h"
#include "ge/ops/memory_semantics.h"
#include "op_families.h"
#include "tests/unit/passes/pass_test_util.h"

namespace ge::test {

inline void RegisterLayoutTestOps() {
  static const bool once = [] {
    // The registry is built (non-const) once at first use and handed out
    // read-only; the tests add their ops before any graph uses them.
    OpRegistry& r = const_cast<OpRegistry&>(OpRegistry::Global());
    auto same = [](InferContext& ctx) -> Status {
      for (size_t o = 0; o < ctx.num_outputs(); ++o) ctx.output(o) = ctx.input(0);
      return Status::Ok();
    };
    r.Register(OpBuilder("TestContIn").Inputs(1, -1).Infer(same).ContinuousInput());
    r.Register(OpBuilder("TestNpContIn").Inputs(1, -1).Infer(same).NoPaddingContinuousInput());
    r.Register(OpBuilder("TestContOut").Inputs(1, 1).Outputs(2, 2).Infer(same).ContinuousOutput());
    r.Register(OpBuilder("TestNpContOut").Inputs(1, 1).Outputs(2, 2).Infer(same).NoPaddingContinuousOutput());
    // Views whose outputs are a continuous block: output i is input i's memory.
    OpDef view = OpBuilder("TestContOutView").Inputs(2, 2).Outputs(2, 2).Infer(same).ContinuousOutput();
    view.memory.reference_outputs = {0, 1};
    view.infer = [](InferContext& ctx) -> Status {
      for (size_t o = 0; o < ctx.num_outputs(); ++o) ctx.output(o) = ctx.input(o);
      return Status::Ok();
    };
    r.Register(view);
    OpDef npview = view;
    npview.type = "TestNpContOutView";
    npview.memory.continuous_output = false;
    npview.memory.nopadding_continuous_output = true;
    r.Register(npview);
    r.Register(OpBuilder("TestContOutView1").Inputs(1, 1).Infer(same).Reference().ContinuousOutput());
    return true;
  }();
  (void)once;
}

// The conflicts of g's own symbols.
inline std::vector<analysis::LayoutConflict> LayoutConflictsOf(const Graph& g, bool root = true) {
  auto s = analysis::MemorySymbols::Build(g);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? analysis::FindLayoutConflicts(*s, root) : std::vector<analysis::LayoutConflict>{};
}

// The conflicts a given rule (checker name or "always_conflict") reported.
inline std::vector<analysis::LayoutConflict> ByRule(const std::vector<analysis::LayoutConflict>& all,
                                                    const std::string& rule) {
  std::vector<analysis::LayoutConflict> out;
  for (const auto& c : all)
    if (c.checker == rule) out.push_back(c);
  return out;
}

inline std::string Dump(const std::vector<analysis::LayoutConflict>& all) {
  std::string s;
  for (const auto& c : all) s += c.Describe() + "\n";
  return s;
}

// A layout test graph: test ops registered, f32 [2, 3] tensors.
class LayoutGraph : public TinyGraph {
 public:
  LayoutGraph() { RegisterLayoutTestOps(); }
  Node* In(const std::string& name) { return Data(name, TensorDesc(DataType::kFloat32, {2, 3})); }
  Node* Weight(const std::string& name) {
    return Const(name, Tensor::FromVector<float>(DataType::kFloat32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  }
  // A node computing from x with memory of its own.
  Node* Relu(const std::string& name, Node* x, std::vector<std::pair<std::string, AttrValue>> attrs = {}) {
    return Op("Relu", name, {x}, std::move(attrs));
  }
  Status Edge(Node* src, int out, Node* dst, int in) { return g().AddEdge(src, out, dst, in); }
};

inline std::pair<std::string, AttrValue> InType(std::vector<int64_t> t) { return {"_input_memory_type", std::move(t)}; }
inline std::pair<std::string, AttrValue> OutType(std::vector<int64_t> t) { return {"_output_memory_type", std::move(t)}; }
inline std::pair<std::string, AttrValue> Unrefresh() { return {"_unsupported_address_refresh", true}; }

}  // namespace ge::test
