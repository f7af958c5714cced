// A gear model in sink mode: every gear a SinkModel sharing one weights
// segment; an execute picks the gear by the input dims and runs it with one
// HAL call, as a static model runs.
#include <spdlog/spdlog.h>

#include "common/gear_set.h"
#include "common/shaped_io.h"
#include "ge_base/tensor_bytes.h"
#include "v1/sink_model.h"

namespace ge::v1 {
namespace {

class GearModel final : public LoadedModel {
 public:
  GearModel(const Model& model) : inputs_(model.inputs), outputs_(model.outputs), name_(model.name) {}

  Status Load(const Model& model, const SinkOptions& options) {
    const Node* gear_case = FindGearCase(model);
    if (!gear_case) return Internal("model " + model.name + " has no GearCase node");
    return gears_.Load(model, gear_case->name(), options);
  }

  bool dynamic() const override { return true; }
  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  size_t device_bytes() const override { return gears_.device_bytes(); }

  Status Execute(const std::vector<const void*>&, const std::vector<void*>&) override {
    return InvalidArgument("model " + name_ + " has gears (" + gears_.Describe() +
                           "): run it with input dims (ExecuteShaped), which pick the gear");
  }

  // The gear of the last call (LoadOptions::profile reaches every gear).
  std::vector<TaskProfile> Profile() const override {
    return gears_.size() ? gears_.model(last_gear_).Profile() : std::vector<TaskProfile>{};
  }

  Status ExecuteShaped(const std::vector<TensorView>& inputs, std::vector<Tensor>& outputs) override {
    GE_RETURN_IF_ERROR(rt::CheckShapedInputs(inputs_, inputs));
    dims_.resize(inputs.size());
    in_.resize(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
      dims_[k] = &inputs[k].dims;
      Result<size_t> in_bytes = TensorBytes(inputs[k].dims, inputs[k].dtype);
      if (!in_bytes.ok()) return in_bytes.status().Annotated("input " + inputs_[k].name);
      in_[k] = DataBuffer{inputs[k].data, *in_bytes};
    }
    GE_ASSIGN_OR_RETURN(size_t gear, gears_.Select(dims_));
    last_gear_ = gear;
    const std::vector<IoDesc>& descs = gears_.outputs(gear);
    std::vector<std::vector<uint8_t>> bytes(descs.size());
    out_.resize(descs.size());
    for (size_t j = 0; j < descs.size(); ++j) {
      Result<size_t> out_bytes = TensorBytes(descs[j].desc.dims, descs[j].desc.dtype);
      if (!out_bytes.ok()) return out_bytes.status().Annotated("output " + descs[j].name);
      bytes[j].resize(*out_bytes);
      out_[j] = MutableBuffer{bytes[j].data(), bytes[j].size()};
    }
    GE_RETURN_IF_ERROR(gears_.model(gear).Execute(in_, out_, std::chrono::milliseconds(0)));
    outputs.clear();
    for (size_t j = 0; j < descs.size(); ++j) outputs.emplace_back(descs[j].desc, std::move(bytes[j]));
    return Status::Ok();
  }

 private:
  std::vector<IoDesc> inputs_, outputs_;
  std::string name_;
  rt::GearSet gears_;
  std::vector<const std::vector<int64_t>*> dims_;
  std::vector<DataBuffer> in_;
  std::vector<MutableBuffer> out_;
  size_t last_gear_ = 0;
};

}  // namespace

Result<std::unique_ptr<LoadedModel>> LoadGearModel(const Model& model, const SinkOptions& options) {
  auto m = std::make_unique<GearModel>(model);
  GE_RETURN_IF_ERROR(m->Load(model, options).Annotated("sink load of " + model.name));
  spdlog::debug("sink: gear model {} loaded", model.name);
  return std::unique_ptr<LoadedModel>(std::move(m));
}

}  // namespace ge::v1
