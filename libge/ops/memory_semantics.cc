#include "ge/ops/memory_semantics.h"

#include <algorithm>

namespace ge {

const MemorySemantics& SemanticsOf(const Node& n) {
  static const MemorySemantics kNone;
  const OpDef* def = OpRegistry::Global().Find(n.type());
  return def ? def->memory : kNone;
}

InputMutability InputMutabilityOf(const Node& n, size_t i) {
  if (n.GetBool(kAttrInputMutable, false)) return InputMutability::kScopeWriteable;
  const auto& m = SemanticsOf(n).input_mutability;
  return i < m.size() ? m[i] : InputMutability::kReadOnly;
}

bool IsAtomicOutput(const Node& n, size_t out) {
  const auto& a = SemanticsOf(n).atomic_outputs;
  return std::find(a.begin(), a.end(), static_cast<int>(out)) != a.end();
}

bool HasAtomicOutput(const Node& n) {
  for (size_t i = 0; i < n.num_outputs(); ++i)
    if (IsAtomicOutput(n, i)) return true;
  return false;
}

bool IsVariable(const Node& n) { return SemanticsOf(n).variable; }

bool HasMemoryEffects(const Node& n) {
  if (IsVariable(n) || HasAtomicOutput(n)) return true;
  for (size_t i = 0; i < n.num_inputs(); ++i)
    if (InputMutabilityOf(n, i) != InputMutability::kReadOnly) return true;
  return false;
}

const Node* ReferencedVariable(const Node& n, size_t out) {
  const Node* cur = &n;
  size_t idx = out;
  // A reference chain ends at the variable or at an output of its own; the
  // bound stops a malformed cyclic graph.
  for (size_t steps = 0; steps <= 4096; ++steps) {
    if (IsVariable(*cur)) return cur;
    const auto& refs = SemanticsOf(*cur).reference_outputs;
    if (idx >= refs.size() || refs[idx] < 0 || !cur->HasInput(refs[idx]) ||
        cur->GetBool(kAttrMemoryIsolation, false))
      return nullptr;
    const Endpoint src = cur->InputSource(refs[idx]);
    cur = src.node;
    idx = static_cast<size_t>(src.index);
  }
  return nullptr;
}

void MarkIsolation(Node& n) {
  n.SetAttr(kAttrCannotBeDeleted, true);
  n.SetAttr(kAttrNoConstantFolding, true);
  n.SetAttr(kAttrMemoryIsolation, true);
}

Result<Node*> InsertIsolation(Graph& g, Node* dst, int in, const std::string& type) {
  const Endpoint src = dst->InputSource(in);
  if (!src.valid()) return InvalidArgument("node " + dst->Label() + " input " + std::to_string(in) + " is unconnected");
  Node* copy = g.AddNode(type, g.MakeUniqueName(dst->name() + "_in" + std::to_string(in) + "_" + type), 1, 1);
  copy->output_desc(0) = src.node->output_desc(src.index);
  MarkIsolation(*copy);
  g.RemoveInputEdge(dst, in);
  GE_RETURN_IF_ERROR(g.AddEdge(src.node, src.index, copy, 0));
  GE_RETURN_IF_ERROR(g.AddEdge(copy, 0, dst, in));
  return copy;
}

}  // namespace ge
