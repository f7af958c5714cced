// Reference 3.1.4 (GE's InplaceSupportCheckPass): marks the inputs whose
// memory a node's single output could take over, as
// `_inplace_support_input_index` (ints, ascending). An input qualifies when
//  - its tensor has exactly the output's dtype, shape and format (the same
//    bytes, laid out the same way),
//  - it does not come from a source node (Data, Const, Variable: the user's
//    or the model's memory, never overwritten),
//  - its producer has no other consumer (nothing else reads it afterwards).
// The mark says what the graph allows; whether a kernel can run in place,
// and whether the merge is safe on the final schedule, the memory planner
// decides (docs/memory-conflicts.md "In-place").
#include <vector>

#include "ge/ops/memory_semantics.h"
#include "memory_conflict/memory_conflict_passes.h"

namespace ge {
namespace {

bool IsSource(const Node& n) { return n.type() == op::kData || n.type() == op::kConst || IsVariable(n); }

size_t DataConsumers(const Node& n) {
  size_t k = 0;
  for (size_t o = 0; o < n.num_outputs(); ++o) k += n.OutputConsumers(o).size();
  return k;
}

Status MarkInplaceSupport(Graph& g, const PassContext&) {
  for (Node* n : g.nodes()) {
    n->RemoveAttr(kAttrInplaceSupportInputIndex);  // the graph may have changed since an earlier mark
    if (n->num_outputs() != 1 || n->type() == op::kNetOutput || n->type() == op::kData) continue;
    const TensorDesc& out = n->output_desc(0);
    if (!out.is_static()) continue;
    std::vector<int64_t> marked;
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      const Endpoint src = n->InputSource(i);
      if (!src.valid()) continue;
      const TensorDesc& in = src.node->output_desc(static_cast<size_t>(src.index));
      if (in.dtype != out.dtype || in.dims != out.dims || in.format != out.format) continue;
      if (IsSource(*src.node)) continue;
      if (DataConsumers(*src.node) != 1) continue;
      marked.push_back(static_cast<int64_t>(i));
    }
    if (!marked.empty()) n->SetAttr(kAttrInplaceSupportInputIndex, marked);
  }
  return Status::Ok();
}

}  // namespace

Pass InplaceSupportCheckPass() { return OptionalPass("inplace_support_check", "memory", MarkInplaceSupport); }

}  // namespace ge
