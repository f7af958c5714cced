// One ge-run after its flags are resolved: load the model and check the
// flags that depend on it, stage the inputs, outputs and goldens, run every
// input set (dump, warm-up, timed runs, run loop, outputs written), then
// write the trace and summary files and print the report.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ge/tools/npy.h"
#include "run/run_flags.h"
#include "run/run_inputs.h"
#include "run/run_model.h"
#include "run/run_outputs.h"
#include "run/run_profile_table.h"
#include "run/run_summary.h"

namespace ge::run {

class RunSession {
 public:
  // `args`: the command line, for ais_bench's summary.
  RunSession(const RunFlags& flags, const RunSettings& settings, std::vector<std::string> args);
  ~RunSession();

  // The phases, in order; each error names the flag or file at fault.
  Status Load();
  Status PrepareIo();
  Status RunAll();
  Status WriteFiles();
  // Prints the report (text or JSON); the exit code: 0 when every compared
  // output passes.
  int PrintReport();

 private:
  Status CheckModelFlags();
  Status AllocateOutputs();
  Status ReadGoldens();
  Status RunInputSet(size_t k);
  Status DumpOps();
  Status ExecuteOnce();
  void TakeShapedOutputs();
  void PrintDebug(size_t k, size_t first, double h2d, const std::vector<std::string>& in_files,
                  const std::vector<std::string>& written) const;
  void FillReport();

  const RunFlags& f_;
  const RunSettings& s_;
  std::unique_ptr<RunModel> rm_;
  LoadedModel* m_ = nullptr;
  bool dynamic_ = false;
  DymShapes dym_;
  ShapedInputs shaped_in_;
  std::vector<Tensor> shaped_out_;
  InputPlan plan_;
  size_t inferences_ = 1;
  std::optional<InputBuffers> in_;
  std::vector<AlignedBytes> out_data_;
  std::vector<void*> out_ptrs_;
  std::vector<MutableBuffer> out_bufs_;
  std::vector<NpyArray> goldens_;
  OutputLayout layout_;
  TimedRuns runs_;
  std::vector<std::vector<TaskProfile>> profiles_;
  std::optional<ProfileTable> table_;
  Report report_;
  std::vector<IoDesc> run_outputs_;
  FILE* debug_out_;
};

}  // namespace ge::run
