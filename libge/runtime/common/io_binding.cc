#include "common/io_binding.h"

#include <cstring>
#include <string>

#include "hal/memory.h"

namespace ge::rt {
namespace {

bool Aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % hal::kDefaultAlignment == 0; }

}  // namespace

void IoBinder::Init(const MemoryPlan& plan, uint8_t* staging_in, uint8_t* staging_out, const void** in_args,
                    void** out_args) {
  plan_ = &plan;
  in_args_ = in_args;
  out_args_ = out_args;
  in_.assign(plan.inputs.size(), Port{});
  out_.assign(plan.outputs.size(), Port{});
  for (size_t i = 0; i < in_.size(); ++i) {
    in_[i].size = plan.inputs[i].size;
    in_[i].staging = staging_in + plan.inputs[i].offset;
    in_[i].bound = in_[i].staging;
  }
  for (size_t i = 0; i < out_.size(); ++i) {
    out_[i].size = plan.outputs[i].size;
    out_[i].staging = staging_out + plan.outputs[i].offset;
    out_[i].bound = out_[i].staging;
  }
}

Result<std::pair<size_t, int64_t>> IoBinder::Find(const TaskArg& a) const {
  const auto& bindings = a.segment == Segment::kInput ? plan_->inputs : plan_->outputs;
  for (size_t i = 0; i < bindings.size(); ++i)
    if (a.offset >= bindings[i].offset && a.offset < bindings[i].offset + std::max<int64_t>(bindings[i].size, 1))
      return std::make_pair(i, a.offset - bindings[i].offset);
  return Corrupt(std::string("offset ") + std::to_string(a.offset) + " is in no " + SegmentName(a.segment) +
                 " buffer");
}

Status IoBinder::AddSlot(const TaskArg& a, bool output_arg, size_t index) {
  GE_ASSIGN_OR_RETURN(auto where, Find(a));
  Port& p = a.segment == Segment::kInput ? in_[where.first] : out_[where.first];
  p.slots.push_back(Slot{output_arg, static_cast<uint32_t>(index), where.second});
  if (output_arg) out_args_[index] = p.bound + where.second;
  else in_args_[index] = p.bound + where.second;
  return Status::Ok();
}

Status IoBinder::AddOutputCopy(size_t output, const TaskArg& source, const uint8_t* fixed_source) {
  OutputCopy c{output, source.segment, 0, 0, fixed_source, plan_->outputs[output].size};
  if (source.segment == Segment::kInput || source.segment == Segment::kOutput) {
    GE_ASSIGN_OR_RETURN(auto where, Find(source));
    c.port = where.first;
    c.delta = where.second;
  }
  out_[output].plan_copy = true;
  copies_.push_back(c);
  return Status::Ok();
}

void IoBinder::Patch(Port& p, uint8_t* base) {
  if (base == p.bound) return;
  for (const Slot& s : p.slots) {
    if (s.output_arg) out_args_[s.index] = base + s.delta;
    else in_args_[s.index] = base + s.delta;
  }
  stats_.patched_slots += p.slots.size();
  p.bound = base;
}

Status IoBinder::BindInputs(const std::vector<DataBuffer>& in) {
  stats_ = ExecuteStats{};
  if (in.size() != in_.size())
    return InvalidArgument("model takes " + std::to_string(in_.size()) + " inputs, got " + std::to_string(in.size()));
  for (size_t i = 0; i < in_.size(); ++i) {
    Port& p = in_[i];
    if (p.size == 0) continue;
    const DataBuffer& b = in[i];
    if (!b.data || b.size < static_cast<size_t>(p.size))
      return InvalidArgument("input " + std::to_string(i) + ": buffer of " + std::to_string(b.size) + " bytes, the tensor needs " +
                             std::to_string(p.size));
    if (b.data != p.user) {  // else frozen: the slots already hold it
      p.user = b.data;
      p.copy = !Aligned(b.data);
      Patch(p, p.copy ? p.staging : static_cast<uint8_t*>(const_cast<void*>(b.data)));
    }
    if (p.copy) {
      std::memcpy(p.staging, b.data, static_cast<size_t>(p.size));
      ++stats_.copied_inputs;
    }
  }
  return Status::Ok();
}

Status IoBinder::BindOutputs(const std::vector<MutableBuffer>& out) {
  if (out.size() != out_.size())
    return InvalidArgument("model has " + std::to_string(out_.size()) + " outputs, got " + std::to_string(out.size()));
  for (size_t i = 0; i < out_.size(); ++i) {
    Port& p = out_[i];
    if (p.size == 0) continue;
    const MutableBuffer& b = out[i];
    if (!b.data || b.size < static_cast<size_t>(p.size))
      return InvalidArgument("output " + std::to_string(i) + ": buffer of " + std::to_string(b.size) +
                             " bytes, the tensor needs " + std::to_string(p.size));
    if (b.data == p.user || p.plan_copy) continue;
    p.user = b.data;
    p.copy = !Aligned(b.data);
    Patch(p, p.copy ? p.staging : static_cast<uint8_t*>(b.data));
  }
  return Status::Ok();
}

void IoBinder::FinishOutputs(const std::vector<MutableBuffer>& out) {
  for (size_t i = 0; i < out_.size(); ++i)
    if (out_[i].copy && !out_[i].plan_copy && out_[i].size > 0) {
      std::memcpy(out[i].data, out_[i].staging, static_cast<size_t>(out_[i].size));
      ++stats_.copied_outputs;
    }
  for (const OutputCopy& c : copies_) {
    if (c.size == 0) continue;
    const uint8_t* src = c.fixed;
    if (c.segment == Segment::kInput) src = in_[c.port].bound + c.delta;
    else if (c.segment == Segment::kOutput) src = out_[c.port].bound + c.delta;
    std::memcpy(out[c.output].data, src, static_cast<size_t>(c.size));
    ++stats_.copied_outputs;
  }
}

}  // namespace ge::rt
