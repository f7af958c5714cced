// Runtimes: a loaded model that executes. v2 lowers the graph to an
// ExecuteGraph (Init / Main / DeInit) run by a sequential executor; sink (v1)
// pre-distributes tasks to streams and is not supported yet.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge {

class LoadedModel {
 public:
  virtual ~LoadedModel() = default;
  virtual const std::vector<IoDesc>& inputs() const = 0;
  virtual const std::vector<IoDesc>& outputs() const = 0;
  // inputs[i] holds inputs()[i].desc.Bytes() bytes, outputs[j] has room for
  // outputs()[j].desc.Bytes(); both owned by the caller. Not reentrant: one
  // Execute at a time per loaded model.
  virtual Status Execute(const std::vector<const void*>& inputs, const std::vector<void*>& outputs) = 0;
  // Bytes of device memory the model holds (weights + feature map).
  virtual size_t device_bytes() const = 0;
};

enum class RunMode { kV2, kSink };

// Loads the model for the given mode; the model may be destroyed afterwards.
Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, RunMode mode);

}  // namespace ge
