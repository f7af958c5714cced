// What every instance of a loaded model shares, whichever runtime runs it,
// built once at load: the device, the plan's segment sizes and IO bindings,
// the weights segment (every constant copied in once), the flattened task
// lists with their (segment, offset) arguments checked against the graph,
// and one kernel spec per kernel task. Immutable once built; sink forks and
// v2 hold it by shared_ptr.
//
// The runtime never compiles: a model without a memory plan or task lists
// is refused here, naming what is missing.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ge/model.h"
#include "hal/device.h"

namespace ge::rt {

struct ProgramTask {
  hal::ModelTask::Kind kind = hal::ModelTask::Kind::kKernel;
  int32_t event = -1;
  int32_t label = -1;                          // LabelSet / LabelGoto
  uint32_t labels_begin = 0, labels_count = 0;  // LabelSwitch: into Program::switch_labels
  int32_t kernel = -1;                    // index into Program::specs / labels / steps
  uint32_t in_begin = 0, in_count = 0;    // into Program::in_args
  uint32_t out_begin = 0, out_count = 0;  // into Program::out_args
};

// Debug loads only (the op dump, ge/op_dump.h): wraps the kernel a runtime
// created for kernel task `kernel` (an index into Program::specs).
using KernelWrap = std::function<Result<std::unique_ptr<hal::Kernel>>(int32_t kernel, std::unique_ptr<hal::Kernel>)>;

struct Program {
  std::string name;
  std::vector<IoDesc> inputs, outputs;
  MemoryPlan plan;  // segment sizes and IO bindings (buffers and order dropped after load)
  std::vector<std::vector<ProgramTask>> streams;
  std::vector<TaskArg> in_args, out_args;
  std::vector<hal::KernelSpec> specs;  // const_inputs point into `weights`
  std::vector<std::string> labels;     // "name (Type)" per kernel (a subgraph's node by its path)
  std::vector<int32_t> steps;          // per kernel: its node's step in the plan's order
  int32_t num_events = 0;
  int32_t num_labels = 0;                // a linked model's control flow (ge/plan/link.h)
  std::vector<int32_t> switch_labels;    // the targets of every LabelSwitch
  size_t num_tasks = 0;
  hal::Device* device = nullptr;
  std::shared_ptr<const hal::DeviceBuffer> weights;
  std::vector<Tensor> packed;  // weights packed ahead (the .om), which specs' packed_inputs view
  KernelWrap wrap_kernel;  // empty in normal loads: kernels run unwrapped


  void* WeightAddress(int64_t offset) const { return static_cast<uint8_t*>(weights->data()) + offset; }
};

// Creates the kernel of kernel task `k` (an error names its node), wrapped
// when the program says so; both runtimes create their kernels here, at load.
Result<std::unique_ptr<hal::Kernel>> CreateKernel(const Program& p, int32_t k);
// Creates the kernels of kernel tasks `ids` (in that order) on every core at
// once: creating a kernel is mostly oneDNN generating its code, one core's
// work, so a model's kernels come up in parallel. Each worker thread holds a
// ShareCompute(num_streams) scope, as the caller would. The first error in
// `ids` order is returned.
Result<std::vector<std::unique_ptr<hal::Kernel>>> CreateKernels(const Program& p, const std::vector<int32_t>& ids,
                                                                size_t num_streams);

// The device a model runs on: `requested` (--device) when given, else the
// model's target, else the default device.
Result<hal::Device*> ResolveDevice(const Model& model, const std::string& requested);

// Weights segments shared by the programs of one load: the gears of a gear
// model are whole static copies of one graph, so their segments are equal
// and one copy serves them all. Thread-safe.
class WeightPool {
 public:
  // `segment` itself, or an equal segment already in the pool (then the
  // pool drops its reference to `segment`).
  std::shared_ptr<const hal::DeviceBuffer> Share(std::shared_ptr<const hal::DeviceBuffer> segment);
  size_t bytes() const;  // of the distinct segments
  void Clear();          // drops the pool's references

 private:
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<const hal::DeviceBuffer>> segments_;
};

// Checks the model against the memory limit (`max_memory` bytes, 0: the
// machine's memory; ge/plan/memory_limit.h), the plan and the task lists
// against the graph (arities, segment ranges, IO sizes, event ids), copies
// the weights to the device once (or, on a device sharing host memory, uses
// the model's weights image in place when it is laid out as the plan's
// weights segment), and builds the kernel specs with their constant inputs
// in place.
// With a `pool`, a weights segment equal to one in it is shared.
Result<std::shared_ptr<const Program>> BuildProgram(const Model& model, hal::Device& device, int64_t max_memory = 0,
                                                    WeightPool* pool = nullptr);

}  // namespace ge::rt
