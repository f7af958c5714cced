#include "memory_conflict/rw_types.h"

#include "ge/ops/memory_alias.h"
#include "ge/ops/memory_semantics.h"

namespace ge::mem_conflict {
namespace {

// The node whose memory `e` is, following aliases upstream.
const Node* MemoryRoot(Endpoint e) {
  for (size_t steps = 0; e.valid() && steps <= 4096; ++steps) {
    const int k = AliasedInput(*e.node, static_cast<size_t>(e.index));
    if (k < 0) break;
    e = e.node->InputSource(static_cast<size_t>(k));
  }
  return e.node;
}

}  // namespace

bool SubgraphWrites::WritesInput(const Graph& g) {
  if (auto it = known_.find(&g); it != known_.end()) return it->second;
  bool writes = false;
  for (const Node* n : g.nodes())
    for (size_t i = 0; !writes && i < n->num_inputs(); ++i) {
      if (!n->HasInput(i) || InputRwOf(*n, i, *this) == InputRw::kReadOnly) continue;
      const Node* root = MemoryRoot(n->InputSource(i));
      writes = root && root->type() == op::kData;
    }
  known_[&g] = writes;
  return writes;
}

const char* InputRwName(InputRw t) {
  switch (t) {
    case InputRw::kReadOnly: return "read-only";
    case InputRw::kWriteable: return "writeable";
    case InputRw::kScopeWriteable: return "scope-writeable";
  }
  return "?";
}

const char* OutputRwName(OutputRw t) {
  switch (t) {
    case OutputRw::kReadOnlyConst: return "read-only-const";
    case OutputRw::kReadOnly: return "read-only";
    case OutputRw::kSoftRead: return "soft-read";
    case OutputRw::kWriteable: return "writeable";
  }
  return "?";
}

bool NeedsIdentity(OutputRw out, InputRw in) {
  switch (out) {
    case OutputRw::kReadOnlyConst: return in != InputRw::kReadOnly;
    case OutputRw::kReadOnly: return in == InputRw::kScopeWriteable;
    case OutputRw::kSoftRead: return false;
    case OutputRw::kWriteable: return in == InputRw::kScopeWriteable;
  }
  return false;
}

InputRw InputRwOf(const Node& n, size_t i, SubgraphWrites& writes) {
  switch (InputMutabilityOf(n, i)) {
    case InputMutability::kWriteable: return InputRw::kWriteable;
    case InputMutability::kScopeWriteable: return InputRw::kScopeWriteable;
    case InputMutability::kReadOnly: break;
  }
  for (const auto& [name, sub] : n.subgraphs())
    if (sub && writes.WritesInput(*sub)) return InputRw::kScopeWriteable;
  return InputRw::kReadOnly;
}

OutputRw OutputRwOf(const Node& n, int out) {
  if (n.type() == op::kConst) return OutputRw::kReadOnlyConst;
  if (const int k = AliasedInput(n, static_cast<size_t>(out));
      k >= 0 && InputMutabilityOf(n, static_cast<size_t>(k)) != InputMutability::kReadOnly)
    return OutputRw::kWriteable;
  // The readers of this version of the memory: up through the views to the
  // tensor they view, then down through every view of it. A writer's own
  // output is a new version (what it wrote), so its readers do not count.
  Endpoint top{const_cast<Node*>(&n), out};
  for (size_t steps = 0; steps <= 4096; ++steps) {
    const int k = AliasedInput(*top.node, static_cast<size_t>(top.index));
    if (k < 0 || InputMutabilityOf(*top.node, static_cast<size_t>(k)) != InputMutability::kReadOnly) break;
    top = top.node->InputSource(static_cast<size_t>(k));
  }
  size_t readers = 0;
  std::vector<Endpoint> todo{top};
  for (size_t steps = 0; !todo.empty() && steps <= 65536; ++steps) {
    const Endpoint e = todo.back();
    todo.pop_back();
    for (const Endpoint& c : e.node->OutputConsumers(static_cast<size_t>(e.index))) {
      bool view = false;
      for (size_t o = 0; o < c.node->num_outputs(); ++o)
        if (AliasedInput(*c.node, o) == c.index &&
            InputMutabilityOf(*c.node, static_cast<size_t>(c.index)) == InputMutability::kReadOnly) {
          view = true;
          todo.push_back(Endpoint{c.node, static_cast<int>(o)});
        }
      if (!view) ++readers;
    }
  }
  return readers >= 2 ? OutputRw::kReadOnly : OutputRw::kSoftRead;
}

}  // namespace ge::mem_conflict
