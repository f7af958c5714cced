// The control: what a runtime file may include compiles with the same set-up,
// so the failures above are the layering, not a broken probe.
#include "ge/model.h"
#include "ge/ops/kernel_spec.h"
#include "ge/plan.h"
#include "ge/runtime.h"
#include "hal/device.h"

int ge_layering_probe() { return static_cast<int>(ge::Segment::kOutput); }
