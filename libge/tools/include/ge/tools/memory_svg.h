// The memory plan drawn and summed up (ge-dump memory): x is the execution
// step, y the offset in the segment, one rectangle per buffer, labelled with
// its node and with a tooltip giving size and lifetime.
#pragma once

#include <string>

#include "ge/plan.h"
#include "ge_base/status.h"

namespace ge::tools {

// One panel per segment that holds buffers, weights left out (they live for
// the whole run and would flatten the feature map). An empty plan is an
// error naming `title`.
Result<std::string> PlanToSvg(const MemoryPlan& plan, const std::string& title);

// Peak, lower bound, no-reuse sum, their ratios, segment sizes, buffer
// counts; several lines, each ending in '\n'.
std::string PlanSummary(const MemoryPlan& plan);

}  // namespace ge::tools
