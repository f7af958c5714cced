// The process's peak resident memory, for ge-run's report and the benchmark
// scripts (peak_rss_mb): what the model cost in RAM, weights, feature map,
// kernels' scratch and the runtime's own, measured rather than planned.
#pragma once

#include <cstdint>

namespace ge::tools {

// Peak resident set size of this process so far, in bytes (getrusage's
// ru_maxrss, Linux's VmHWM); 0 when the system does not say.
int64_t PeakRssBytes();

}  // namespace ge::tools
