// Zero-copy IO and address refresh (GE's ZeroCopyTask / UpdateIoTaskArgs).
//
// Each model input and output is a port: the argument slots of the tasks
// that read or write it, each at an offset (delta) inside the tensor. An
// execute binds a port to the user's buffer when it is 64-byte aligned (the
// kernels' contract), else to the model's own IO memory with a copy. Only a
// port whose address changed since the last call has its slots rewritten;
// an unchanged address is frozen and costs one compare.
#pragma once

#include <cstdint>
#include <vector>

#include "ge/plan.h"
#include "ge/runtime.h"

namespace ge::rt {

struct ExecuteStats {
  size_t patched_slots = 0;   // argument slots rewritten by the last execute
  size_t copied_inputs = 0;   // inputs copied into model memory (unaligned)
  size_t copied_outputs = 0;  // outputs copied out (unaligned, or plan copy)
};

class IoBinder {
 public:
  // `staging_in` / `staging_out` are the model's IO segments (plan offsets).
  void Init(const MemoryPlan& plan, uint8_t* staging_in, uint8_t* staging_out, const void** in_args, void** out_args);
  // Registers argument slot `index` of in_args (output_arg false) or out_args
  // as reading/writing IO segment `a`; writes its initial (staging) address.
  Status AddSlot(const TaskArg& a, bool output_arg, size_t index);
  // An output the plan copies after the run (b.copy): its source resolved
  // now for weights / feature map, per run for IO segments.
  Status AddOutputCopy(size_t output, const TaskArg& source, const uint8_t* fixed_source);

  // Before the run: validates sizes, refreshes changed ports, copies unaligned inputs.
  Status BindInputs(const std::vector<DataBuffer>& in);
  Status BindOutputs(const std::vector<MutableBuffer>& out);
  // After the run: copies outputs bound to model memory and the plan's copy outputs.
  void FinishOutputs(const std::vector<MutableBuffer>& out);

  const ExecuteStats& stats() const { return stats_; }

 private:
  struct Slot {
    bool output_arg;
    uint32_t index;
    int64_t delta;
  };
  struct Port {
    int64_t size = 0;
    uint8_t* staging = nullptr;
    std::vector<Slot> slots;
    const void* user = nullptr;   // last user address: equal means frozen
    uint8_t* bound = nullptr;     // the address the slots hold now
    bool copy = false;            // bound to staging (user buffer unaligned)
    bool plan_copy = false;       // an output no task writes: copied from its source
  };
  struct OutputCopy {
    size_t output;
    Segment segment;  // kInput / kOutput: resolved per run; else fixed
    size_t port;
    int64_t delta;
    const uint8_t* fixed;
    int64_t size;
  };
  Result<std::pair<size_t, int64_t>> Find(const TaskArg& a) const;
  void Patch(Port& p, uint8_t* base);

  const MemoryPlan* plan_ = nullptr;
  const void** in_args_ = nullptr;
  void** out_args_ = nullptr;
  std::vector<Port> in_, out_;
  std::vector<OutputCopy> copies_;
  ExecuteStats stats_;
};

}  // namespace ge::rt
