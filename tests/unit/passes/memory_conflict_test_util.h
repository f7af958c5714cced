// Helpers of the memory-conflict pass tests.
#pragma once

#include "compiler/memory_conflict/memory_conflict_passes.h"
#include "ge/ops/memory_semantics.h"
#include "tests/unit/passes/optimize_test_util.h"

namespace ge::test {

// The isolating Identity a pass put before input `in` of `consumer`, or nullptr.
inline Node* IsolationBefore(Node* consumer, int in) {
  Node* src = consumer->InputNode(static_cast<size_t>(in));
  return src && src->type() == "Identity" && src->GetBool(kAttrMemoryIsolation) ? src : nullptr;
}

}  // namespace ge::test
