#include "run/run_loop.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "ge/tools/benchmark.h"

namespace ge::run {

Result<RunLoopResult> RunLoop(SinkLoadedModel& model, const std::vector<DataBuffer>& inputs, int n,
                              std::vector<AlignedBytes>& outputs) {
  std::vector<std::vector<AlignedBytes>> job_out(static_cast<size_t>(n));
  std::vector<std::vector<MutableBuffer>> job_bufs(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k)
    for (const auto& io : model.outputs()) {
      if (auto s = AppendBuffer(job_out[k], static_cast<size_t>(std::max<int64_t>(io.desc.Bytes(), 1)), "output " + io.name);
          !s.ok())
        return s.Annotated("--run_loop");
      job_bufs[k].push_back({job_out[k].back().data, job_out[k].back().size});
    }
  std::vector<double> job_ms(static_cast<size_t>(n), 0);
  std::vector<std::chrono::steady_clock::time_point> submitted(static_cast<size_t>(n));
  std::atomic<int> failed{0};
  std::mutex err_mu;
  Status first_error;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < n; ++k) {
    submitted[k] = std::chrono::steady_clock::now();
    auto* slot = &job_ms[k];
    auto* sub = &submitted[k];
    model.ExecuteAsync(inputs, job_bufs[k], [slot, sub, &failed, &err_mu, &first_error](Status s) {
      *slot = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *sub).count();
      if (!s.ok() && failed.fetch_add(1) == 0) {
        std::lock_guard<std::mutex> lock(err_mu);
        first_error = s;
      }
    });
  }
  model.Drain();
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (failed.load() > 0) return first_error.Annotated("--run_loop");
  for (size_t j = 0; j < outputs.size(); ++j) std::memcpy(outputs[j].data, job_out.back()[j].data, outputs[j].size);
  const tools::Latency jl = tools::Percentiles(job_ms);
  const double tput = wall_ms > 0 ? n * 1000.0 / wall_ms : 0;
  RunLoopResult r;
  r.json = {{"inferences", n}, {"wall_ms", wall_ms}, {"throughput_per_s", tput},
            {"latency_ms", {{"p50", jl.p50}, {"p90", jl.p90}, {"p99", jl.p99}, {"mean", jl.mean}}}};
  char line[256];
  std::snprintf(line, sizeof line,
                "run loop: %d inferences in %.3f ms: throughput %.1f/s; latency from submit p50 %.3f ms, p99 %.3f ms", n,
                wall_ms, tput, jl.p50, jl.p99);
  r.line = line;
  return r;
}

}  // namespace ge::run
