// LoadModel: the one entry point that picks a runtime by mode; both take the
// caller's LoadOptions as they are.
#include "ge/runtime.h"
#include "v1/sink_model.h"
#include "v2/model_v2.h"

namespace ge {

Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, const LoadOptions& options) {
  if (options.mode == RunMode::kSink) {
    if (FindGearCase(model)) return v1::LoadGearModel(model, options);
    GE_ASSIGN_OR_RETURN(auto m, LoadSinkModel(model, options));
    return std::unique_ptr<LoadedModel>(std::move(m));
  }
  return v2::LoadV2(model, options);
}

}  // namespace ge
