// prepare: every node must be known to the op registry and runnable by the
// backend. All failures are reported at once, one per node, so a user learns
// everything that is missing from one run.
#include "pass.h"
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

Status CheckKnownOps(Graph& g, const PassContext&) {
  std::vector<std::string> problems;
  for (Node* n : g.nodes())
    if (!OpRegistry::Global().Find(n->type())) problems.push_back("node " + n->Label() + ": op type not supported");
  return Report(problems);
}

Status CheckSupport(Graph& g, const PassContext& ctx) {
  std::vector<std::string> problems;
  for (Node* n : g.nodes()) {
    if (IsStructuralNode(*n)) continue;
    if (!OpRegistry::Global().Find(n->type())) {
      problems.push_back("node " + n->Label() + ": op type not supported");
      continue;
    }
    // The backend's answer names the node already (hal/kernel.h).
    Status s = ctx.device->kernels().Supports(BuildKernelSpec(*n));
    if (!s.ok()) problems.push_back(s.message());
  }
  return Report(problems);
}

// Also refuses, before any pass evaluates or folds them, tensors larger than
// the memory limit (a static f32[2^32,2^32] is too large, not dynamic).
Status StaticShapeCheck(Graph& g, const PassContext& ctx) {
  const int64_t limit = EffectiveMemoryLimit(ctx.options->max_memory);
  for (Node* n : g.nodes())
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const std::string what = "node " + n->Label() + " output " + std::to_string(i);
      if (!n->output_desc(i).is_static())
        return Unsupported(what + " has the dynamic shape " + n->output_desc(i).ToString() +
                           "; dynamic shapes are not supported yet: fix the input shapes with --input_shape");
      GE_RETURN_IF_ERROR(CheckTensorSize(n->output_desc(i), what, limit));
    }
  return Status::Ok();
}

}  // namespace

Pass CheckKnownOpsPass() { return Pass{"check_known_ops", "prepare", CheckKnownOps}; }
Pass CheckSupportPass() { return Pass{"check_support", "prepare", CheckSupport}; }
Pass StaticShapeCheckPass() { return Pass{"static_shape_check", "prepare", StaticShapeCheck}; }

}  // namespace ge
