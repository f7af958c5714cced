// The memory-conflict stage (DESIGN.md "Compiler", stage 4;
// docs/memory-conflicts.md): passes that insert isolation copies where two
// anchors sharing memory must not share it.
#pragma once

#include "ge/analysis/layout_conflicts.h"
#include "pass.h"

namespace ge {

Pass HcclMemcpyPass();  // hccl_memcpy: reference 3.1.1 / 3.1.2, collectives in place on their input
Pass AtomicAddrCleanPass();  // atomic_addr_clean: reference 3.1.5, zeroed memory for atomic ops
Pass RwConflictPass();  // memory_rw_conflict: reference 3.2, the decision matrix
// memory_layout_conflict: reference 3.3, symbol-level layout conflicts;
// `continuous`: also the continuous family's (see kPlansLayOutContinuousBlocks).
Pass LayoutConflictPass(bool continuous = analysis::kPlansLayOutContinuousBlocks);
Pass InplaceSupportCheckPass();  // inplace_support_check: reference 3.1.4, marks _inplace_support_input_index

}  // namespace ge
