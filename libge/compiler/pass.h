// A pass is a named function on a graph; it knows nothing of timing, dumping
// or switches — the pass manager's instruments do that.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ge/compiler.h"
#include "ge/ir/graph.h"

namespace ge {

namespace hal {
class Device;
}

struct PlanState;  // planning/plan_stages.h

struct PassContext {
  hal::Device* device = nullptr;  // the target: what it supports, its layouts
  // Where the compiler evaluates constants itself (shape inference, folding):
  // a device whose memory the host reads.
  hal::Device* host = nullptr;
  const CompileOptions* options = nullptr;  // never null inside Compile()
  PlanState* plan = nullptr;  // the model being planned: set for the planning stages only
};

struct Pass {
  std::string name;
  std::string stage;  // prepare | optimize | fusion | layout | memory | streams | plan | tasks
  std::function<Status(Graph&, const PassContext&)> run;
  // Required passes (checks, shape inference, planning) cannot be switched
  // off: the model would not be runnable without them.
  bool required = true;
  // Fusion passes are the ones a fusion switch file may name.
  bool fusion = false;
  // Also run inside the subgraphs of control-flow nodes (If, Loop, Scan),
  // innermost first, before the graph itself: what a pass does to a graph it
  // does to a branch or a loop body too. Left false for the checks (they
  // look inside themselves), the IO and layout passes (a subgraph has no
  // model IO, and v2 runs it in plain layouts) and the partitioner.
  bool subgraphs = false;
};

// A switchable optimisation pass / a switchable fusion pass.
inline Pass OptionalPass(std::string name, std::string stage, std::function<Status(Graph&, const PassContext&)> run) {
  return Pass{std::move(name), std::move(stage), std::move(run), false, false};
}
inline Pass FusionPass(std::string name, std::function<Status(Graph&, const PassContext&)> run) {
  return Pass{std::move(name), "fusion", std::move(run), false, true};
}
// p, marked to run inside control-flow subgraphs too.
inline Pass InSubgraphsToo(Pass p) {
  p.subgraphs = true;
  return p;
}

class PassManager {
 public:
  using Instrument = std::function<void(const std::string& pass, const Graph& g)>;
  void Add(Pass p) { passes_.push_back(std::move(p)); }
  // Inserts p right after the pass named `after` ("" = at the front).
  Status InsertAfter(const std::string& after, Pass p);
  // Names must be switchable passes of this pipeline (error otherwise).
  Status Disable(const std::vector<std::string>& names);
  void set_verify_each_pass(bool v) { verify_ = v; }
  void set_after_pass(Instrument i) { after_ = std::move(i); }
  const std::vector<Pass>& passes() const { return passes_; }
  bool disabled(const std::string& name) const { return disabled_.count(name) != 0; }
  // Runs every enabled pass in order; a failing pass's status names it.
  Status Run(Graph& g, const PassContext& ctx) const;

 private:
  std::vector<Pass> passes_;
  std::set<std::string> disabled_;
  bool verify_ = false;
  Instrument after_;
};

// The full pipeline of Compile(), in order, before switches are applied.
PassManager BuildPipeline();

// The passes of each stage (libge/compiler/passes/).
Pass InsertAippPass();
Pass InsertIoCastsPass();
Pass InferShapesPass();
Pass CheckKnownOpsPass();
Pass CheckSupportPass();
Pass ShapeCheckPass();
Pass DynamicShapePartitionPass();
// The If / Loop nodes a static plan takes (--control_flow sink), as a test
// for partition::IsStaticGraph; null when every one stays in v2.
std::function<bool(const Node&)> StaticControlFlowTest(const PassContext& ctx);

}  // namespace ge
