// optimize: constant folding. A node whose inputs are all Const is computed
// once at compile time with the CPU kernels (the ones the runtime would run,
// so the numerics do not change) and replaced by Const. Visiting in
// topological order folds whole constant chains in one pass. A fold never
// creates a constant above fold_limit_bytes, so it never bloats the model
// (Expand/Tile/ConstantOfShape of a big shape stay computed at run time).
// An op whose output shapes only the computation knows (NonZero, Unique,
// ...) folds to constants of the shapes it computed; inference then runs
// again so its consumers see them, and folding goes on from there.
#include <spdlog/spdlog.h>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

bool Foldable(const Node& n, int64_t limit) {
  if (opt::IsStructural(n) || opt::HasSideEffects(n) || n.GetBool(kAttrNoConstantFolding, false) || !n.control_inputs().empty() || n.num_outputs() == 0) return false;
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
  // Computed shapes are known after the evaluation: their size is checked then.
  const bool computed = opt::HasComputedShape(n);
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const TensorDesc& d = n.output_desc(i);
    if (DataTypeSize(d.dtype) == 0) return false;
    if (!computed && (!d.is_static() || d.Bytes() < 0 || d.Bytes() > limit)) return false;
  }
  return true;
}

bool WithinLimit(const std::vector<Tensor>& values, int64_t limit) {
  for (const Tensor& t : values)
    if (static_cast<int64_t>(t.size()) > limit) return false;
  return true;
}

// One pass over the graph; `reshaped` says whether a fold gave a node
// shapes its inference did not know.
Status FoldOnce(Graph& g, const PassContext& ctx, bool& reshaped) {
  const int64_t limit = opt::FoldLimitBytes(ctx);
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  opt::Remover remover(g);
  int folded = 0;
  reshaped = false;
  for (Node* n : order) {
    if (!Foldable(*n, limit)) continue;
    std::vector<const Tensor*> inputs;
    for (size_t i = 0; i < n->num_inputs(); ++i) inputs.push_back(opt::ConstInput(*n, i));
    auto values = opt::EvaluateOnHost(*ctx.host, *n, inputs);
    if (!values.ok() || !WithinLimit(*values, limit)) {
      // Not an error: the node simply stays to be computed at run time.
      spdlog::debug("constant_folding: {} not folded: {}", n->Label(),
                    values.ok() ? "above the size limit" : values.status().message());
      continue;
    }
    for (size_t i = 0; i < n->num_outputs(); ++i) reshaped |= (*values)[i].desc().dims != n->output_desc(i).dims;
    GE_RETURN_IF_ERROR(opt::ReplaceWithConsts(g, remover, n, std::move(values).value()));
    ++folded;
  }
  const int removed = remover.Sweep();
  spdlog::debug("constant_folding: {} nodes folded, {} removed", folded, removed);
  return Status::Ok();
}

Status FoldConstants(Graph& g, const PassContext& ctx) {
  // Each round that reshapes has folded a node, so the rounds end.
  for (bool reshaped = true; reshaped;) {
    GE_RETURN_IF_ERROR(FoldOnce(g, ctx, reshaped));
    if (reshaped) GE_RETURN_IF_ERROR(InferShapesPass().run(g, ctx));
  }
  return Status::Ok();
}

}  // namespace

Pass ConstantFoldingPass() { return OptionalPass("constant_folding", "optimize", FoldConstants); }

}  // namespace ge
