// optimize: hoist_loop_invariants. A node of a Loop body whose inputs are
// all constants or captured outer values computes the same thing on every
// iteration: it moves in front of the Loop, into the graph that holds it
// (renamed "<loop>/<node>"), and the body reads its result as one more
// capture (a Data node, the Loop one more input, `_captures` + 1). Constant
// chains are folded already; this takes what depends on captures too (a
// transposed weight, a broadcast bias, a mask built from a captured length).
// Nodes with side effects, subgraphs or control edges stay. Like any
// loop-invariant code motion it runs the hoisted nodes once even when the
// loop runs zero times.
#include <map>
#include <set>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

bool Movable(const Node& n) {
  return n.type() != op::kData && n.type() != op::kNetOutput && n.type() != op::kConst && n.subgraphs().empty() &&
         n.control_inputs().empty() && n.control_outputs().empty() && !opt::HasSideEffects(n);
}

Result<bool> HoistFromLoop(Graph& g, Node* loop) {
  auto it = loop->subgraphs().find("body");
  if (it == loop->subgraphs().end() || !it->second) return false;
  Graph& body = *it->second;
  const int64_t captures = loop->GetInt("_captures", 0);
  const int64_t first_capture = static_cast<int64_t>(loop->num_inputs()) - captures;
  GE_ASSIGN_OR_RETURN(std::vector<Node*> order, body.TopologicalOrder());
  // Where each invariant body value lives in g.
  std::map<const Node*, Node*> moved;              // hoisted node -> its copy in g
  std::map<const Node*, Endpoint> outer;           // capture Data / Const -> the value in g
  std::set<const Node*> invariant;
  int64_t next_index = 0;
  for (Node* s : order) {
    if (s->type() == op::kData) next_index = std::max(next_index, s->GetInt("index", -1) + 1);
    if (s->type() == op::kData && s->GetInt("index", -1) >= first_capture &&
        loop->HasInput(static_cast<size_t>(s->GetInt("index", -1)))) {
      invariant.insert(s);
      outer[s] = loop->InputSource(static_cast<size_t>(s->GetInt("index", -1)));
    } else if (s->type() == op::kConst) {
      invariant.insert(s);
    }
  }
  std::vector<Node*> hoisted;
  for (Node* s : order) {
    if (!Movable(*s)) continue;
    bool all = s->num_inputs() > 0;
    for (size_t i = 0; i < s->num_inputs() && all; ++i) all = !s->HasInput(i) || invariant.count(s->InputNode(i));
    if (!all) continue;
    invariant.insert(s);
    hoisted.push_back(s);
  }
  if (hoisted.empty()) return false;
  // Copies in g, in the body's order; constants they read are copied once.
  auto source = [&](Endpoint e) -> Endpoint {
    if (auto o = outer.find(e.node); o != outer.end()) return o->second;
    if (e.node->type() == op::kConst) {
      Node* c = g.AddNodeCopy(*e.node);
      c->set_name(g.MakeUniqueName(loop->name() + "/" + e.node->name()));
      outer[e.node] = Endpoint{c, 0};
      return Endpoint{c, e.index};
    }
    return Endpoint{moved.at(e.node), e.index};
  };
  for (Node* s : hoisted) {
    Node* c = g.AddNode(s->type(), g.MakeUniqueName(loop->name() + "/" + s->name()), s->num_inputs(), s->num_outputs());
    for (const auto& [k, v] : s->attrs()) c->SetAttr(k, v);
    for (size_t j = 0; j < s->num_outputs(); ++j) c->output_desc(j) = s->output_desc(j);
    for (size_t i = 0; i < s->num_inputs(); ++i) {
      if (!s->HasInput(i)) continue;
      const Endpoint src = source(s->InputSource(i));
      GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, c, static_cast<int>(i)));
    }
    moved[s] = c;
  }
  // Each hoisted output the rest of the body reads becomes a capture.
  for (Node* s : hoisted) {
    for (size_t j = 0; j < s->num_outputs(); ++j) {
      bool read_inside = false;
      for (const Endpoint& use : s->OutputConsumers(j)) read_inside |= !invariant.count(use.node);
      if (!read_inside) continue;
      Node* d = body.AddNode(op::kData, body.MakeUniqueName(s->name() + "/hoisted"), 0, 1);
      d->SetAttr("index", next_index++);
      d->SetAttr("_captured", loop->name() + "/" + s->name());
      d->output_desc(0) = s->output_desc(j);
      GE_RETURN_IF_ERROR(body.ReplaceAllUses({s, static_cast<int>(j)}, {d, 0}));
      const size_t k = loop->num_inputs();
      loop->SetNumInputs(k + 1);
      loop->input_desc(k) = s->output_desc(j);
      GE_RETURN_IF_ERROR(g.AddEdge(moved.at(s), static_cast<int>(j), loop, static_cast<int>(k)));
      loop->SetAttr("_captures", loop->GetInt("_captures", 0) + 1);
    }
  }
  // What was hoisted is dead in the body now (its readers read the captures).
  const std::set<const Node*> gone(hoisted.begin(), hoisted.end());
  for (auto r = hoisted.rbegin(); r != hoisted.rend(); ++r) body.RemoveNode(*r);
  for (Node* s : order)
    if (!gone.count(s) && s->type() == op::kConst && s->OutputConsumers(0).empty()) body.RemoveNode(s);
  return true;
}

Status HoistLoopInvariants(Graph& g, const PassContext&) {
  for (Node* n : g.nodes())
    if (n->type() == "Loop") GE_RETURN_IF_ERROR(HoistFromLoop(g, n).status());
  return Status::Ok();
}

}  // namespace

Pass HoistLoopInvariantsPass() { return OptionalPass("hoist_loop_invariants", "optimize", HoistLoopInvariants); }

}  // namespace ge
