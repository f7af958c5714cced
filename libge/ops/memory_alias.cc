#include "ge/ops/memory_alias.h"

#include "ge/ops/kernel_spec.h"
#include "ge/ops/memory_semantics.h"
#include "ge/ops/op_registry.h"

namespace ge {

int AliasedInput(const Node& n, size_t out) {
  const OpDef* def = OpRegistry::Global().Find(n.type());
  if (!def || out >= n.num_outputs() || out >= def->memory.reference_outputs.size()) return -1;
  // An isolation copy inserted by a conflict pass exists to get memory of
  // its own.
  if (n.GetBool(kAttrMemoryIsolation, false)) return -1;
  const int k = def->memory.reference_outputs[out];
  if (k < 0 || static_cast<size_t>(k) >= n.num_inputs() || !n.HasInput(k)) return -1;
  const Endpoint src = n.InputSource(k);
  if (src.node->output_desc(src.index).Bytes() != n.output_desc(out).Bytes()) return -1;
  return k;
}

bool RunsKernel(const Node& n) {
  if (IsStructuralNode(n)) return false;
  if (n.num_outputs() == 0) return true;
  // A write into an input (Assign into its variable) is the op's work even
  // though its output is that input's memory.
  if (HasMemoryEffects(n)) return true;
  for (size_t i = 0; i < n.num_outputs(); ++i)
    if (AliasedInput(n, i) < 0) return true;
  return false;
}

}  // namespace ge
