// ge-lint's plan checks (docs/lint.md): each appends its findings for a
// compiled model and never changes it. The runner (ge/lint/lint.h) stamps
// code and severity.
#pragma once

#include "ge/lint/diagnostic.h"
#include "ge/model.h"

namespace ge::lint {

// E18002: VerifyModel fails for a reason E18001/E18003/E18004 do not
// already report (tasks, buffers, descs, IO bindings, in-place writes).
void CheckModel(const Model& m, Diagnostics* out);
// E18003: two buffers in overlapping memory while both may be in use.
void CheckMemoryOverlaps(const Model& m, Diagnostics* out);
// E18004: the streams' event waits form a cycle (the runtime would hang).
void CheckWaitCycles(const Model& m, Diagnostics* out);

}  // namespace ge::lint
