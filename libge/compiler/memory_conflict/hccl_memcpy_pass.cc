// Reference 3.1.1 and 3.1.2 (GE's HcclMemcpyPass, HcclContinuousMemcpyPass):
// an HCCL collective works in place on its input (scope-writeable), so
//  - a Const or Variable input always gets an Identity (the constant, the
//    variable's value, must survive the collective);
//  - another input gets one when a sibling consumer of the same tensor may
//    run after the collective (it would read the overwritten memory); a
//    sibling a path orders before it reads first and needs no copy. The
//    reference words this as "sibling id < HCCL id"; its own rationale
//    (read-then-write is safe, write-then-read is not) and multi-stream
//    schedules ask for the path (docs/memory-conflicts.md, departures).
//    Shape/Rank/Size siblings read metadata only and never count;
//  - a collective that needs continuous input memory (HcomAllReduce) fed
//    by a model input gets one too (the user's buffer is not ours to lay out);
//  - a HcomBroadcast whose input is a Variable writes the result back to it
//    with an Assign;
//  - every collective handled is marked _skip_rw_conflict, so
//    memory_rw_conflict does not isolate it a second time.
#include <algorithm>

#include <spdlog/spdlog.h>

#include "ge/analysis/reachability.h"
#include "ge/ops/memory_semantics.h"
#include "memory_conflict/memory_conflict_passes.h"

namespace ge {
namespace {

bool IsHccl(const Node& n) { return n.type().rfind("Hcom", 0) == 0; }

bool ShapeOnly(const Node& n) { return n.type() == "Shape" || n.type() == "Rank" || n.type() == "Size"; }

Status HandleHcclInputs(Graph& g, const PassContext&) {
  // The reachability below serves the collectives only: a model without
  // one (nearly every model) skips it.
  const std::vector<Node*> nodes = g.nodes();
  if (std::none_of(nodes.begin(), nodes.end(), [](const Node* n) { return IsHccl(*n); })) return Status::Ok();
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, g.TopologicalOrder());
  GE_ASSIGN_OR_RETURN(const analysis::Reachability reach, analysis::Reachability::Build(g));
  for (Node* n : order) {
    if (!IsHccl(*n)) continue;
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      if (!n->HasInput(i) || InputMutabilityOf(*n, i) == InputMutability::kReadOnly) continue;
      const Endpoint src = n->InputSource(i);
      const bool source_const = src.node->type() == op::kConst || IsVariable(*src.node);
      bool sibling_may_follow = false;
      for (const Endpoint& c : src.node->OutputConsumers(static_cast<size_t>(src.index)))
        if (c.node != n && !ShapeOnly(*c.node) && !reach.Reaches(c.node, n)) sibling_may_follow = true;
      const bool user_input = src.node->type() == op::kData && SemanticsOf(*n).continuous_input;
      if (!source_const && !sibling_may_follow && !user_input) continue;
      GE_ASSIGN_OR_RETURN(Node* copy, InsertIsolation(g, n, static_cast<int>(i)));
      spdlog::debug("hccl_memcpy: {} before {} input {}", copy->name(), n->Label(), i);
      if (n->type() == "HcomBroadcast" && IsVariable(*src.node)) {
        Node* back = g.AddNode("Assign", g.MakeUniqueName(n->name() + "_assign"), 2, 1);
        back->output_desc(0) = src.node->output_desc(src.index);
        back->SetAttr(kAttrCannotBeDeleted, true);
        GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, back, 0));
        GE_RETURN_IF_ERROR(g.AddEdge(n, static_cast<int>(i), back, 1));
      }
    }
    n->SetAttr(kAttrSkipRwConflict, true);
  }
  return Status::Ok();
}

}  // namespace

Pass HcclMemcpyPass() { return InSubgraphsToo(OptionalPass("hccl_memcpy", "memory", HandleHcclInputs)); }

}  // namespace ge
