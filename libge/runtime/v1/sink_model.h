// SinkModel: GE's DavinciModel on the HAL. Load runs the phases in GE's
// order, each a function below; Execute (NnExecute) is the only per-inference
// path: bind/refresh IO addresses, one HAL call, copy back what could not be
// zero-copy. Nothing is allocated or created on that path.
#pragma once

#include <memory>
#include <mutex>

#include "common/hal_model.h"
#include "common/instance_memory.h"
#include "common/program.h"
#include "ge/runtime.h"
#include "hal/model.h"
#include "v1/run_loop.h"

namespace ge::v1 {

class SinkModel final : public SinkLoadedModel {
 public:
  SinkModel(std::shared_ptr<const rt::Program> program, const SinkOptions& options)
      : p_(std::move(program)), options_(options) {}
  ~SinkModel() override;

  // The per-instance phases (a fork runs only these).
  Status Load();

  const std::vector<IoDesc>& inputs() const override { return p_->inputs; }
  const std::vector<IoDesc>& outputs() const override { return p_->outputs; }
  size_t device_bytes() const override { return p_->weights->size() + instance_bytes(); }
  size_t instance_bytes() const override { return mem_.bytes(); }
  size_t num_streams() const override { return p_->streams.size(); }
  size_t num_tasks() const override { return p_->num_tasks; }

  Status Execute(const std::vector<const void*>& inputs, const std::vector<void*>& outputs) override;
  Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<MutableBuffer>& outputs,
                 std::chrono::milliseconds timeout) override;
  std::future<Status> ExecuteAsync(const std::vector<DataBuffer>& inputs,
                                   const std::vector<MutableBuffer>& outputs) override;
  void ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<MutableBuffer>& outputs,
                    ExecuteCallback done) override;
  void Drain() override { loop_->Drain(); }
  void Abort() override { hal_->Abort(); }
  Result<std::unique_ptr<SinkLoadedModel>> Fork() const override;
  std::vector<TaskProfile> Profile() const override;

  const rt::ExecuteStats& last_stats() const { return mem_.io().stats(); }

 private:
  Status InitMemory();
  Status InitModelStream();
  Status InitNodes();
  Status DistributeTask();
  Status LoadEnd();

  std::shared_ptr<const rt::Program> p_;
  SinkOptions options_;
  rt::InstanceMemory mem_;  // fixed feature map, refreshable IO, argument arrays
  std::vector<std::unique_ptr<hal::Kernel>> kernels_;
  rt::TaskLists lists_;  // per HAL stream, the program tasks it runs
  std::unique_ptr<hal::Model> hal_;
  std::mutex exec_mu_;  // one execute at a time (sync calls vs the run loop)
  std::unique_ptr<RunLoop> loop_;
};

// For tests and tools that want the execute statistics of a sink model.
const rt::ExecuteStats* SinkStats(const SinkLoadedModel& m);

// LoadSinkModel with the weights segment taken from `pool` when an equal
// one is there (the gears of a gear model; null: its own).
Result<std::unique_ptr<SinkLoadedModel>> LoadSink(const Model& model, const SinkOptions& options, rt::WeightPool* pool);

// A gear model (FindGearCase) in sink mode: a LoadedModel whose
// ExecuteShaped runs the gear matching the input dims (v1/gear_model.cc).
Result<std::unique_ptr<LoadedModel>> LoadGearModel(const Model& model, const SinkOptions& options);

}  // namespace ge::v1
