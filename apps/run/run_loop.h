// --run_loop N (sink): N inferences queued on the model thread, each with its
// own output buffers; throughput over the wall time of all N and latency
// from submit to callback.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ge/runtime.h"
#include "run/run_inputs.h"

namespace ge::run {

struct RunLoopResult {
  nlohmann::ordered_json json;
  std::string line;  // the text report's line
};

// Runs the jobs and copies the last job's outputs into `outputs`. Errors name --run_loop.
Result<RunLoopResult> RunLoop(SinkLoadedModel& model, const std::vector<DataBuffer>& inputs, int n,
                              std::vector<AlignedBytes>& outputs);

}  // namespace ge::run
