// optimize: fold_constant_if. An If whose condition is a constant always
// takes the same branch, so it becomes that branch: the branch's nodes move
// into the graph (renamed "<if>/<node>"), its Data nodes replaced by what the
// If received in their place (the captures, inputs 1..), its outputs by the
// If's. The other branch is dropped. Innermost control flow stays as it is.
#include <map>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

Result<bool> FoldIf(Graph& g, Node* n) {
  const Tensor* cond = opt::ConstInput(*n, 0);
  if (!cond || cond->desc().NumElements() < 1) return false;
  const bool taken = cond->ToDouble().at(0) != 0;
  auto it = n->subgraphs().find(taken ? "then_branch" : "else_branch");
  if (it == n->subgraphs().end() || !it->second || !it->second->OutputNode()) return false;
  const Graph& branch = *it->second;
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, branch.TopologicalOrder());
  // Where each branch value lives in `g` now.
  std::map<const Node*, Node*> moved;
  std::map<const Node*, Endpoint> data;
  for (Node* s : order) {
    if (s->type() == op::kData) {
      const int64_t k = s->GetInt("index", -1);
      if (k < 0 || !n->HasInput(static_cast<size_t>(1 + k))) return false;  // a branch input the If does not give
      data[s] = n->InputSource(static_cast<size_t>(1 + k));
    }
  }
  auto source = [&](Endpoint e) -> Endpoint {
    if (auto d = data.find(e.node); d != data.end()) return d->second;
    return Endpoint{moved.at(e.node), e.index};
  };
  for (Node* s : order) {
    if (s->type() == op::kData || s->type() == op::kNetOutput) continue;
    Node* c = g.AddNode(s->type(), g.MakeUniqueName(n->name() + "/" + s->name()), s->num_inputs(), s->num_outputs());
    for (const auto& [k, v] : s->attrs()) c->SetAttr(k, v);
    for (size_t j = 0; j < s->num_outputs(); ++j) c->output_desc(j) = s->output_desc(j);
    c->subgraphs() = s->subgraphs();
    moved[s] = c;
    for (size_t i = 0; i < s->num_inputs(); ++i) {
      if (!s->HasInput(i)) continue;
      const Endpoint src = source(s->InputSource(i));
      GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, c, static_cast<int>(i)));
    }
  }
  const Node* out = branch.OutputNode();
  if (out->num_inputs() != n->num_outputs()) return Internal("node " + n->Label() + ": the branch's outputs do not match");
  for (size_t j = 0; j < n->num_outputs(); ++j) {
    if (!out->HasInput(j)) return Internal("node " + n->Label() + ": branch output " + std::to_string(j) + " is unconnected");
    GE_RETURN_IF_ERROR(opt::Redirect(g, Endpoint{n, static_cast<int>(j)}, source(out->InputSource(j))));
  }
  opt::Remover remover(g);
  remover.Remove(n);
  remover.Sweep();
  return true;
}

Status FoldConstantIfs(Graph& g, const PassContext&) {
  opt::PinOutputNames(g);
  bool changed = true;
  while (changed) {
    changed = false;
    for (Node* n : g.nodes()) {
      if (n->type() != "If") continue;
      GE_ASSIGN_OR_RETURN(changed, FoldIf(g, n));
      if (changed) break;  // the node list changed
    }
  }
  return Status::Ok();
}

}  // namespace

Pass FoldConstantIfPass() { return OptionalPass("fold_constant_if", "optimize", FoldConstantIfs); }

}  // namespace ge
