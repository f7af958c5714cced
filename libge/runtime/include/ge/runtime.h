// Runtimes: a loaded model that executes.
//  - v2 lowers the graph to an ExecuteGraph (Init / Main / DeInit) run by a
//    sequential executor; a static model's Main is one HAL model run, the
//    same task interpreter as sink's (libge/runtime/v2);
//  - sink (v1, GE's DavinciModel) prepares everything at load and hands each
//    stream's task list to the HAL as one model; an execute refreshes the
//    addresses that changed and triggers the whole model with one call
//    (libge/runtime/v1, docs/runtime-sink.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <map>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge {

// An input of a shaped execute: the caller's bytes with their dims.
struct TensorView {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;
  const void* data = nullptr;
};

// One task of the last profiled run (sink or v2), for a Chrome trace and
// ge-run --profile_table.
struct TaskProfile {
  int32_t stream = 0;
  std::string name;    // node name, or "record event 3" / "wait event 3"
  std::string kernel;  // op type of the kernel, "event" for event tasks
  int32_t event = -1;
  int64_t begin_ns = 0, end_ns = 0;  // steady clock; 0/0: did not run
};

class LoadedModel {
 public:
  virtual ~LoadedModel() = default;
  // True when an input or output shape is known only per call (a dynamic
  // model, docs/dynamic-shapes.md): run it with ExecuteShaped.
  virtual bool dynamic() const { return false; }
  // Inputs with their own dims: any dims the model's inputs allow (a -1 dim
  // takes any size; a static model takes its own dims only). The outputs
  // come back with the dims this call gave them, owning their bytes. A
  // mismatch is an InvalidArgument naming the input.
  virtual Status ExecuteShaped(const std::vector<TensorView>& inputs, std::vector<Tensor>& outputs);
  virtual const std::vector<IoDesc>& inputs() const = 0;
  virtual const std::vector<IoDesc>& outputs() const = 0;
  // inputs[i] holds inputs()[i].desc.Bytes() bytes, outputs[j] has room for
  // outputs()[j].desc.Bytes(); both owned by the caller. Not reentrant: one
  // Execute at a time per loaded model.
  virtual Status Execute(const std::vector<const void*>& inputs, const std::vector<void*>& outputs) = 0;
  // Bytes of device memory the model holds (weights + feature map).
  virtual size_t device_bytes() const = 0;
  // Bytes of value memory in live blocks right now (v2, a dynamic model:
  // its subgraph models' included; 0 for the others, whose memory is
  // planned). Between calls only what Execute keeps: after any call, failed
  // or not, it is back to its level before the call.
  virtual size_t bytes_in_use() const { return 0; }
  // The tasks of the last Execute with their times, when the model was
  // loaded to profile (LoadOptions::profile); empty otherwise.
  virtual std::vector<TaskProfile> Profile() const { return {}; }
};

enum class RunMode { kV2, kSink };

// How a model is loaded, whichever runtime runs it: LoadModel, LoadSinkModel
// and ModelManager take this one type, so no option is lost between them (a
// hand-copied conversion once dropped `profile`).
struct LoadOptions {
  // LoadModel's runtime; LoadSinkModel and ModelManager load in sink mode.
  RunMode mode = RunMode::kV2;
  // The HAL device to run on, by registered name (ge-run --device); empty:
  // the device the model was compiled for (Model::target).
  std::string device;
  // The memory limit in bytes (ge-run --max_memory); 0: the machine's memory.
  // A model with a tensor or segment above it is refused before allocating.
  // v2 on a dynamic model: the value memory of the model and its subgraphs
  // (live and cached blocks) and what a Loop or Scan holds between
  // iterations stay below it; an allocation that would pass it (after the
  // cache is trimmed) ends the call with kInvalidArgument naming the node
  // and the limit.
  int64_t max_memory = 0;
  // How v2 runs a dynamic model's Main graph (ge-run --executor): the
  // sequential C loop, or the topological executor (ready counters over a
  // thread pool, critical path first) with `executor_threads` threads
  // (the caller included; 0: one per core). Static models, in either mode,
  // refuse the topological executor: their memory plan is made for the
  // plan's order.
  enum class Executor { kSequential, kTopological } executor = Executor::kSequential;
  int executor_threads = 0;
  // Per-task timing of every execute, for Profile(), in either runtime: the
  // timing arrays are allocated at load and the timed task loop is a
  // separate instantiation, so without it the per-inference path reads no
  // clock. v2 refuses it for a dynamic model.
  bool profile = false;
  // Default timeout of every execute, in either runtime (0: none). On expiry
  // the run is aborted, the call returns kTimeout and the model stays
  // usable. v2 checks it on a dynamic model between Main nodes (kernels)
  // and before every Loop or Scan iteration, subgraphs included: one kernel
  // is not interrupted, so a call may overrun by its longest kernel.
  std::chrono::milliseconds timeout{0};
  // v2, a dynamic model: the most iterations one Loop or Scan node runs per
  // call (0: no limit); more end the call with kInvalidArgument naming the
  // node. 2^31 by default: above any int32 trip count (what exporters
  // write for a bounded loop), so only a runaway loop meets it.
  static constexpr int64_t kDefaultMaxLoopIterations = int64_t{1} << 31;
  int64_t max_loop_iterations = kDefaultMaxLoopIterations;
  // Sink only: capacity of the run-loop / ExecuteAsync queue; Submit blocks
  // when full.
  size_t queue_depth = 16;
};

