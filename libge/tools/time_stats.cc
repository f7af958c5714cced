#include "ge/tools/time_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ge::tools {
namespace {

// The value at fractional rank percent/100 * (n - 1) of sorted samples.
double Interpolated(const std::vector<double>& sorted, double percent) {
  const double rank = std::clamp(percent, 0.0, 100.0) / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

}  // namespace

TimeStats SummarizeTimes(std::vector<double> samples, double percent) {
  TimeStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  s.median = Interpolated(samples, 50);
  s.percentile = Interpolated(samples, percent);
  return s;
}

}  // namespace ge::tools
