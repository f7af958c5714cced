// LoadModel: the one entry point that picks a runtime by mode.
#include "ge/runtime.h"
#include "v1/sink_model.h"

namespace ge {
namespace v2 {
Result<std::unique_ptr<LoadedModel>> LoadV2(const Model& model, const LoadOptions& options);  // v2/model_v2.cc
}

Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, const LoadOptions& options) {
  if (options.mode == RunMode::kSink) {
    SinkOptions so;
    so.device = options.device;
    so.max_memory = options.max_memory;
    if (FindGearCase(model)) return v1::LoadGearModel(model, so);
    GE_ASSIGN_OR_RETURN(auto m, LoadSinkModel(model, so));
    return std::unique_ptr<LoadedModel>(std::move(m));
  }
  return v2::LoadV2(model, options);
}

}  // namespace ge
