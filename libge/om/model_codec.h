// Model <-> ge.om.ModelDef (schemas/om.proto). Tensor bytes go to a separate
// weights blob; the proto holds (offset, size) references into it.
#pragma once

#include <string>

#include "ge/model.h"
#include "om.pb.h"

namespace ge::om {

// Appends every distinct tensor's bytes to `weights` once (64-byte aligned;
// equal constants share one range) while encoding.
Status EncodeModel(const Model& model, ModelDef* def, std::string* weights);
// Checks every reference (weights ranges, node inputs, dtypes) while decoding.
Result<Model> DecodeModel(const ModelDef& def, const uint8_t* weights, uint64_t weights_size);

}  // namespace ge::om
