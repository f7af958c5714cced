// Statistics of a list of times as ais_bench reports them (its summary's
// "NPU_compute_time", "H2D_latency", "D2H_latency"): min, max, mean, median
// and a percentile, both interpolated linearly between the closest ranks
// (NumPy's default), so the figures agree with ais_bench's for the same list.
#pragma once

#include <cstddef>
#include <vector>

namespace ge::tools {

struct TimeStats {
  double min = 0, max = 0, mean = 0, median = 0, percentile = 0;
  size_t count = 0;
};

// Zeros (count 0) for no samples; `percent` in [0, 100].
TimeStats SummarizeTimes(std::vector<double> samples, double percent = 99);

}  // namespace ge::tools
