// prepare: every node must be known to the op registry and runnable by the
// backend. All failures are reported at once, one per node, so a user learns
// everything that is missing from one run.
#include <spdlog/spdlog.h>

#include "pass.h"
#include "partition/dynamic_shape_partitioner.h"
#include "ge/ops/op_registry.h"
#include "hal/device.h"
#include "ge/ops/kernel_spec.h"
#include "ge/plan/memory_limit.h"

namespace ge {
namespace {

Status Report(const std::vector<std::string>& problems) {
  if (problems.empty()) return Status::Ok();
  std::string msg = std::to_string(problems.size()) + " unsupported node" + (problems.size() > 1 ? "s" : "") + ": ";
  for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
  return Unsupported(msg);
}

// Control flow (If, Loop, Scan) runs its subgraphs node by node in v2:
// what must exist is every op inside, by type (their shapes are known per
// call only).
bool IsControlFlow(const Node& n) { return !n.subgraphs().empty() && n.type() != op::kPartitionedCall && n.type() != op::kGearCase; }

// Unknown op types of g and, inside control flow, of its subgraphs: all of
// them before shape inference (which also runs inside subgraphs) meets one.
void CollectUnknownOps(const Graph& g, const std::string& where, std::vector<std::string>& problems) {
  for (const Node* n : g.nodes()) {
    if (!OpRegistry::Global().Find(n->type())) problems.push_back(where + "node " + n->Label() + ": op type not supported");
    if (!IsControlFlow(*n)) continue;
    for (const auto& [name, sub] : n->subgraphs())
      if (sub) CollectUnknownOps(*sub, where + "node " + n->Label() + ", subgraph '" + name + "': ", problems);
  }
}

Status CheckKnownOps(Graph& g, const PassContext&) {
  std::vector<std::string> problems;
  CollectUnknownOps(g, "", problems);
  return Report(problems);
}

void CheckSubgraphOps(const Node& owner, const PassContext& ctx, std::vector<std::string>& problems) {
  for (const auto& [name, sub] : owner.subgraphs()) {
    if (!sub) continue;
    for (const Node* n : sub->nodes()) {
      if (IsStructuralNode(*n)) continue;
      const std::string where = "node " + owner.Label() + ", subgraph '" + name + "': node " + n->Label();
      if (!OpRegistry::Global().Find(n->type())) problems.push_back(where + ": op type not supported");
      else if (IsControlFlow(*n)) CheckSubgraphOps(*n, ctx, problems);
      else if (!ctx.device->kernels().HasOp(n->type())) problems.push_back(where + ": no kernel for op type " + n->type());
    }
  }
}

Status CheckSupport(Graph& g, const PassContext& ctx) {
  std::vector<std::string> problems;
  for (Node* n : g.nodes()) {
    if (IsStructuralNode(*n)) continue;
    if (!OpRegistry::Global().Find(n->type())) {
      problems.push_back("node " + n->Label() + ": op type not supported");
      continue;
    }
    if (IsControlFlow(*n)) {
      CheckSubgraphOps(*n, ctx, problems);
      continue;
    }
    // A node of unknown shape is asked again at run time, per shape (the v2
    // runtime's PrepareKernel, whose error names it); the backend's support
    // checks are for concrete shapes, so here only its op type is.
    if (partition::IsUnknownShapeNode(*n)) {
      if (!ctx.device->kernels().HasOp(n->type()))
        problems.push_back("node " + n->Label() + ": no kernel for op type " + n->type());
      continue;
    }
    // The backend's answer names the node already (hal/kernel.h).
    Status s = ctx.device->kernels().Supports(BuildKernelSpec(*n));
    if (!s.ok()) problems.push_back(s.message());
  }
  return Report(problems);
}

// Refuses, before any pass evaluates or folds them, tensors larger than the
// memory limit (a static f32[2^32,2^32] is too large, not dynamic). Unknown
// shapes pass: the partition stage gives them to the v2 runtime.
Status ShapeCheck(Graph& g, const PassContext& ctx) {
  const int64_t limit = EffectiveMemoryLimit(ctx.options->max_memory);
  int dynamic = 0;
  for (Node* n : g.nodes())
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      if (!n->output_desc(i).is_static()) {
        ++dynamic;
        continue;
      }
      GE_RETURN_IF_ERROR(CheckTensorSize(n->output_desc(i), "node " + n->Label() + " output " + std::to_string(i), limit));
    }
  if (dynamic) spdlog::info("shape check: {} tensor(s) of unknown shape: the model is dynamic", dynamic);
  return Status::Ok();
}

}  // namespace

Pass CheckKnownOpsPass() { return Pass{"check_known_ops", "prepare", CheckKnownOps}; }
Pass CheckSupportPass() { return Pass{"check_support", "prepare", CheckSupport}; }
Pass ShapeCheckPass() { return Pass{"shape_check", "prepare", ShapeCheck}; }

}  // namespace ge
