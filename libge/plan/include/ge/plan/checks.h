// Checks of a plan that need the graph too. The compiler runs them on what it
// builds, the .om reader on what it reads: a model that fails one would race
// or read the wrong bytes at run time. (CheckEventGraph, in ge/plan.h, needs
// the task lists only.)
#pragma once

#include "ge/model.h"

namespace ge {

// Several streams: feature-map buffers that overlap in memory must be
// ordered — every kernel task touching one happens before the other's
// producer (docs/streams.md). Lifetimes over one execution order cannot show
// a race between streams; this can. A single-stream model passes.
Status CheckStreamSharing(const Model& m);

}  // namespace ge
