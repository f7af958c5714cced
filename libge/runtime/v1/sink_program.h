// What every instance (fork) of a sink model shares, built once at load:
// the runtime parameters, the weights segment, the flattened task lists with
// their (segment, offset) arguments, and the kernel specs. Immutable after
// BuildSinkProgram; forks hold it by shared_ptr.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"
#include "ge/runtime.h"
#include "hal/kernel.h"
#include "hal/memory.h"
#include "hal/model.h"

namespace ge::v1 {

struct SinkTask {
  hal::ModelTask::Kind kind = hal::ModelTask::Kind::kKernel;
  int32_t event = -1;
  int32_t kernel = -1;  // index into SinkProgram::specs / labels
  uint32_t in_begin = 0, in_count = 0;    // into SinkProgram::in_args
  uint32_t out_begin = 0, out_count = 0;  // into SinkProgram::out_args
};

struct SinkProgram {
  std::string name;
  std::vector<IoDesc> inputs, outputs;
  MemoryPlan plan;  // segment sizes and IO bindings (buffers are not needed after load)
  std::vector<std::vector<SinkTask>> streams;
  std::vector<TaskArg> in_args, out_args;
  std::vector<hal::KernelSpec> specs;  // const_inputs point into `weights`
  std::vector<std::string> labels;     // "name (Type)" per kernel
  int32_t num_events = 0;
  size_t num_tasks = 0;
  std::shared_ptr<hal::DeviceBuffer> weights;
  const hal::KernelRegistry* kernels = nullptr;
  SinkOptions options;

  void* WeightAddress(int64_t offset) const { return static_cast<uint8_t*>(weights->data()) + offset; }
};

// Load phases shared by every fork, in GE's order: InitRuntimeParams (plan,
// streams, events, options) then InitWeightMem (weights copied once).
Result<std::shared_ptr<const SinkProgram>> BuildSinkProgram(const Model& model, const SinkOptions& options);

}  // namespace ge::v1
