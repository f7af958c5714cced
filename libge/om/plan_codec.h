// MemoryPlan / StreamTasks <-> their om.proto messages. Decoding validates
// the plan against the decoded graph: a corrupt plan is an error, never an
// out-of-range address at run time.
#pragma once

#include "ge/model.h"
#include "om.pb.h"

namespace ge::om {

void EncodePlan(const Model& model, ModelDef* def);
// Fills model.memory and model.streams; model.graph and IO must be decoded.
Status DecodePlan(const ModelDef& def, Model& model);

}  // namespace ge::om