// Loads a compiled model (memory plan and task lists included: the runtime
// never compiles, and a model without them is an error naming what is
// missing); the model may be destroyed afterwards.
Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, const LoadOptions& options);
inline Result<std::unique_ptr<LoadedModel>> LoadModel(const Model& model, RunMode mode) {
  return LoadModel(model, LoadOptions{mode, ""});
}

// ------------------------------------------------------------------ sink (v1)

// A user buffer and its size in bytes.
struct DataBuffer {
  const void* data = nullptr;
  size_t size = 0;
};
struct MutableBuffer {
  void* data = nullptr;
  size_t size = 0;
};

// The sink API's name for the one options type.
using SinkOptions = LoadOptions;

using ExecuteCallback = std::function<void(Status)>;

// A model loaded in sink mode (GE's DavinciModel).
class SinkLoadedModel : public LoadedModel {
 public:
  // Zero copy: a buffer that is 64-byte aligned is bound directly (its
  // address patched into the tasks that read or write it); any other buffer
  // goes through the model's own IO memory with a copy. A buffer smaller than
  // its tensor is an InvalidArgument. Addresses equal to the previous call's
  // are not refreshed at all (frozen). `timeout` 0: the model's default.
  virtual Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<MutableBuffer>& outputs,
                         std::chrono::milliseconds timeout) = 0;
  using LoadedModel::Execute;
  // Queued on the model thread (the run loop); the buffers must stay valid
  // until the result is delivered. The callback runs on the model thread.
  // The future form allocates its shared state. The callback form moves the
  // callback into a queue slot prepared at load, which allocates nothing;
  // making the ExecuteCallback allocates unless it is a function pointer or
  // a lambda whose captures are trivially copyable and at most 16 bytes
  // (libstdc++'s std::function stores only those inline: a std::string or
  // shared_ptr capture is one heap allocation per call).
  virtual std::future<Status> ExecuteAsync(const std::vector<DataBuffer>& inputs,
                                           const std::vector<MutableBuffer>& outputs) = 0;
  virtual void ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<MutableBuffer>& outputs,
                            ExecuteCallback done) = 0;
  // Blocks until everything queued has been delivered.
  virtual void Drain() = 0;
  // Stops the run in flight (from any thread); it returns kAborted.
  virtual void Abort() = 0;
  // A new instance sharing this model's weights (GE's ForkGraph) with its own
  // feature map, IO memory, kernels and streams: forks run concurrently.
  virtual Result<std::unique_ptr<SinkLoadedModel>> Fork() const = 0;
  virtual size_t num_streams() const = 0;
  virtual size_t num_tasks() const = 0;
  // Bytes this instance owns (feature map, IO copies), without shared weights.
  virtual size_t instance_bytes() const = 0;
};

Result<std::unique_ptr<SinkLoadedModel>> LoadSinkModel(const Model& model, const SinkOptions& options = {});

// A registry of loaded sink models by id (GE's ModelManager). Thread-safe;
// it takes locks at load, unload and lookup only, never inside an execute.
class ModelManager {
 public:
  static ModelManager& Global();
  Result<uint32_t> Load(const Model& model, const SinkOptions& options = {});
  // A fork of a loaded model, registered under a new id.
  Result<uint32_t> Fork(uint32_t id);
  Status Unload(uint32_t id);
  // The model stays alive while the caller holds it, even if unloaded meanwhile.
  Result<std::shared_ptr<SinkLoadedModel>> Get(uint32_t id) const;
  size_t size() const;

 private:
  mutable std::mutex mu_;
  uint32_t next_id_ = 1;
  std::map<uint32_t, std::shared_ptr<SinkLoadedModel>> models_;
};

// A Chrome trace (chrome://tracing, Perfetto) of profiled tasks: one lane per
// stream, one slice per task, event waits as slices with flow arrows from
// their records. `runs` holds one Profile() per run.
std::string ChromeTraceJson(const std::vector<std::vector<TaskProfile>>& runs, const std::string& model_name);

}  // namespace ge
