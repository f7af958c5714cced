#include "common/gear_set.h"

#include <spdlog/spdlog.h>

#include "v1/sink_model.h"

namespace ge::rt {

Status GearSet::Load(const Model& root, const std::string& node, const SinkOptions& options) {
  name_ = root.name;
  const std::vector<size_t> gears = GearPartitions(root, node);
  if (gears.empty()) return Corrupt("model " + root.name + ": GearCase node " + node + " has no gears");
  for (size_t i : gears) {
    GE_ASSIGN_OR_RETURN(Model gear, PartitionModel(root, i));
    GE_ASSIGN_OR_RETURN(auto m, v1::LoadSink(gear, options, &pool_));
    if (m->inputs().size() != root.inputs.size())
      return Corrupt("model " + root.name + ": gear " + gear.name + " takes " + std::to_string(m->inputs().size()) +
                     " inputs, the model " + std::to_string(root.inputs.size()));
    models_.push_back(std::move(m));
  }
  dynamic_input_.assign(root.inputs.size(), false);
  for (size_t k = 0; k < root.inputs.size(); ++k) dynamic_input_[k] = !root.inputs[k].desc.is_static();
  spdlog::debug("gears of {}: {} loaded, {} B of weights shared", root.name, models_.size(), pool_.bytes());
  return Status::Ok();
}

void GearSet::Unload() {
  models_.clear();
  pool_.Clear();
}

Result<size_t> GearSet::Select(const std::vector<const std::vector<int64_t>*>& dims) {
  auto matches = [&](size_t g) {
    const auto& in = models_[g]->inputs();
    for (size_t k = 0; k < in.size(); ++k)
      if (!dims[k] || in[k].desc.dims != *dims[k]) return false;
    return true;
  };
  if (dims.size() != dynamic_input_.size())
    return InvalidArgument("model " + name_ + " takes " + std::to_string(dynamic_input_.size()) + " inputs, got " +
                           std::to_string(dims.size()));
  if (matches(last_)) return last_;
  for (size_t g = 0; g < models_.size(); ++g)
    if (matches(g)) return last_ = g;
  std::string given;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dynamic_input_[k] && dims[k]) given += (given.empty() ? "" : "; ") + DimsToString(*dims[k]);
  return InvalidArgument("model " + name_ + ": input dims " + given + " match none of its gears (" + Describe() +
                         "); pick one with --dymBatch, --dymHW or --dymDims");
}

size_t GearSet::device_bytes() const {
  size_t n = pool_.bytes();
  for (const auto& m : models_) n += m->instance_bytes();
  return n;
}

std::string GearSet::Describe() const {
  std::string s;
  for (const auto& m : models_) {
    std::string g;
    for (size_t k = 0; k < dynamic_input_.size(); ++k)
      if (dynamic_input_[k]) g += (g.empty() ? "" : ",") + DimsToString(m->inputs()[k].desc.dims);
    s += (s.empty() ? "" : "; ") + g;
  }
  return s;
}

}  // namespace ge::rt
