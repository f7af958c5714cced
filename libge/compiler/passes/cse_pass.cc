// optimize: common subexpression elimination (GE's dedup). Two nodes of the
// same type, attributes and inputs (the same producer outputs, in order, and
// the same control inputs) compute the same value: the later one's
// consumers move to the earlier one. Constants with equal descs and bytes
// merge too. Visiting in topological order lets merges cascade in one pass
// (merged producers make their consumers identical). Never merges nodes
// with side effects (random generators, subgraphs, cannot-be-deleted).
#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "passes/optimize_passes.h"
#include "passes/optimize_util.h"

namespace ge {
namespace {

bool Candidate(const Node& n) {
  if (n.type() == op::kData || n.type() == op::kNetOutput || opt::HasSideEffects(n) || n.num_outputs() == 0)
    return false;
  for (const auto& [k, v] : n.attrs())
    if (std::holds_alternative<std::shared_ptr<Graph>>(v)) return false;
  return true;
}

size_t HashBytes(const Tensor& t) {
  return std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(t.data()), t.size()));
}

// Equal keys mean equal nodes except for tensor bytes, which only enter as
// a hash; SameTensors() settles those.
std::string Key(const Node& n) {
  std::string k = n.type();
  k += '|';
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    Endpoint s = n.InputSource(i);
    k += s.valid() ? std::to_string(s.node->id()) + ":" + std::to_string(s.index) : "-";
    k += ',';
  }
  k += '|';
  std::vector<int64_t> ctl;
  for (Node* c : n.control_inputs()) ctl.push_back(c->id());
  std::sort(ctl.begin(), ctl.end());
  for (int64_t c : ctl) k += std::to_string(c) + ",";
  k += '|';
  for (size_t i = 0; i < n.num_outputs(); ++i) k += n.output_desc(i).ToString() + ",";
  k += '|';
  for (const auto& [name, v] : n.attrs()) {
    k += name;
    k += '=';
    k += AttrToString(v);
    if (const Tensor* t = std::get_if<Tensor>(&v)) {
      k += '#';
      k += std::to_string(HashBytes(*t));
    }
    k += ';';
  }
  return k;
}

bool SameTensors(const Node& a, const Node& b) {
  for (const auto& [name, v] : a.attrs()) {
    const Tensor* ta = std::get_if<Tensor>(&v);
    if (!ta) continue;
    const Tensor* tb = b.GetTensor(name);
    if (!tb || tb->size() != ta->size()) return false;
    if (ta->data() != tb->data() && ta->size() && std::memcmp(ta->data(), tb->data(), ta->size()) != 0) return false;
  }
  return true;
}

Status EliminateCommonSubexpressions(Graph& g, const PassContext&) {
  GE_ASSIGN_OR_RETURN(auto order, g.TopologicalOrder());
  std::unordered_map<std::string, std::vector<Node*>> seen;
  opt::Remover remover(g);
  int merged = 0;
  for (Node* n : order) {
    if (!Candidate(*n)) continue;
    std::vector<Node*>& same = seen[Key(*n)];
    Node* rep = nullptr;
    for (Node* s : same)
      if (SameTensors(*s, *n)) rep = s;
    if (!rep) {
      same.push_back(n);
      continue;
    }
    bool allowed = true;
    for (size_t i = 0; i < n->num_outputs() && allowed; ++i) {
      const int o = static_cast<int>(i);
      allowed = n->OutputConsumers(i).empty() || opt::CanRedirect({n, o}, {rep, o});
    }
    if (!allowed) continue;
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const int o = static_cast<int>(i);
      if (!n->OutputConsumers(i).empty()) GE_RETURN_IF_ERROR(opt::Redirect(g, {n, o}, {rep, o}));
    }
    for (Node* c : std::vector<Node*>(n->control_outputs())) g.AddControlEdge(rep, c);
    remover.Remove(n);
    ++merged;
  }
  remover.Sweep();
  spdlog::debug("cse: {} nodes merged", merged);
  return Status::Ok();
}

}  // namespace

Pass CsePass() { return OptionalPass("cse", "optimize", EliminateCommonSubexpressions); }

}  // namespace ge
