// optimize: dead code elimination. Keeps what NetOutput needs (through data
// and control edges), the graph inputs (Data: removing one would change the
// model's signature) and nodes with side effects with what they need;
// everything else is removed.
#include <set>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

Status EliminateDeadCode(Graph& g, const PassContext&) {
  Node* out = g.OutputNode();
  // Without outputs everything would be "dead"; such a graph is left alone
  // for the verifier to report.
  if (!out) return Status::Ok();
  std::set<Node*> live;
  std::vector<Node*> work;
  auto keep = [&](Node* n) {
    if (n && live.insert(n).second) work.push_back(n);
  };
  for (Node* n : g.nodes())
    if (n == out || n->type() == op::kData || opt::HasSideEffects(*n)) keep(n);
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    for (size_t i = 0; i < n->num_inputs(); ++i) keep(n->InputNode(i));
    for (Node* c : n->control_inputs()) keep(c);
  }
  for (Node* n : g.nodes())
    if (!live.count(n)) g.RemoveNode(n);
  return Status::Ok();
}

}  // namespace

Pass DeadCodeEliminationPass() { return OptionalPass("dead_code_elimination", "optimize", EliminateDeadCode); }

}  // namespace ge
