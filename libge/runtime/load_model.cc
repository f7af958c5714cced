// LoadModel: the one entry point that picks a runtime by mode.
#include "ge/runtime.h"

namespace ge {
namespace v2 {
Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model);  // runtime/v2/model_v2.cc
}

Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, RunMode mode) {
  if (!model.graph) return Internal("model without a graph");
  if (mode == RunMode::kSink) {
    GE_ASSIGN_OR_RETURN(auto m, LoadSinkModel(model));
    return std::unique_ptr<LoadedModel>(std::move(m));
  }
  return v2::LoadV2(model);
}

}  // namespace ge
