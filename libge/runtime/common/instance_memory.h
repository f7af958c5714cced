// One instance's memory, whichever runtime runs it: the feature map (fixed
// addresses, allocated once), the IO staging segments (where unaligned user
// buffers are copied), and every kernel's input and output pointers, flat:
// weights and feature-map arguments resolved at load, IO arguments
// registered with the binder and refreshed per execute (zero copy).
#pragma once

#include <vector>

#include "common/io_binding.h"
#include "common/program.h"

namespace ge::rt {

class InstanceMemory {
 public:
  // Allocates on the program's device and binds every argument. The pointer
  // arrays are sized here once: tasks keep pointers into them.
  Status Init(const Program& p);

  const void* const* inputs(const ProgramTask& t) const { return in_args_.data() + t.in_begin; }
  void* const* outputs(const ProgramTask& t) const { return out_args_.data() + t.out_begin; }
  IoBinder& io() { return io_; }
  const IoBinder& io() const { return io_; }
  // Bytes this instance owns: feature map and IO staging (weights are shared).
  size_t bytes() const { return feature_map_.size() + input_io_.size() + output_io_.size(); }

  // Pointer-only buffers (the LoadedModel interface) as sized buffers, sized
  // as the plan says, for the binder; nothing is allocated per call.
  Status WrapPointers(const std::vector<const void*>& in, const std::vector<void*>& out);
  const std::vector<DataBuffer>& wrapped_inputs() const { return in_scratch_; }
  const std::vector<MutableBuffer>& wrapped_outputs() const { return out_scratch_; }

 private:
  const Program* p_ = nullptr;
  hal::DeviceBuffer feature_map_;
  hal::DeviceBuffer input_io_, output_io_;
  std::vector<const void*> in_args_;
  std::vector<void*> out_args_;
  IoBinder io_;
  std::vector<DataBuffer> in_scratch_;
  std::vector<MutableBuffer> out_scratch_;
};

}  // namespace ge::rt
