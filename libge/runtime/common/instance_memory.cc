#include "common/instance_memory.h"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace ge::rt {

Status InstanceMemory::Init(const Program& p) {
  p_ = &p;
  const MemoryPlan& plan = p.plan;
  GE_ASSIGN_OR_RETURN(feature_map_, p.device->Allocate(std::max<int64_t>(plan.feature_map_size, 1)));
  GE_ASSIGN_OR_RETURN(input_io_, p.device->Allocate(std::max<int64_t>(plan.input_size, 1)));
  GE_ASSIGN_OR_RETURN(output_io_, p.device->Allocate(std::max<int64_t>(plan.output_size, 1)));
  in_args_.assign(p.in_args.size(), nullptr);
  out_args_.assign(p.out_args.size(), nullptr);
  io_.Init(plan, static_cast<uint8_t*>(input_io_.data()), static_cast<uint8_t*>(output_io_.data()), in_args_.data(),
           out_args_.data());
  auto fixed = [&](const TaskArg& a) -> void* {
    if (a.offset < 0) return nullptr;
    if (a.segment == Segment::kWeights) return p.WeightAddress(a.offset);
    return static_cast<uint8_t*>(feature_map_.data()) + a.offset;
  };
  auto is_io = [](const TaskArg& a) { return a.segment == Segment::kInput || a.segment == Segment::kOutput; };
  size_t slots = 0;
  for (size_t i = 0; i < p.in_args.size(); ++i) {
    const TaskArg& a = p.in_args[i];
    if (a.offset >= 0 && is_io(a)) {
      GE_RETURN_IF_ERROR(io_.AddSlot(a, false, i));
      ++slots;
    } else {
      in_args_[i] = fixed(a);
    }
  }
  for (size_t i = 0; i < p.out_args.size(); ++i) {
    const TaskArg& a = p.out_args[i];
    if (is_io(a)) {
      GE_RETURN_IF_ERROR(io_.AddSlot(a, true, i));
      ++slots;
    } else {
      out_args_[i] = fixed(a);
    }
  }
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const IoBinding& b = plan.outputs[o];
    if (!b.copy) continue;
    GE_RETURN_IF_ERROR(io_.AddOutputCopy(o, b.source, is_io(b.source) ? nullptr : static_cast<const uint8_t*>(fixed(b.source))));
  }
  in_scratch_.resize(p.inputs.size());
  out_scratch_.resize(p.outputs.size());
  spdlog::debug("instance memory: feature map {} B, io staging {} + {} B, {} zero-copy argument slots",
                plan.feature_map_size, plan.input_size, plan.output_size, slots);
  return Status::Ok();
}

Status InstanceMemory::WrapPointers(const std::vector<const void*>& in, const std::vector<void*>& out) {
  if (in.size() != in_scratch_.size() || out.size() != out_scratch_.size())
    return InvalidArgument("model takes " + std::to_string(in_scratch_.size()) + " inputs and " +
                           std::to_string(out_scratch_.size()) + " outputs, got " + std::to_string(in.size()) + " and " +
                           std::to_string(out.size()));
  for (size_t i = 0; i < in.size(); ++i) in_scratch_[i] = DataBuffer{in[i], static_cast<size_t>(p_->plan.inputs[i].size)};
  for (size_t i = 0; i < out.size(); ++i) out_scratch_[i] = MutableBuffer{out[i], static_cast<size_t>(p_->plan.outputs[i].size)};
  return Status::Ok();
}

}  // namespace ge::rt
