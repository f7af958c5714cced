// ModelManager: loaded sink models by id (GE's ModelManager::LoadModelOffline
// / Unload). The lock guards the table only; executes run on the model the
// caller got from Get(), outside it.
#include <spdlog/spdlog.h>

#include "ge/runtime.h"

namespace ge {

ModelManager& ModelManager::Global() {
  static ModelManager m;
  return m;
}

Result<uint32_t> ModelManager::Load(const Model& model, const SinkOptions& options) {
  GE_ASSIGN_OR_RETURN(auto m, LoadSinkModel(model, options));
  std::lock_guard<std::mutex> lock(mu_);
  const uint32_t id = next_id_++;
  models_[id] = std::shared_ptr<SinkLoadedModel>(std::move(m));
  spdlog::debug("model manager: loaded {} as model {}", model.name, id);
  return id;
}

Result<uint32_t> ModelManager::Fork(uint32_t id) {
  GE_ASSIGN_OR_RETURN(auto parent, Get(id));
  GE_ASSIGN_OR_RETURN(auto fork, parent->Fork());
  std::lock_guard<std::mutex> lock(mu_);
  const uint32_t fid = next_id_++;
  models_[fid] = std::shared_ptr<SinkLoadedModel>(std::move(fork));
  spdlog::debug("model manager: model {} forked as {}", id, fid);
  return fid;
}

Status ModelManager::Unload(uint32_t id) {
  std::shared_ptr<SinkLoadedModel> m;  // destroyed outside the lock
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = models_.find(id);
    if (it == models_.end()) return NotFound("model manager: no model " + std::to_string(id));
    m = std::move(it->second);
    models_.erase(it);
  }
  return Status::Ok();
}

Result<std::shared_ptr<SinkLoadedModel>> ModelManager::Get(uint32_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = models_.find(id);
  if (it == models_.end()) return NotFound("model manager: no model " + std::to_string(id));
  return it->second;
}

size_t ModelManager::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return models_.size();
}

}  // namespace ge
