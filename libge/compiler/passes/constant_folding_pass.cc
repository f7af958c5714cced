// optimize: constant folding. A node whose inputs are all Const is computed
// once at compile time with the CPU kernels (the ones the runtime would run,
// so the numerics do not change) and replaced by Const. Visiting in
// topological order folds whole constant chains in one pass. A fold never
// creates a constant above fold_limit_bytes, so it never bloats the model
// (Expand/Tile/ConstantOfShape of a big shape stay computed at run time).
#include <spdlog/spdlog.h>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

bool Foldable(const Node& n, int64_t limit) {
  if (opt::IsStructural(n) || opt::HasSideEffects(n) || !n.control_inputs().empty() || n.num_outputs() == 0) return false;
  // A model output that is a constant would need a copy (see CanRedirect).
  if (opt::FeedsOutput(n)) return false;
  size_t present = 0;
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    if (!n.HasInput(i)) continue;
    if (!opt::ConstInput(n, i)) return false;
    ++present;
  }
  // Input-less compute nodes are generators; nothing to gain, and unknown
  // ones may not be deterministic.
  if (present == 0) return false;
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const TensorDesc& d = n.output_desc(i);
    if (!d.is_static() || DataTypeSize(d.dtype) == 0 || d.Bytes() < 0 || d.Bytes() > limit) return false;
  }
  return true;
}

Status FoldConstants(Graph& g, const PassContext& ctx) {
  const int64_t limit = opt::FoldLimitBytes(ctx);
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  opt::Remover remover(g);
  int folded = 0;
  for (Node* n : order) {
    if (!Foldable(*n, limit)) continue;
    std::vector<const Tensor*> inputs;
    for (size_t i = 0; i < n->num_inputs(); ++i) inputs.push_back(opt::ConstInput(*n, i));
    auto values = opt::EvaluateOnHost(*ctx.host, *n, inputs);
    if (!values.ok()) {
      // Not an error: the node simply stays to be computed at run time.
      spdlog::debug("constant_folding: {} not folded: {}", n->Label(), values.status().message());
      continue;
    }
    GE_RETURN_IF_ERROR(opt::ReplaceWithConsts(g, remover, n, std::move(values).value()));
    ++folded;
  }
  const int removed = remover.Sweep();
  spdlog::debug("constant_folding: {} nodes folded, {} removed", folded, removed);
  return Status::Ok();
}

}  // namespace

Pass ConstantFoldingPass() { return OptionalPass("constant_folding", "optimize", FoldConstants); }

}  // namespace ge
