// The gears of a gear model's GearCase node (ATC's --dynamic_batch_size,
// --dynamic_image_size, --dynamic_dims): each gear a static model loaded in
// sink mode, one weights segment shared by all, and the choice of the gear
// whose input dims match a call's. Both runtimes run gears this way: v1
// directly (v1/gear_model.cc), v2 from the GearCase node's C nodes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/program.h"
#include "ge/runtime.h"

namespace ge::rt {

class GearSet {
 public:
  // Loads every gear of `node` (Model::partitions in gear order).
  Status Load(const Model& root, const std::string& node, const SinkOptions& options);
  void Unload();
  // The gear whose inputs have exactly `dims` (one per input); an
  // InvalidArgument lists the gears.
  Result<size_t> Select(const std::vector<const std::vector<int64_t>*>& dims);
  SinkLoadedModel& model(size_t gear) { return *models_[gear]; }
  const SinkLoadedModel& model(size_t gear) const { return *models_[gear]; }
  const std::vector<IoDesc>& outputs(size_t gear) const { return models_[gear]->outputs(); }
  size_t size() const { return models_.size(); }
  // Device bytes held: every gear's own memory plus the shared weights once.
  size_t device_bytes() const;
  // "[1,3,224,224]; [2,3,224,224]": the dynamic inputs' dims of each gear.
  std::string Describe() const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<SinkLoadedModel>> models_;
  std::vector<bool> dynamic_input_;  // per input: some dim differs between gears
  WeightPool pool_;
  size_t last_ = 0;
};

}  // namespace ge::rt
