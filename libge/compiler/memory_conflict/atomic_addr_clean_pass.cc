// Reference 3.1.5 (GE's AtomicAddrCleanPass): an atomic op (ScatterAdd)
// accumulates into its output, so that memory must be zero before it runs.
//  - a graph that is not a loop body gets one AtomicAddrClean node at its
//    head that zeroes the memory of every atomic op in it;
//  - in a loop body each atomic op gets a clean node of its own, so the
//    memory is zero again every iteration right before the op;
//  - an atomic op whose output feeds the NetOutput directly gets a clean
//    node of its own too (the reference: zero-copy may move that output).
// Departure: GE's clean node is bound to the atomic ops' output addresses;
// here it produces the zeroed tensors and each atomic op takes one as the
// input its output references (the registry's reference_outputs), so the
// memory plan, the task lists and both runtimes carry the order and the
// address with no special case. The data edge is the ordering edge the
// reference draws as a control edge. An op whose output dims are unknown
// at compile time keeps zeroing its output itself (docs/memory-conflicts.md).
#include <spdlog/spdlog.h>

#include "ge/ops/memory_semantics.h"
#include "memory_conflict/memory_conflict_passes.h"

namespace ge {
namespace {

// One atomic output to clean: the node, the output, and the input its
// output references (where the zeroed memory goes in).
struct AtomicTarget {
  Node* node;
  int output;
  int accumulator;
};

bool IsLoopNode(const Node& n) { return n.type() == "Loop" || n.type() == "Scan"; }

bool FeedsNetOutput(const Node& n, int out) {
  for (const Endpoint& c : n.OutputConsumers(static_cast<size_t>(out)))
    if (c.node->type() == op::kNetOutput) return true;
  return false;
}

std::vector<AtomicTarget> FindTargets(const std::vector<Node*>& order) {
  std::vector<AtomicTarget> out;
  for (Node* n : order) {
    const MemorySemantics& m = SemanticsOf(*n);
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      if (!IsAtomicOutput(*n, i)) continue;
      const int k = i < m.reference_outputs.size() ? m.reference_outputs[i] : -1;
      if (k < 0) {
        spdlog::debug("atomic_addr_clean: {} output {} has no accumulator input; its kernel zeroes it", n->Label(), i);
        continue;
      }
      if (static_cast<size_t>(k) < n->num_inputs() && n->HasInput(k)) continue;  // cleaned already
      if (!n->output_desc(i).is_static()) {
        spdlog::debug("atomic_addr_clean: {} output {} has unknown dims; its kernel zeroes it", n->Label(), i);
        continue;
      }
      out.push_back({n, static_cast<int>(i), k});
    }
  }
  return out;
}

// One AtomicAddrClean node producing a zeroed tensor for each target, wired
// into the targets' accumulator inputs.
Status AddCleanNode(Graph& g, const std::string& base, const std::vector<AtomicTarget>& targets) {
  if (targets.empty()) return Status::Ok();
  Node* clean = g.AddNode("AtomicAddrClean", g.MakeUniqueName(base), 0, targets.size());
  std::vector<std::string> dtypes;
  std::vector<int64_t> ranks, dims;
  for (size_t j = 0; j < targets.size(); ++j) {
    const TensorDesc& d = targets[j].node->output_desc(targets[j].output);
    clean->output_desc(j) = d;
    dtypes.push_back(DataTypeName(d.dtype));
    ranks.push_back(static_cast<int64_t>(d.dims.size()));
    dims.insert(dims.end(), d.dims.begin(), d.dims.end());
  }
  clean->SetAttr("dtypes", dtypes);
  clean->SetAttr("ranks", ranks);
  clean->SetAttr("dims", dims);
  clean->SetAttr(kAttrCannotBeDeleted, true);
  clean->SetAttr(kAttrNoConstantFolding, true);
  for (size_t j = 0; j < targets.size(); ++j) {
    const AtomicTarget& t = targets[j];
    if (t.node->num_inputs() <= static_cast<size_t>(t.accumulator)) t.node->SetNumInputs(t.accumulator + 1);
    GE_RETURN_IF_ERROR(g.AddEdge(clean, static_cast<int>(j), t.node, t.accumulator));
    spdlog::debug("atomic_addr_clean: {} output {} zeroes {} output {}", clean->name(), j, t.node->Label(), t.output);
  }
  return Status::Ok();
}

Status CleanGraph(Graph& g, bool loop_body) {
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  for (Node* n : order)  // innermost first
    for (auto& [name, sub] : n->subgraphs())
      if (sub) GE_RETURN_IF_ERROR(CleanGraph(*sub, loop_body || IsLoopNode(*n)));
  const std::vector<AtomicTarget> targets = FindTargets(order);
  std::vector<AtomicTarget> head;
  for (size_t i = 0; i < targets.size();) {
    // The targets of one node are adjacent (FindTargets walks node by node).
    size_t j = i;
    while (j < targets.size() && targets[j].node == targets[i].node) ++j;
    const std::vector<AtomicTarget> own(targets.begin() + i, targets.begin() + j);
    bool to_output = false;
    for (const AtomicTarget& t : own) to_output = to_output || FeedsNetOutput(*t.node, t.output);
    if (loop_body || to_output)
      GE_RETURN_IF_ERROR(AddCleanNode(g, own.front().node->name() + "_atomic_clean", own));
    else
      head.insert(head.end(), own.begin(), own.end());
    i = j;
  }
  return AddCleanNode(g, "atomic_addr_clean", head);
}

}  // namespace

Pass AtomicAddrCleanPass() {
  // Not InSubgraphsToo: whether a graph is a loop body decides the layout,
  // so the pass walks the subgraphs itself.
  return OptionalPass("atomic_addr_clean", "memory", [](Graph& g, const PassContext&) { return CleanGraph(g, false); });
}

}  // namespace ge
