// Model <-> ge.om.ModelDef (schemas/om.proto). Tensor bytes go to a separate
// weights blob; the proto holds (offset, size) references into it.
#pragma once

#include <memory>
#include <string>

#include "ge/model.h"
#include "om.pb.h"

namespace ge::om {

// Writes `weights` as the plan's weights segment, every planned constant at
// its plan offset (so a loader can use the section in place), then appends
// every other distinct tensor's bytes once (64-byte aligned; equal constants
// share one range).
Status EncodeModel(const Model& model, ModelDef* def, std::string* weights);
// Checks every reference (weights ranges, node inputs, dtypes) while decoding.
// With an `owner`, constants are views into `weights` that keep it alive;
// without, they are copies.
Result<Model> DecodeModel(const ModelDef& def, const uint8_t* weights, uint64_t weights_size,
                          std::shared_ptr<const void> owner = nullptr);

}  // namespace ge::om
